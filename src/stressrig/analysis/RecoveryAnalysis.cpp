#include "analysis/RecoveryAnalysis.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace pullsched::rig {
namespace {

/// The time from the spike's end to the end of the first interval from `first` on that
/// satisfies `ok` (0 when that is the spike's own last one); missing when none does.
template <class Ok>
std::optional<double> firstAfter(std::span<const RecoveryPoint> points, std::size_t first,
                                 double spikeEnd, Ok ok) {
    for (std::size_t k = first; k < points.size(); ++k)
        if (ok(points[k])) return std::max(0.0, points[k].endSeconds - spikeEnd);
    return std::nullopt;
}

}  // namespace

Recovery assessRecovery(std::span<const RecoveryPoint> points, const RecoveryCriteria& c) {
    Recovery r;
    // the first interval that ends after the spike
    const auto after = static_cast<std::size_t>(
        std::find_if(points.begin(), points.end(),
                     [&](const RecoveryPoint& p) { return p.endSeconds > c.spikeEndSeconds; }) -
        points.begin());
    if (after == points.size()) return r;
    r.assessed = true;
    for (std::size_t k = after; k < points.size(); ++k)
        r.peakBacklog = std::max(r.peakBacklog, points[k].backlog);
    const std::size_t first = after > 0 ? after - 1 : after;  // the spike's own last interval
    if (after > 0) r.backlogAtSpikeEnd = points[first].backlog;
    const auto drained = [&](const RecoveryPoint& p) { return p.backlog <= c.backlogLimit; };
    const auto onTime = [&](const RecoveryPoint& p) {
        return std::isnan(p.lateShare) || p.lateShare <= c.lateShareLimit;
    };
    r.drainSeconds = firstAfter(points, first, c.spikeEndSeconds, drained);
    r.underLimitSeconds = firstAfter(points, first, c.spikeEndSeconds, onTime);
    if (r.drainSeconds && r.underLimitSeconds) {
        const double back = std::max(*r.drainSeconds, *r.underLimitSeconds) + c.spikeEndSeconds;
        for (std::size_t k = after; k < points.size(); ++k) {
            if (points[k].endSeconds <= back) continue;
            ++r.intervalsAfterRecovery;
            if (!(drained(points[k]) && onTime(points[k]))) ++r.relapses;
        }
    }
    return r;
}

}  // namespace pullsched::rig
