#pragma once
// Jobs that started later than a lateness limit, read from a lateness histogram.

#include <cstdint>

#include "measure/LatencyHistogram.hpp"

namespace pullsched::rig {

/// Samples above `limitNs`, to the histogram's resolution (0.1 % at 3 digits): a bucket
/// that straddles the limit counts as within it. Values beyond the layout count as above.
inline std::uint64_t latenessMisses(const LatencyHistogram& h, std::int64_t limitNs) {
    if (h.count() == 0 || h.max() <= limitNs) return 0;
    std::uint64_t n = h.overflowCount();
    const auto counts = h.counts();
    for (std::size_t i = 0; i < counts.size(); ++i)
        if (counts[i] && h.bucketLowerBound(i) > limitNs) n += counts[i];
    return n;
}

}  // namespace pullsched::rig
