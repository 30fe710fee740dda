#include "load/ArrivalTimetable.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

#include <fmt/format.h>

namespace pullsched::rig {
namespace {

constexpr long double kMaxArrivals = 2147483648.0L;  // 2^31

void check(double rate, std::chrono::nanoseconds duration) {
    if (!std::isfinite(rate) || rate <= 0)
        throw std::invalid_argument(
            fmt::format("ArrivalTimetable: rate must be positive and finite, got {}", rate));
    if (duration.count() < 0)
        throw std::invalid_argument(fmt::format(
            "ArrivalTimetable: duration must not be negative, got {}ns", duration.count()));
    const long double expected = static_cast<long double>(rate) * duration.count() / 1e9L;
    if (expected > kMaxArrivals)
        throw std::length_error(fmt::format("ArrivalTimetable: {} arrivals are too many",
                                            static_cast<double>(expected)));
}

}  // namespace

ArrivalTimetable ArrivalTimetable::constant(double ratePerSecond,
                                            std::chrono::nanoseconds duration) {
    check(ratePerSecond, duration);
    ArrivalTimetable t(ratePerSecond, duration);
    const long double product =
        static_cast<long double>(ratePerSecond) * static_cast<long double>(duration.count()) / 1e9L;
    const auto count = static_cast<std::size_t>(std::floor(product * (1 + 1e-12L)));
    t.offsets_.reserve(count);
    const long double spacing = 1e9L / static_cast<long double>(ratePerSecond);
    for (std::size_t i = 0; i < count; ++i) {
        auto ns = static_cast<std::int64_t>(std::llround(static_cast<long double>(i) * spacing));
        if (ns >= duration.count()) ns = duration.count() - 1;  // only via the 1e-12 nudge
        t.offsets_.emplace_back(ns);
    }
    return t;
}

ArrivalTimetable ArrivalTimetable::poisson(double ratePerSecond, std::chrono::nanoseconds duration,
                                           std::uint64_t seed) {
    check(ratePerSecond, duration);
    ArrivalTimetable t(ratePerSecond, duration);
    std::mt19937_64 rng(seed);
    const double end = static_cast<double>(duration.count()) / 1e9;
    t.offsets_.reserve(static_cast<std::size_t>(ratePerSecond * end * 1.1) + 16);
    double now = 0;
    for (;;) {
        const double u = static_cast<double>((rng() >> 11) + 1) * 0x1.0p-53;  // (0, 1]
        now += -std::log(u) / ratePerSecond;
        if (now >= end) break;
        auto ns = static_cast<std::int64_t>(std::llround(now * 1e9));
        if (ns >= duration.count()) break;
        t.offsets_.emplace_back(ns);
    }
    return t;
}

double ArrivalTimetable::realisedRate() const noexcept {
    return duration_.count() > 0
               ? static_cast<double>(offsets_.size()) * 1e9 / static_cast<double>(duration_.count())
               : 0.0;
}

std::uint64_t measuredArrivals(const ArrivalTimetable& tt, std::chrono::nanoseconds warmup) {
    const auto first = std::lower_bound(tt.begin(), tt.end(), warmup);
    return static_cast<std::uint64_t>(tt.end() - first);
}

}  // namespace pullsched::rig
