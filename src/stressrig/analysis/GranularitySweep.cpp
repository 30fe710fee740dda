#include "analysis/GranularitySweep.hpp"

#include <algorithm>
#include <cmath>

namespace pullsched::rig {

std::vector<std::chrono::nanoseconds> geometricSizes(std::chrono::nanoseconds smallest,
                                                     std::chrono::nanoseconds largest,
                                                     double factor) {
    std::vector<std::chrono::nanoseconds> out;
    for (int k = 0;; ++k) {
        const auto ns = std::chrono::nanoseconds::rep(
            std::llround(double(smallest.count()) * std::pow(factor, k)));
        if (ns > largest.count()) break;
        if (out.empty() || ns != out.back().count()) out.emplace_back(ns);
    }
    return out;
}

double idealRunUs(double workUnits, double criticalPathUnits, unsigned parallelism, double sizeUs) {
    return std::max(workUnits * sizeUs / double(parallelism), criticalPathUnits * sizeUs);
}

EfficiencyCurve efficiencyCurve(const GranularitySweep& sweep) {
    std::vector<EfficiencyPoint> curve;
    for (const GranularityPoint& p : sweep.points)
        curve.push_back({p.jobSizeUs, p.efficiency});
    return EfficiencyCurve(std::move(curve));
}

std::optional<std::string> sweepEndAfterLastPoint(const GranularitySweep& sweep,
                                                  const SweepEnd& end) {
    if (end.saturationEnds &&
        efficiencyCurve(sweep).saturated(end.threshold, end.window, end.saturation))
        return "saturated";
    // the next size would take at least as long again: a busy machine or a slow backend
    // must not stretch the sweep far beyond the ideal budget
    if (!sweep.points.empty() && sweep.points.back().makespanUs.median > end.maxRunTimeUs)
        return "max-run-time";
    return std::nullopt;
}

void finishSweep(GranularitySweep& sweep, double threshold, bool stopRequested) {
    sweep.metg = efficiencyCurve(sweep).metg(threshold);
    if (stopRequested && sweep.stopped != "failure") sweep.stopped = "stop request";
}

std::vector<double> measuredSizes(std::span<const GranularitySweep> sweeps) {
    std::vector<double> sizes;
    for (const GranularitySweep& s : sweeps)
        for (const GranularityPoint& p : s.points)
            sizes.push_back(p.jobSizeUs);
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    return sizes;
}

}  // namespace pullsched::rig
