#pragma once
// What --mode=granularity measures of one backend on one graph (a sweep over job sizes),
// and the pure decisions on it: the job sizes to try, the ideal run of a size, when a
// sweep ends and its METG. No threads, no clocks: the mode feeds it measured figures.

#include <chrono>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/EfficiencyCurve.hpp"
#include "analysis/SampleStatistics.hpp"

namespace pullsched::rig {

/// One job size of one backend on one graph.
struct GranularityPoint {
    double jobSizeUs = 0;
    std::size_t runs = 0;         ///< runs made, warm-up included
    std::size_t verified = 0;     ///< of those: completed, hash right, every node exactly once
    SampleStatistics makespanUs;  ///< over the measured (non-warm-up) runs
    double lowerBoundUs = 0;
    double efficiency = kMissing;
};

/// The sweep of one backend on one graph.
struct GranularitySweep {
    std::string backend;
    std::vector<GranularityPoint> points;
    std::string stopped = "max-size";  ///< why the sweep ended
    bool done = false;
    Metg metg;
    SampleStatistics emptyMakespanUs;  ///< --overhead: empty jobs, measured runs
    double emptyNsPerJob = kMissing;   ///< median empty-job makespan / nodes
    /// --overhead: empty jobs with the graph built inside the timed run (planning +
    /// execution, BackendSetup::planInRun), median makespan / nodes.
    SampleStatistics plannedMakespanUs;
    double plannedNsPerJob = kMissing;
    /// --overhead: of each run's jobs, the share its busiest thread ran (1: one thread ran
    /// the whole graph), median over the measured runs; prebuilt and planned in the run.
    double emptyBusiestShare = kMissing;
    double plannedBusiestShare = kMissing;
    /// --overhead, backends with BackendInfo::submitsPrebuiltBatch: the prebuilt graph as
    /// one batch submitted at the clock's start instead of behind a timed gate
    /// (BackendSetup::prebuiltBatch); missing for the others.
    SampleStatistics batchMakespanUs;
    double batchNsPerJob = kMissing;
    double batchBusiestShare = kMissing;
};

/// When a sweep may end before its largest size.
struct SweepEnd {
    double threshold = 0.5;      ///< efficiency that defines METG
    std::size_t window = 3;      ///< sizes in a row that must reach it ...
    double saturation = 0.05;    ///< ... within this spread to end the sweep
    double maxRunTimeUs = 1e6;   ///< a median makespan above this ends it
    bool saturationEnds = true;  ///< false for explicit --sizes: every size is run
};

/// Job sizes from `smallest` by `factor` up to `largest`, rounded to whole nanoseconds,
/// each once.
std::vector<std::chrono::nanoseconds> geometricSizes(std::chrono::nanoseconds smallest,
                                                     std::chrono::nanoseconds largest,
                                                     double factor);

/// The best any schedule could do at `sizeUs` per weight unit on `parallelism` workers:
/// max(work / parallelism, critical path), work and critical path in weight units.
double idealRunUs(double workUnits, double criticalPathUnits, unsigned parallelism, double sizeUs);

/// Efficiency over job size of the sweep's measured points.
EfficiencyCurve efficiencyCurve(const GranularitySweep& sweep);

/// Why the sweep ends after its last point ("saturated", "max-run-time"), or nothing.
std::optional<std::string> sweepEndAfterLastPoint(const GranularitySweep& sweep,
                                                  const SweepEnd& end);

/// METG of the sweep at `threshold`; a sweep cut short by a stop request says so unless
/// a failure ended it first.
void finishSweep(GranularitySweep& sweep, double threshold, bool stopRequested);

/// Every job size measured in any of `sweeps`, ascending, each once.
std::vector<double> measuredSizes(std::span<const GranularitySweep> sweeps);

}  // namespace pullsched::rig
