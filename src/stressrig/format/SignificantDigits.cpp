#include "format/SignificantDigits.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace pullsched::rig {

std::string formatSignificant(double v, int significant) {
    if (!std::isfinite(v)) return fmt::format("{}", v);
    if (v == 0) return "0";
    significant = std::max(significant, 1);
    // The exponent of v *after* rounding to `significant` digits (0.9999 → 1.00e+00),
    // so that rounding up across a power of ten does not add a digit.
    const std::string sci = fmt::format("{:.{}e}", v, significant - 1);
    const int magnitude = std::stoi(sci.substr(sci.find('e') + 1));
    if (magnitude < -4) return fmt::format("{:.{}g}", v, significant);
    const int decimals = std::max(0, significant - 1 - magnitude);
    std::string s = fmt::format("{:.{}f}", v, decimals);
    if (s.starts_with("-0") && s.find_first_not_of("-0.") == std::string::npos)
        s.erase(0, 1);  // no "-0.000" for values that round to zero
    return s;
}

}  // namespace pullsched::rig
