#include "format/Units.hpp"

#include <cmath>
#include <cstdint>
#include <limits>

#include <fmt/format.h>

#include "format/SignificantDigits.hpp"

namespace pullsched::rig {

std::string Units::formatDuration(std::chrono::nanoseconds d, bool ascii) {
    const std::int64_t n = d.count();
    if (n < 0) {
        if (n == std::numeric_limits<std::int64_t>::min())
            return fmt::format("-{}", formatDuration(std::chrono::nanoseconds::max(), ascii));
        return fmt::format("-{}", formatDuration(std::chrono::nanoseconds{-n}, ascii));
    }
    auto sig = [](double v) { return formatSignificant(v, 3); };
    if (n < 1'000) return fmt::format("{}ns", n);
    if (n < 999'500) return sig(n / 1e3) + (ascii ? "us" : "µs");
    if (n < 999'500'000) return sig(n / 1e6) + "ms";
    if (n < 59'950'000'000) return sig(n / 1e9) + "s";
    if (n < 3'600'000'000'000) {
        // tenths of a second, rounded, split into minutes and seconds
        const std::int64_t tenths = (n + 50'000'000) / 100'000'000;
        return fmt::format("{}min {:02}.{}s", tenths / 600, (tenths % 600) / 10, tenths % 10);
    }
    const std::int64_t minutes = (n + 30'000'000'000) / 60'000'000'000;
    return fmt::format("{}h {:02}min", minutes / 60, minutes % 60);
}

std::string Units::formatRate(double perSecond) {
    auto sig = [](double v) { return formatSignificant(v, 3); };
    const double a = std::abs(perSecond);
    if (a >= 999.5e3) return sig(perSecond / 1e6) + "M/s";
    if (a >= 999.5) return sig(perSecond / 1e3) + "k/s";
    return sig(perSecond) + "/s";
}

}  // namespace pullsched::rig
