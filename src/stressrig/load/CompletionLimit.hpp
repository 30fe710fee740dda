#pragma once
// How long the rig waits for one graph run, and what a run that outlasts it says. A
// late run is a measurement (a slow or busy machine makes it late); only jobs that the
// scheduler loses from its own accounting are a correctness failure.

#include <cstdint>
#include <string>

#include "pullsched/scheduler/Time.hpp"
#include "pullsched/testchain/RunResult.hpp"
#include "pullsched/testchain/ScheduleRunner.hpp"

namespace pullsched::rig {

/// The wait for one run, from the moment it is started.
struct CompletionLimit {
    Duration plannedEnd{0};  ///< pre-roll + the schedule's planned end of the last job
    Duration margin{0};      ///< how long past the planned end the rig waits
    Duration total() const noexcept { return saturatingAdd(plannedEnd, margin); }
};

/// Fixed part of every margin: the scheduler's start, calibration noise, a short graph.
inline constexpr Duration kCompletionMarginBase = std::chrono::seconds{30};
/// The margin's multiple of the plan and the work: even one worker at a quarter of the
/// calibrated speed ends a run within it.
inline constexpr int kCompletionMarginFactor = 4;

/// The limit of a run of `runner` (its pre-roll and anchor delay) whose schedule ends at
/// `plannedEnd` after the anchor, holding `work` of job time (GraphStatistics::work) and
/// deadlines `lifeWindow` after the starts: margin = kCompletionMarginBase +
/// kCompletionMarginFactor x (plannedEnd + work + lifeWindow), every sum saturating.
CompletionLimit completionLimit(const testchain::RunnerConfig& runner, Duration plannedEnd,
                                Duration work, Duration lifeWindow = Duration::zero());

/// What one run that ended (not interrupted) says, beyond correctnessFailure().
struct RunFinding {
    std::string failure;  ///< a correctness failure (exit 1): jobs missing from the accounting
    std::string late;     ///< the run outlasted its limit: a result, reported as such
};

/// For a run that timed out: "did not finish within 7min 30s of its planned end (1min
/// 40s): 51234 of 100000 posted jobs had ended; ..." and, when the scheduler
/// still counts jobs as pending after its shutdown (`pendingAfterShutdown`), the failure
/// naming them. Empty for a run that did not time out.
RunFinding lateRunFinding(const testchain::RunResult& run, const CompletionLimit& limit,
                          std::uint64_t pendingAfterShutdown);

}  // namespace pullsched::rig
