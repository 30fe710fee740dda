#pragma once
// Mean, spread and order statistics of measurements that may be missing (NaN).

#include <cstddef>
#include <limits>
#include <span>

namespace pullsched::rig {

/// A value that could not be measured: NaN. Tables write it as an empty cell, JSON as
/// null, text as "n/a"; statistics leave it out and count it.
inline constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();

/// Statistics over the present values; `missing` counts the NaNs left out. With no
/// present value every figure is kMissing; sdev needs two (n − 1 in the denominator).
struct SampleStatistics {
    std::size_t count = 0;    ///< present values
    std::size_t missing = 0;  ///< NaNs excluded
    double mean = kMissing, sdev = kMissing, min = kMissing, max = kMissing, median = kMissing;

    static SampleStatistics of(std::span<const double> values);
};

}  // namespace pullsched::rig
