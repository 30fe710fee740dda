// pullsched as a job stream: every job is posted ahead with its intended start as the
// job's start time and its deadline, so the scheduler itself releases it (native timed
// start) and drops it unstarted past its deadline (native deadlines).
#include <memory>
#include <mutex>
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
        const std::lock_guard lock(lifetime_);
        sched_.emplace(schedulerConfig(workers, placement, nullptr, kStreamPool));
    }
    void post(pullsched::TimePoint intendedStart, pullsched::TimePoint deadline,
              StreamJob job) override {
        pullsched::JobOptions o;
        o.start = intendedStart;
        o.deadline = deadline;
        sched_->postDetached(std::move(job), o);
    }
    // The counts are read from any thread (a sampler's backlog probe), also while stop()
    // ends the scheduler: the lock keeps it alive for the reading.
    std::uint64_t expiredByBackend() const noexcept override {
        const std::lock_guard lock(lifetime_);
        return sched_ ? sched_->stats().expired : final_.expired;
    }
    // A closed load's next job may wait for seconds of think time: stop() need not.
    void cancelPending() override { sched_->shutdown(pullsched::ShutdownMode::Cancel); }
    std::uint64_t cancelledByBackend() const noexcept override {
        const std::lock_guard lock(lifetime_);
        return sched_ ? sched_->stats().cancelled : final_.cancelled;
    }
    void shutdown() override {
        sched_->shutdown(pullsched::ShutdownMode::Drain);
        const std::lock_guard lock(lifetime_);
        final_ = sched_->stats();
        sched_.reset();
    }

  private:
    std::optional<pullsched::Scheduler> sched_;
    pullsched::Statistics final_;  ///< the counts when the scheduler went
    mutable std::mutex lifetime_;  ///< guards sched_ being there, not the scheduler
};

}  // namespace

std::unique_ptr<StreamRunner> makePullschedStreamRunner(const BackendInfo& info) {
    return std::make_unique<PullschedStream>(info);
}

}  // namespace pullsched::rig
