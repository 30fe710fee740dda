#pragma once
// One probe of the breaking-point search: the runs of one schedule at one stress, judged
// against the thresholds that decide whether the schedule still holds.

#include <cstddef>
#include <span>

#include "analysis/SampleStatistics.hpp"

namespace pullsched::rig {

/// One run of a probe, in milliseconds.
struct ProbeRun {
    /// Anchor to the end of the last exit job; kMissing when the run is incomplete (an
    /// exit job expired or was cancelled, so the run has no end time).
    double runtimeMs = kMissing;
    double expectedMs = 0;        ///< the schedule's planned end
    bool missedDeadline = false;  ///< some job expired
};

/// When a run fails and when a probe counts as broken (the reference's rule).
struct BreakThresholds {
    double failDeltaMs = 2;  ///< a run fails if runtime − expected exceeds this
    double sdevLimitMs = 2;
    double deltaLimitMs = 4;
    double breakFailFraction = 0.99;  ///< broken if more runs than this fail ...
    double failFraction = 0.55;  ///< ... or more than this fail, with σ and mean delta over limits
};

/// The figures of one probe. Incomplete runs are missing: they are excluded from the mean
/// delta, σ and the mean runtime (and counted), but they count as failed runs, since a
/// run that did not finish did not keep its schedule.
struct ProbeStatistics {
    double stress = 0;
    std::size_t runs = 0;
    std::size_t incomplete = 0;
    std::size_t failed = 0;          ///< incomplete, missed a deadline, or later than failDelta
    double failFraction = kMissing;  ///< failed / runs
    double meanDeltaMs = kMissing;   ///< mean of runtime − expected over complete runs
    double sdevMs = kMissing;        ///< σ of the run times (n − 1), complete runs; needs 2
    double meanRuntimeMs = kMissing;
    double expectedMs = kMissing;
    bool broken = false;

    static bool runFailed(const ProbeRun& run, const BreakThresholds& t);
    static ProbeStatistics of(double stress, std::span<const ProbeRun> runs,
                              const BreakThresholds& t);
};

}  // namespace pullsched::rig
