#include "analysis/BreakingPointSearch.hpp"

#include <algorithm>
#include <stdexcept>

namespace pullsched::rig {

BreakingPointSearch::BreakingPointSearch(Limits limits)
    : limits_(limits), high_(limits.start), next_(limits.start) {
    if (!(limits.start > 0) || !(limits.cap >= limits.start) || !(limits.resolution > 0))
        throw std::invalid_argument(
            "BreakingPointSearch: need 0 < start <= cap and a positive resolution");
}

std::optional<double> BreakingPointSearch::next() const {
    if (finished_) return std::nullopt;
    return next_;
}

void BreakingPointSearch::record(bool broken) {
    if (finished_) throw std::logic_error("BreakingPointSearch: the search is over");
    ++probes_;
    const double s = next_;
    if (!bracketed_) {  // widening
        if (broken) {
            bracketed_ = true;
            high_ = s;
        } else {
            low_ = s;
            if (s >= limits_.cap) {
                finished_ = true;
                return;
            }
            next_ = std::min(s * 2, limits_.cap);
            return;
        }
    } else {
        (broken ? high_ : low_) = s;
    }
    if (high_ - low_ <= limits_.resolution)
        finished_ = true;
    else
        next_ = (low_ + high_) / 2;
}

}  // namespace pullsched::rig
