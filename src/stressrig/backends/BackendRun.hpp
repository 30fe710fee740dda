#pragma once
// What one graph run of a backend produced, in the scheduler-independent form the modes
// evaluate, with the exactly-once check every backend run gets.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "pullsched/testchain/Duration.hpp"
#include "pullsched/testchain/RunResult.hpp"

namespace pullsched::rig {

struct BackendRun {
    /// jobs[i] (scheduled/actual start and end as offsets from the anchor), runTime (anchor
    /// to the end of the last exit job), lowerBound, expectedEnd, hashes, completedJobs.
    /// For a backend other than pullsched planningJobs is 0, every job counts as posted
    /// once, state Completed if its body ran, and `stats` is empty.
    testchain::RunResult result;
    /// Per node: how often its body ran in this run (1 for a correct backend).
    std::vector<std::uint32_t> executions;
    std::size_t missed = 0;    ///< nodes whose body never ran
    std::size_t repeated = 0;  ///< nodes whose body ran more than once
    /// Σ over jobs of the time a dispatched job spent waiting for its start time inside
    /// its worker (StartTimes::HeldByRig; 0 for native timed starts and for runs without
    /// a schedule).
    testchain::Duration startWait{0};
    /// A run that timed out or was stopped, on an instrumented backend: jobs its scheduler
    /// still counted as pending after it cancelled the rest (0 = every job accounted for).
    std::uint64_t pendingAfterCancel = 0;
    /// As fast as possible: how often this run built the backend's graph inside its timed
    /// region (0 or 1), counted where it is built, so a test sees whether
    /// BackendSetup::planInRun is honoured. pullsched posting every node (with planInRun;
    /// without it the posting precedes the gate that starts the clock), oneTBB constructing
    /// its nodes and edges (else done once in prepare()); OpenMP creating its tasks, Asio
    /// and the pool setting their predecessor counts, in every run
    /// (BackendInfo::buildsGraphEveryRun). 0 for a run on a schedule.
    std::uint32_t timedGraphBuilds = 0;
    /// pullsched's prebuilt run (as fast as possible, without planInRun): how far ahead of
    /// the start of posting its gate was put, how long the posting took, and whether the
    /// gate opened before the posting ended; zero and false otherwise. The next run's
    /// lead follows from these (gateLead), which a test checks.
    testchain::Duration gateLead{0};
    testchain::Duration posting{0};
    bool gateEarly = false;
    /// As fast as possible: the share of the node jobs that the thread which ran the most
    /// of them ran (busiestThreadShare): 1 when one thread ran the whole graph. 0 for a run
    /// on a schedule, where it is not measured.
    double busiestThreadShare = 0;
    /// Per node (when the run's jobs were read): the thread that ran its body as a lane of
    /// a trace, -1 if none did. pullsched on a schedule: its worker's index; otherwise the
    /// threads numbered in the order they began their first job (threadLanes).
    std::vector<std::int32_t> lanes;

    bool exactlyOnce() const noexcept { return missed == 0 && repeated == 0; }
    /// Completed, hash ok, every node exactly once.
    bool ok() const noexcept { return result.ok() && exactlyOnce(); }
};

/// Fills executions-derived counts (missed, repeated) from `executions`.
inline void countExecutions(BackendRun& run) noexcept {
    run.missed = 0;
    run.repeated = 0;
    for (std::uint32_t e : run.executions) {
        if (e == 0) ++run.missed;
        if (e > 1) ++run.repeated;
    }
}

}  // namespace pullsched::rig
