#pragma once
// What one scheduled run of a graph (a breaking-point probe's, a parameter-series
// point's) says about the scheduler's correctness.

#include <string>

#include "pullsched/testchain/RunResult.hpp"

namespace pullsched::rig {

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
