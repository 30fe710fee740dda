// pullsched as a job stream: every job is posted ahead with its intended start as the
// job's start time and its deadline, so the scheduler itself releases it (native timed
// start) and drops it unstarted past its deadline (native deadlines).
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
    void post(pullsched::TimePoint intendedStart, pullsched::TimePoint deadline,
              StreamJob job) override {
        pullsched::JobOptions o;
        o.start = intendedStart;
        o.deadline = deadline;
        sched_->postDetached(std::move(job), o);
    }
    std::uint64_t expiredByBackend() const noexcept override {
        return sched_ ? sched_->stats().expired : final_.expired;
    }
    // A closed load's next job may wait for seconds of think time: stop() need not.
    void cancelPending() override { sched_->shutdown(pullsched::ShutdownMode::Cancel); }
    std::uint64_t cancelledByBackend() const noexcept override {
        return sched_ ? sched_->stats().cancelled : final_.cancelled;
    }
    void shutdown() override {
        sched_->shutdown(pullsched::ShutdownMode::Drain);
        final_ = sched_->stats();
        sched_.reset();
    }

  private:
    std::optional<pullsched::Scheduler> sched_;
    pullsched::Statistics final_;  ///< the counts when the scheduler went
};

}  // namespace

std::unique_ptr<StreamRunner> makePullschedStreamRunner(const BackendInfo& info) {
    return std::make_unique<PullschedStream>(info);
}

}  // namespace pullsched::rig
