// pullsched as a job stream: every job is posted ahead with its intended start as the
// job's start time, so the scheduler itself releases it (native timed start), the same
// way the open mode drives it when it runs alone.
#include <memory>
#include <optional>

#include "backends/StreamBackends.hpp"
#include "load/SchedulerFactory.hpp"
#include "pullsched/scheduler/Scheduler.hpp"

namespace pullsched::rig {

namespace {

/// A job pool sized for a load test, so that a measurement does not time pool growth.
constexpr std::size_t kStreamPool = 1 << 14;

class PullschedStream final : public StreamBackend {
  public:
    ~PullschedStream() override { stopOnDestruction(); }
    std::string_view name() const noexcept override { return "pullsched"; }
    ArrivalTimes arrivalTimes() const noexcept override { return ArrivalTimes::Native; }
    std::string_view arrivalTimesText() const noexcept override {
        return "native: each job is posted ahead with its intended start as its start time; "
               "the scheduler releases it then";
    }

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

std::unique_ptr<StreamBackend> makePullschedStream() {
    return std::make_unique<PullschedStream>();
}

}  // namespace pullsched::rig
