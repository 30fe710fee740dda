#pragma once
// The rig's one set of text helpers for numbers in reports: durations given in any unit,
// fractions as percent, each printing "n/a" for a missing value (NaN). Modes, backends
// and report writers use these instead of local helpers, so one figure reads the same
// wherever it appears.

#include <chrono>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "format/Units.hpp"
#include "report/MissingValues.hpp"

namespace pullsched::rig {

/// A duration, 3 significant digits in the largest unit >= 1 (see Units::formatDuration).
inline std::string durationText(std::chrono::nanoseconds d) {
    return Units::formatDuration(d);
}

/// A duration given as a (possibly fractional) count of `unitNs` nanoseconds; "n/a" for
/// NaN. `sign` puts a '+' before non-negative values (for differences).
inline std::string durationText(double count, double unitNs, bool sign = false) {
    return textOr(count, [&](double v) {
        const auto ns = std::chrono::nanoseconds{std::llround(v * unitNs)};
        return fmt::format("{}{}", sign && v >= 0 ? "+" : "", Units::formatDuration(ns));
    });
}

/// Microseconds and milliseconds, the units of the rig's JSON fields.
inline std::string usText(double us, bool sign = false) {
    return durationText(us, 1e3, sign);
}
inline std::string msText(double ms, bool sign = false) {
    return durationText(ms, 1e6, sign);
}

/// A fraction (0.25) as percent with `decimals` after the point ("25.0 %"); "n/a" for NaN.
inline std::string percentText(double fraction, int decimals = 1) {
    return textOr(fraction, [&](double v) { return fmt::format("{:.{}f} %", 100 * v, decimals); });
}

}  // namespace pullsched::rig
