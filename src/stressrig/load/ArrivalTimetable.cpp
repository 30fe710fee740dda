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

/// Throws unless [from, to) lies inside the profile and holds at most 2^31 arrivals.
void checkWindow(const RateProfile& p, std::chrono::nanoseconds from, std::chrono::nanoseconds to) {
    if (from.count() < 0 || to < from || to > p.duration())
        throw std::invalid_argument(
            fmt::format("ArrivalTimetable: window [{}ns, {}ns) outside the profile's {}ns",
                        from.count(), to.count(), p.duration().count()));
    const long double expected = p.arrivalsBefore(to) - p.arrivalsBefore(from);
    if (expected > kMaxArrivals)
        throw std::length_error(fmt::format("ArrivalTimetable: {} arrivals are too many",
                                            static_cast<double>(expected)));
}

std::int64_t roundedNs(long double seconds) {
    return static_cast<std::int64_t>(std::llround(seconds * 1e9L));
}

/// u uniform in (0, 1] from the top 53 bits, as poisson() draws it.
long double unitGap(std::mt19937_64& rng) {
    const double u = static_cast<double>((rng() >> 11) + 1) * 0x1.0p-53;
    return -std::log(u);
}

}  // namespace

ArrivalTimetable ArrivalTimetable::staged(const RateProfile& profile, std::chrono::nanoseconds from,
                                          std::chrono::nanoseconds to) {
    checkWindow(profile, from, to);
    ArrivalTimetable t(profile.meanRate(from, to), to - from);
    // Arrivals before Λ(from) − 1 lie before `from` whatever the rounding.
    const long double first = std::max(0.0L, std::floor(profile.arrivalsBefore(from)) - 1);
    const long double last = profile.arrivalsBefore(to);
    t.offsets_.reserve(static_cast<std::size_t>(last - first) + 2);
    for (long double i = first; i < last + 1; ++i) {
        const std::int64_t ns = roundedNs(profile.timeOfArrival(i));
        if (ns >= to.count() || (i >= profile.arrivalsBefore(profile.duration()))) break;
        if (ns >= from.count()) t.offsets_.emplace_back(ns - from.count());
    }
    return t;
}

ArrivalTimetable ArrivalTimetable::stagedPoisson(const RateProfile& profile,
                                                 std::chrono::nanoseconds from,
                                                 std::chrono::nanoseconds to, std::uint64_t seed) {
    checkWindow(profile, from, to);
    ArrivalTimetable t(profile.meanRate(from, to), to - from);
    std::mt19937_64 rng(seed);
    const long double end = profile.arrivalsBefore(to);
    long double s = profile.arrivalsBefore(from);
    t.offsets_.reserve(static_cast<std::size_t>((end - s) * 1.1L) + 16);
    for (;;) {
        s += unitGap(rng);
        if (s >= end) break;
        const std::int64_t ns = roundedNs(profile.timeOfArrival(s));
        if (ns >= to.count()) break;
        t.offsets_.emplace_back(std::max<std::int64_t>(0, ns - from.count()));
    }
    return t;
}

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
