#pragma once
// How many samples a percentile needs before it says more than the maximum.

#include <cstdint>

namespace pullsched::rig {

/// Whether `n` samples support the percentile `p` (0..100): p ≤ 100 · (1 − 1/n), i.e.
/// p99 needs 100 samples and p99.9 a thousand; below that the "percentile" is just the
/// maximum. p50 needs 2.
bool percentileSupported(double p, std::uint64_t n) noexcept;

}  // namespace pullsched::rig
