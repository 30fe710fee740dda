#pragma once
// Latency distributions as people read them: percentiles that the sample count
// supports, in one adaptive unit, as text and as JSON.

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "measure/LatencyHistogram.hpp"

namespace pullsched::rig {

/// Whether `n` samples support the percentile `p` (0..100): p ≤ 100 · (1 − 1/n), i.e.
/// p99 needs 100 samples and p99.9 a thousand; below that the "percentile" is just the
/// maximum. p50 needs 2.
bool percentileSupported(double p, std::uint64_t n) noexcept;

/// "p50 12.3µs  p90 …  p99 …  max …  (mean …, n=…)"; unsupported percentiles are left
/// out, an empty histogram gives "no samples".
std::string percentileLine(const LatencyHistogram& h);

/// { count, mean_us, p50_us, p90_us, p99_us, p99_9_us, max_us }: null where missing
/// (empty histogram, or a percentile the count does not support).
nlohmann::json histogramJson(const LatencyHistogram& h);

}  // namespace pullsched::rig
