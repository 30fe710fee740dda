#pragma once
// Parsing and printing of durations and rates with units, for the command line and
// for human-readable reports.

#include <chrono>
#include <stdexcept>
#include <string>
#include <string_view>

namespace pullsched::rig {

/// Thrown for unparsable input; what() names the offending text and the accepted forms.
class UnitError : public std::invalid_argument {
  public:
    using std::invalid_argument::invalid_argument;
};

struct Units {
    /// `<number><unit>`, optional blanks in between; number is decimal with optional
    /// fraction and exponent (`1.5s`, `2e3us`). Units: ns, us, µs (U+00B5 or U+03BC),
    /// ms, s, min, h. A unit is required (a bare `500` is ambiguous), and `m` is
    /// rejected on purpose (minutes or milliseconds?). Rounded to the nearest ns;
    /// negative, non-finite or out-of-range values are errors.
    static std::chrono::nanoseconds parseDuration(std::string_view text);

    /// Jobs per second: `<number>[k|M][/s|/ms|/us|/min|/h|Hz]`, e.g. `1000`, `2k`,
    /// `2k/s`, `1.5M`, `50/ms`, `600/min`, `10kHz`. A bare number means per second.
    /// Must be positive and finite.
    static double parseRate(std::string_view text);

    /// 3 significant digits in the largest unit ≥ 1: `850ns`, `12.3µs`, `1.50ms`,
    /// `2.35s`; from one minute on `2min 05.3s`, from one hour `1h 02min`. Negative
    /// durations get a leading '-'. ascii = true writes `us` instead of `µs`.
    static std::string formatDuration(std::chrono::nanoseconds d, bool ascii = false);

    /// `950/s`, `12.5k/s`, `1.20M/s` (3 significant digits).
    static std::string formatRate(double perSecond);
};

/// A duration as a number of milliseconds / microseconds (for CSV and JSON fields whose
/// names carry the unit).
inline double toMs(std::chrono::nanoseconds d) {
    return std::chrono::duration<double, std::milli>(d).count();
}
inline double toUs(std::chrono::nanoseconds d) {
    return std::chrono::duration<double, std::micro>(d).count();
}

}  // namespace pullsched::rig
