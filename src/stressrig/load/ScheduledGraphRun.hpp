#pragma once
// Repeated runs of one schedule of a graph (breaking-point probes, parameter-series
// points), stoppable within a run, and what each run says about the scheduler's
// correctness.

#include <cstddef>
#include <string>
#include <vector>

#include "pullsched/scheduler/Scheduler.hpp"
#include "pullsched/testchain/LevelSchedule.hpp"
#include "pullsched/testchain/RunResult.hpp"
#include "pullsched/testchain/ScheduleRunner.hpp"
#include "pullsched/testchain/TestChainGraph.hpp"

#include "load/CompletionLimit.hpp"

namespace pullsched::rig {

class StopRequest;

struct ScheduledGraphRuns {
    /// The runs, the last one possibly interrupted or timed out (no job states then).
    std::vector<testchain::RunResult> runs;
    bool interrupted = false;  ///< a stop request ended the series before `reps` runs
    std::string failure;       ///< the first correctness failure (the series stopped there)
    std::string late;          ///< the last run outlasted its completion limit: a result
    /// After an interruption or a timeout the scheduler was shut down (what had not
    /// started is cancelled): it takes no further run.
    bool schedulerShutDown = false;
};

/// Up to `reps` runs of `schedule` on `scheduler`, each cleared and verified, each
/// waited for until `limit` (config.completionLimit is replaced). `stop` is polled while
/// the runner prepares and while a run waits: an interrupted run ends at once, and the
/// scheduler is shut down (ShutdownMode::Cancel) so that nothing more starts. Stops after
/// the first run with a correctness failure or a timeout.
ScheduledGraphRuns runScheduledGraph(Scheduler& scheduler, const testchain::TestChainGraph& graph,
                                     const testchain::LevelSchedule& schedule,
                                     testchain::RunnerConfig config, std::size_t reps,
                                     const StopRequest& stop, const CompletionLimit& limit);

/// Why a run shows a correctness failure of the scheduler (a failed job, a planning
/// error, a hash mismatch on a run in which every job completed), or "" when it shows
/// none. Expired and cancelled jobs are overload, not a failure: such a run is
/// incomplete and its hash is not checked. A run that timed out or was interrupted was
/// not measured to its end: lateRunFinding() says what a timeout means.
std::string correctnessFailure(const testchain::RunResult& run);

/// A run is complete when every exit job completed and no job expired or was cancelled.
inline bool runComplete(const testchain::RunResult& run) {
    return run.completed && run.expired == 0 && run.cancelled == 0;
}

}  // namespace pullsched::rig
