#pragma once
// Durations and rates with units as the command line gives them (`500us`, `2k/s`); the
// text the reports print is format/Units.hpp.

#include <chrono>
#include <stdexcept>
#include <string_view>

namespace pullsched::rig {

/// Thrown for unparsable input; what() names the offending text and the accepted forms.
class UnitError : public std::invalid_argument {
  public:
    using std::invalid_argument::invalid_argument;
};

/// `<number><unit>`, optional blanks in between; number is decimal with optional
/// fraction and exponent (`1.5s`, `2e3us`). Units: ns, us, µs (U+00B5 or U+03BC),
/// ms, s, min, h. A unit is required (a bare `500` is ambiguous), and `m` is
/// rejected on purpose (minutes or milliseconds?). Rounded to the nearest ns;
/// negative, non-finite or out-of-range values are errors.
std::chrono::nanoseconds parseDuration(std::string_view text);

/// Jobs per second: `<number>[k|M][/s|/ms|/us|/min|/h|Hz]`, e.g. `1000`, `2k`,
/// `2k/s`, `1.5M`, `50/ms`, `600/min`, `10kHz`. A bare number means per second.
/// Must be positive and finite.
double parseRate(std::string_view text);

}  // namespace pullsched::rig
