#include "cli/UnitParsing.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>

#include <fmt/format.h>

namespace pullsched::rig {
namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

/// Splits off the leading decimal number; throws with `what` naming the input.
double leadingNumber(std::string_view text, std::string_view& rest, std::string_view what) {
    std::size_t i = 0;
    auto digits = [&] {
        const std::size_t start = i;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
            ++i;
        return i > start;
    };
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    bool any = digits();
    if (i < text.size() && text[i] == '.') {
        ++i;
        any = digits() || any;
    }
    if (!any) throw UnitError(fmt::format("invalid {} '{}': expected a number first", what, text));
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        std::size_t j = i + 1;
        if (j < text.size() && (text[j] == '+' || text[j] == '-')) ++j;
        if (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) {
            i = j;
            digits();
        }
    }
    std::string_view number = text.substr(0, i);
    if (number.starts_with('+')) number.remove_prefix(1);  // from_chars takes no '+'
    double v = 0;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), v);
    if (ec != std::errc{} || end != number.data() + number.size() || !std::isfinite(v))
        throw UnitError(fmt::format("invalid {} '{}': bad number '{}'", what, text, number));
    rest = trim(text.substr(i));
    return v;
}

}  // namespace

std::chrono::nanoseconds parseDuration(std::string_view input) {
    const std::string_view text = trim(input);
    constexpr std::string_view kForms =
        "use e.g. 500us, 2ms, 1.5s, 10min (units ns us µs ms s min h)";
    if (text.empty()) throw UnitError(fmt::format("empty duration: {}", kForms));
    std::string_view unit;
    const double v = leadingNumber(text, unit, "duration");
    double scale = 0;
    if (unit == "ns")
        scale = 1;
    else if (unit == "us" || unit == "\u00b5s" || unit == "\u03bcs")
        scale = 1e3;
    else if (unit == "ms")
        scale = 1e6;
    else if (unit == "s")
        scale = 1e9;
    else if (unit == "min")
        scale = 60e9;
    else if (unit == "h")
        scale = 3600e9;
    else if (unit.empty())
        throw UnitError(fmt::format("invalid duration '{}': missing unit; {}", text, kForms));
    else if (unit == "m")
        throw UnitError(
            fmt::format("invalid duration '{}': 'm' is ambiguous, write 'min' or 'ms'", text));
    else
        throw UnitError(
            fmt::format("invalid duration '{}': unknown unit '{}'; {}", text, unit, kForms));
    if (v < 0) throw UnitError(fmt::format("invalid duration '{}': must not be negative", text));
    const double ns = std::round(v * scale);
    if (!(ns < 9.2e18)) throw UnitError(fmt::format("invalid duration '{}': too large", text));
    return std::chrono::nanoseconds{static_cast<std::int64_t>(ns)};
}

double parseRate(std::string_view input) {
    const std::string_view text = trim(input);
    constexpr std::string_view kForms = "use e.g. 1000, 2k, 2k/s, 50/ms, 600/min, 10kHz";
    if (text.empty()) throw UnitError(fmt::format("empty rate: {}", kForms));
    std::string_view rest;
    double v = leadingNumber(text, rest, "rate");
    if (!rest.empty() && (rest.front() == 'k' || rest.front() == 'K')) {
        v *= 1e3;
        rest = trim(rest.substr(1));
    } else if (!rest.empty() && rest.front() == 'M') {
        v *= 1e6;
        rest = trim(rest.substr(1));
    }
    if (rest.empty() || rest == "/s" || rest == "Hz") {
    } else if (rest == "/ms") {
        v *= 1e3;
    } else if (rest == "/us" || rest == "/\u00b5s" || rest == "/\u03bcs") {
        v *= 1e6;
    } else if (rest == "/min") {
        v /= 60;
    } else if (rest == "/h") {
        v /= 3600;
    } else {
        throw UnitError(
            fmt::format("invalid rate '{}': unknown suffix '{}'; {}", text, rest, kForms));
    }
    if (!(v > 0) || !std::isfinite(v))
        throw UnitError(fmt::format("invalid rate '{}': must be positive", text));
    return v;
}

}  // namespace pullsched::rig
