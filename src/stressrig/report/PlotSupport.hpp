#pragma once
// What the verdict pictures share: missing values, a plot command of several parts, when a
// log axis pays, number and legend formatting, the series colours. Internal to the
// picture files of report/ (BreakingPointPlot, PercentilePlot, SweepPlot, HeadroomPlots,
// PipecleanPlot).

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "report/MetricCatalogue.hpp"

namespace pullsched::rig::plot {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

inline bool has(double v) {
    return std::isfinite(v);
}

inline std::string joinPlot(const std::vector<std::string>& parts) {
    std::string s = "plot ";
    for (std::size_t i = 0; i < parts.size(); ++i)
        s += (i ? ", \\\n     " : "") + parts[i];
    return s + "\n";
}

/// True when the positive values span about two decades or more (a factor of 50): a log
/// axis then shows both the body and the tail.
inline bool spansDecades(const std::vector<double>& values) {
    double lo = kNaN, hi = kNaN;
    for (double v : values) {
        if (!has(v) || v <= 0) continue;
        lo = has(lo) ? std::min(lo, v) : v;
        hi = has(hi) ? std::max(hi, v) : v;
    }
    return has(lo) && hi / lo >= 50;
}

inline std::string num(double v) {
    return fmt::format("{:.6g}", v);
}

/// A figure's CSV header without its unit, "p99 lateness us" → "p99 lateness", for a legend
/// (the axis carries the unit).
inline std::string seriesName(const std::string& column) {
    for (const Metric& m : MetricCatalogue::all())
        if (MetricCatalogue::csvHeader(m) == column)
            return std::string(m.csvWords.empty() ? m.label : m.csvWords);
    return column;
}

/// The colour of the i-th series, the same order in every picture.
inline const char* seriesColour(std::size_t i) {
    static constexpr const char* kColours[] = {"#1565c0", "#ef6c00", "#2e7d32", "#6a1b9a",
                                               "#c62828", "#00838f", "#5d4037", "#ad1457"};
    return kColours[i % std::size(kColours)];
}

}  // namespace pullsched::rig::plot
