#pragma once
// Repeated runs of one schedule of a graph (breaking-point probes, parameter-series
// points), with a stop check between the runs, and what each run says about the
// scheduler's correctness.

#include <cstddef>
#include <string>
#include <vector>

#include "pullsched/scheduler/Scheduler.hpp"
#include "pullsched/testchain/LevelSchedule.hpp"
#include "pullsched/testchain/RunResult.hpp"
#include "pullsched/testchain/ScheduleRunner.hpp"
#include "pullsched/testchain/TestChainGraph.hpp"

namespace pullsched::rig {

class StopRequest;

struct ScheduledGraphRuns {
    std::vector<testchain::RunResult> runs;
    bool interrupted = false;  ///< a stop request ended the series before `reps` runs
    std::string failure;       ///< the first correctness failure (the series stopped there)
};

/// Up to `reps` runs of `schedule` on `scheduler`, each cleared and verified. A run
/// blocks until its jobs are final, so a stop takes effect between runs. Stops after the
/// first run with a correctness failure.
ScheduledGraphRuns runScheduledGraph(Scheduler& scheduler, const testchain::TestChainGraph& graph,
                                     const testchain::LevelSchedule& schedule,
                                     const testchain::RunnerConfig& config, std::size_t reps,
                                     const StopRequest& stop);

/// Why a run shows a correctness failure of the scheduler (a failed job, a timeout, a
/// planning error, a hash mismatch on a run in which every job completed), or "" when it
/// shows none. Expired and cancelled jobs are overload, not a failure: such a run is
/// incomplete and its hash is not checked.
std::string correctnessFailure(const testchain::RunResult& run);

/// A run is complete when every exit job completed and no job expired or was cancelled.
inline bool runComplete(const testchain::RunResult& run) {
    return run.completed && run.expired == 0 && run.cancelled == 0;
}

}  // namespace pullsched::rig
