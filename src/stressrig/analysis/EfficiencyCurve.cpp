#include "analysis/EfficiencyCurve.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace pullsched::rig {

double runEfficiency(double workUs, double criticalPathUs, unsigned parallelism,
                     double makespanUs) {
    if (std::isnan(makespanUs) || makespanUs <= 0 || parallelism == 0) return kMissing;
    const double bound = std::max(workUs / double(parallelism), criticalPathUs);
    return bound / makespanUs;
}

std::string Metg::kindName() const {
    switch (kind) {
        case Kind::Interpolated:
            return "interpolated";
        case Kind::AtOrBelowSmallest:
            return "at_or_below_smallest";
        case Kind::AboveLargest:
            return "above_largest";
        case Kind::NoData:
            break;
    }
    return "no_data";
}

EfficiencyCurve::EfficiencyCurve(std::vector<EfficiencyPoint> points) : points_(std::move(points)) {
    for (const EfficiencyPoint& p : points_)
        if (!(p.jobSizeUs > 0) || !std::isfinite(p.jobSizeUs))
            throw std::invalid_argument(
                fmt::format("job size {} us: sizes must be positive", p.jobSizeUs));
    std::sort(points_.begin(), points_.end(),
              [](const EfficiencyPoint& a, const EfficiencyPoint& b) {
                  return a.jobSizeUs < b.jobSizeUs;
              });
    for (std::size_t i = 1; i < points_.size(); ++i)
        if (points_[i].jobSizeUs == points_[i - 1].jobSizeUs)
            throw std::invalid_argument(
                fmt::format("job size {} us appears twice", points_[i].jobSizeUs));
}

Metg EfficiencyCurve::metg(double threshold) const {
    if (!(threshold > 0 && threshold <= 1))
        throw std::invalid_argument(fmt::format("threshold {}: must be in (0, 1]", threshold));
    std::vector<EfficiencyPoint> m;  // the measured points, by size
    for (const EfficiencyPoint& p : points_)
        if (!std::isnan(p.efficiency)) m.push_back(p);
    Metg r;
    r.threshold = threshold;
    r.measured = m.size();
    if (m.empty()) return r;  // NoData

    const auto reaches = [&](const EfficiencyPoint& p) { return p.efficiency >= threshold; };
    const auto first = std::find_if(m.begin(), m.end(), reaches);
    if (first != m.end()) r.firstReachedUs = first->jobSizeUs;

    // the last miss, scanning down from the largest size
    std::size_t lastMiss = m.size();
    for (std::size_t i = m.size(); i-- > 0;)
        if (!reaches(m[i])) {
            lastMiss = i;
            break;
        }
    r.nonMonotonic =
        first != m.end() && lastMiss != m.size() && std::size_t(first - m.begin()) < lastMiss;

    if (lastMiss == m.size()) {
        r.kind = Metg::Kind::AtOrBelowSmallest;
        r.boundUs = m.front().jobSizeUs;
        return r;
    }
    if (lastMiss + 1 == m.size()) {
        r.kind = Metg::Kind::AboveLargest;
        r.boundUs = m.back().jobSizeUs;
        return r;
    }
    const EfficiencyPoint& lo = m[lastMiss];
    const EfficiencyPoint& hi = m[lastMiss + 1];
    // efficiency is taken as linear in log(size) between the two bracketing sizes
    const double t = (threshold - lo.efficiency) / (hi.efficiency - lo.efficiency);
    r.kind = Metg::Kind::Interpolated;
    r.belowUs = lo.jobSizeUs;
    r.aboveUs = hi.jobSizeUs;
    r.valueUs = std::exp(std::log(lo.jobSizeUs) + t * std::log(hi.jobSizeUs / lo.jobSizeUs));
    return r;
}

bool EfficiencyCurve::saturated(double threshold, std::size_t window, double tolerance) const {
    if (window == 0) return false;
    std::vector<double> last;  // the last `window` measured efficiencies
    for (std::size_t i = points_.size(); i-- > 0 && last.size() < window;)
        if (!std::isnan(points_[i].efficiency)) last.push_back(points_[i].efficiency);
    if (last.size() < window) return false;
    const auto [lo, hi] = std::minmax_element(last.begin(), last.end());
    return *lo >= threshold && *hi - *lo <= tolerance;
}

}  // namespace pullsched::rig
