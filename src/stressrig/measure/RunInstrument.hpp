#pragma once
// Instrumentation of scheduled TestChainLoad runs through the scheduler's Observer:
// enter/leave brackets per worker (IncidenceCount) and the worker of each node job.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "measure/IncidenceCount.hpp"
#include "measure/MeasuredJob.hpp"
#include "pullsched/scheduler/Observer.hpp"
#include "pullsched/testchain/RunResult.hpp"

namespace pullsched::rig {

/// Observer for a Scheduler that runs a ScheduleRunner's node jobs (tag = tagBase +
/// node id). Planning jobs (ScheduleRunner::kPlanningTag) and foreign tags are ignored.
/// Install it in SchedulerConfig::observer; call reset() between runs, and read the
/// results only after the scheduler is drained (its onJobEnd precedes the job's final
/// state, so after drain() every bracket is closed).
class RunInstrument final : public Observer {
  public:
    RunInstrument(unsigned workers, std::size_t nodes, std::uint64_t tagBase = 0);

    void onJobStart(unsigned worker, const JobEvent& e) override;
    void onJobEnd(unsigned worker, const JobEvent& e) override;

    /// Forget the last run's events and workers.
    void reset() noexcept;
    const IncidenceCount& incidence() const noexcept { return incidence_; }
    IncidenceStatistic evaluate(const testchain::StopPredicate& stop = {}) const {
        return incidence_.evaluate(stop);
    }
    /// Worker that ran the node in the last run, -1 if none was seen.
    int workerOf(std::size_t node) const noexcept;

    /// Per job of the run that ran: scheduled/actual start, end (absolute, from the
    /// anchor) and the worker, named "node <id>".
    std::vector<MeasuredJob> measuredJobs(const testchain::RunResult& run) const;

  private:
    bool isNode(std::uint64_t tag, std::size_t& node) const noexcept;

    std::size_t nodes_;
    std::uint64_t tagBase_;
    IncidenceCount incidence_;
    std::unique_ptr<std::atomic<int>[]> worker_;
};

}  // namespace pullsched::rig
