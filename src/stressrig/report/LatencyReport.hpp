#pragma once
// Latency distributions as people read them: percentiles that the sample count
// supports, in one adaptive unit, as text and as JSON.

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/PercentileSupport.hpp"
#include "measure/LatencyHistogram.hpp"

namespace pullsched::rig {

/// "p50 12.3µs  p90 …  p99 …  max …  (mean …, n=…)"; unsupported percentiles are left
/// out, an empty histogram gives "no samples".
std::string percentileLine(const LatencyHistogram& h);

/// { count, mean_us, p50_us, p90_us, p99_us, p99_9_us, max_us }: null where missing
/// (empty histogram, or a percentile the count does not support).
nlohmann::json histogramJson(const LatencyHistogram& h);

}  // namespace pullsched::rig
