#pragma once
// Lateness figures of a step as table cells: NaN (an empty CSV cell, null in JSON, "n/a"
// in text) where the step measured no job or too few jobs for the percentile, never 0.

#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "format/Units.hpp"
#include "report/CsvTable.hpp"
#include "report/LatencyReport.hpp"
#include "report/MissingValues.hpp"

namespace pullsched::rig {

/// Mean lateness in µs; NaN without samples.
inline double meanLatenessUs(const LatencyHistogram& h) {
    return h.count() > 0 ? h.mean() / 1e3 : std::numeric_limits<double>::quiet_NaN();
}

/// Percentile `p` in µs; NaN when the sample count does not support it (100 = max).
inline double percentileLatenessUs(const LatencyHistogram& h, double p) {
    const bool ok = p >= 100 ? h.count() > 0 : percentileSupported(p, h.count());
    return ok ? static_cast<double>(h.percentile(p)) / 1e3
              : std::numeric_limits<double>::quiet_NaN();
}

/// A value in µs as an adaptive duration ("12.3µs", "1.50ms"), "n/a" for NaN.
inline std::string durationTextUs(double us) {
    return textOr(us, [](double v) {
        return Units::formatDuration(std::chrono::nanoseconds{std::llround(v * 1e3)});
    });
}

/// The columns of `names` that hold at least one number: a plotted column without any
/// would stop gnuplot.
inline std::vector<std::string> columnsWithData(const CsvTable& t,
                                                const std::vector<std::string>& names) {
    std::vector<std::string> out;
    for (const std::string& n : names)
        for (double v : t.numbers(n))
            if (!std::isnan(v)) {
                out.push_back(n);
                break;
            }
    return out;
}

}  // namespace pullsched::rig
