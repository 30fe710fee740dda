#pragma once
// Intended start offsets for open (fixed arrival rate) load.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "load/RateProfile.hpp"

namespace pullsched::rig {

/// The timetable of an open load: job i is *intended* to start at offset(i) after the
/// run's origin, independent of the system's progress, so that lateness can be
/// measured from the intended start (no coordinated omission).
///
/// Offsets lie in the half-open interval [0, duration) and are non-decreasing.
/// Throws std::invalid_argument for a non-positive or non-finite rate or a negative
/// duration, std::length_error for more than 2^31 arrivals.
class ArrivalTimetable {
  public:
    /// Evenly spaced arrivals: count = ⌊rate · duration⌋ (duration in seconds; the
    /// product is computed in long double and nudged by a relative 1e-12 so that e.g.
    /// 1000/s · 1 s gives exactly 1000, not 999), offset(i) = round(i · 1e9 / rate) ns,
    /// the first arrival at 0. Each offset is computed from i directly, so rounding
    /// never accumulates.
    static ArrivalTimetable constant(double ratePerSecond, std::chrono::nanoseconds duration);

    /// Poisson arrivals: gaps are exponential with mean 1/rate, drawn by inversion
    /// gap = −ln(u)/rate from u uniform in (0, 1], where u = (k + 1)·2^-53 and k are
    /// the top 53 bits of a std::mt19937_64 seeded with `seed` — so the sequence is
    /// identical on every standard library. The first arrival is one gap after 0;
    /// arrival times are accumulated in double seconds and rounded to ns.
    static ArrivalTimetable poisson(double ratePerSecond, std::chrono::nanoseconds duration,
                                    std::uint64_t seed);

    /// The arrivals of a changing rate (--stages) in the window [from, to) of `profile`,
    /// offsets relative to `from`. Arrival i of the whole profile is at Λ⁻¹(i) (Λ the
    /// profile's integral; the first at the start of the first stage that offers load),
    /// rounded to ns, and belongs to the window its rounded time falls in — so adjacent
    /// windows share no arrival and miss none, and every interval [a, b) holds
    /// Λ(b) − Λ(a) arrivals within ±1. rate() is the window's mean offered rate.
    static ArrivalTimetable staged(const RateProfile& profile, std::chrono::nanoseconds from,
                                   std::chrono::nanoseconds to);

    /// Poisson arrivals of a changing rate by time rescaling: a unit-rate Poisson process
    /// (gaps drawn as in poisson()) started at Λ(from) is mapped through Λ⁻¹, so the count
    /// in [a, b) is Poisson with mean Λ(b) − Λ(a).
    static ArrivalTimetable stagedPoisson(const RateProfile& profile, std::chrono::nanoseconds from,
                                          std::chrono::nanoseconds to, std::uint64_t seed);

    const std::vector<std::chrono::nanoseconds>& offsets() const noexcept { return offsets_; }
    std::size_t size() const noexcept { return offsets_.size(); }
    std::chrono::nanoseconds operator[](std::size_t i) const { return offsets_[i]; }
    auto begin() const noexcept { return offsets_.begin(); }
    auto end() const noexcept { return offsets_.end(); }

    double rate() const noexcept { return rate_; }  ///< the offered rate, jobs/s
    std::chrono::nanoseconds duration() const noexcept { return duration_; }
    /// size() / duration in jobs/s (0 for an empty duration).
    double realisedRate() const noexcept;

  private:
    ArrivalTimetable(double rate, std::chrono::nanoseconds duration)
        : rate_(rate), duration_(duration) {}

    double rate_;
    std::chrono::nanoseconds duration_;
    std::vector<std::chrono::nanoseconds> offsets_;
};

/// Arrivals of the timetable at or after `warmup` — the jobs an open run measures.
std::uint64_t measuredArrivals(const ArrivalTimetable& tt, std::chrono::nanoseconds warmup);

}  // namespace pullsched::rig
