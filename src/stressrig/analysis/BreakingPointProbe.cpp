#include "analysis/BreakingPointProbe.hpp"

#include <cmath>
#include <vector>

namespace pullsched::rig {

bool ProbeStatistics::runFailed(const ProbeRun& run, const BreakThresholds& t) {
    return std::isnan(run.runtimeMs) || run.missedDeadline ||
           run.runtimeMs - run.expectedMs > t.failDeltaMs;
}

ProbeStatistics ProbeStatistics::of(double stress, std::span<const ProbeRun> runs,
                                    const BreakThresholds& t) {
    ProbeStatistics p;
    p.stress = stress;
    p.runs = runs.size();
    std::vector<double> runtime, delta, expected;
    for (const ProbeRun& r : runs) {
        runtime.push_back(r.runtimeMs);
        delta.push_back(r.runtimeMs - r.expectedMs);  // NaN stays NaN
        expected.push_back(r.expectedMs);
        if (runFailed(r, t)) ++p.failed;
    }
    const SampleStatistics rt = SampleStatistics::of(runtime);
    p.incomplete = rt.missing;
    p.meanRuntimeMs = rt.mean;
    p.sdevMs = rt.sdev;
    p.meanDeltaMs = SampleStatistics::of(delta).mean;
    p.expectedMs = SampleStatistics::of(expected).mean;
    if (p.runs == 0) return p;
    p.failFraction = double(p.failed) / double(p.runs);
    // Comparisons with a missing σ or delta are false: those clauses need the figures.
    p.broken = p.failFraction > t.breakFailFraction ||
               (p.failFraction > t.failFraction && p.sdevMs > t.sdevLimitMs &&
                p.meanDeltaMs > t.deltaLimitMs);
    return p;
}

}  // namespace pullsched::rig
