#pragma once
// A latency histogram in HdrHistogram's percentile-distribution text format (.hgrm),
// which HdrHistogram's plotters and tools read.

#include <string>

#include "measure/LatencyHistogram.hpp"

namespace pullsched::rig {

/// The text HdrHistogram's outputPercentileDistribution(out, ticksPerHalfDistance,
/// valueScale) writes for the same counts:
///
///            Value     Percentile TotalCount 1/(1-Percentile)
///
///            0.000 0.000000000000          1           1.00
///            9.903 0.100000000000        101           1.11
///          …
///         1000.447 1.000000000000       1007
///     #[Mean    =       54.673, StdDeviation   =       72.756]
///     #[Max     =     1000.447, Total count    =         1007]
///     #[Buckets =           32, SubBuckets     =         2048]
///
/// Values are divided by `valueScale` (1000: ns recorded, µs written) and printed with
/// as many decimals as the histogram has significant digits. As in HdrHistogram, a value
/// is its bucket's highest equivalent value, mean and standard deviation are computed
/// from the buckets' middles, and the percentile steps halve their distance to 100 %
/// every `ticksPerHalfDistance` lines. Values above the highest trackable one count at
/// the maximum. An empty histogram gives the header and the footer only.
std::string hgrmText(const LatencyHistogram& h, double valueScale = 1000.0,
                     int ticksPerHalfDistance = 5);

}  // namespace pullsched::rig
