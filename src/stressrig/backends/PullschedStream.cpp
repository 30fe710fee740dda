// pullsched as a job stream: every job is posted ahead with its intended start as the
// job's start time, so the scheduler itself releases it (native timed start), the same
// way the open mode drives it when it runs alone.
#include <memory>
#include <optional>

#include "backends/BackendFactories.hpp"
#include "backends/StreamRunner.hpp"
#include "load/SchedulerFactory.hpp"
#include "pullsched/scheduler/Scheduler.hpp"

namespace pullsched::rig {

namespace {

/// A job pool sized for a load test, so that a measurement does not time pool growth.
constexpr std::size_t kStreamPool = 1 << 14;

class PullschedStream final : public StreamRunner {
  public:
    using StreamRunner::StreamRunner;
    ~PullschedStream() override { stopOnDestruction(); }

  protected:
    void launch(unsigned workers, Placement placement) override {
        sched_.emplace(schedulerConfig(workers, placement, nullptr, kStreamPool));
    }
    void post(pullsched::TimePoint intendedStart, StreamJob job) override {
        pullsched::JobOptions o;
        o.start = intendedStart;
        sched_->postDetached(std::move(job), o);
    }
    void shutdown() override {
        sched_->shutdown(pullsched::ShutdownMode::Drain);
        sched_.reset();
    }

  private:
    std::optional<pullsched::Scheduler> sched_;
};

}  // namespace

std::unique_ptr<StreamRunner> makePullschedStreamRunner(const BackendInfo& info) {
    return std::make_unique<PullschedStream>(info);
}

}  // namespace pullsched::rig
