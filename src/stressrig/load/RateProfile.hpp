#pragma once
// An offered rate that changes over time (--stages): holds and linear ramps, one after
// the other. Pure: the arrival timetable and the reports read rates and arrival counts
// from it; nothing here reads a clock or the command line.

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "pullsched/scheduler/Time.hpp"

namespace pullsched::rig {

/// One stage: the rate goes linearly from `fromRate` to `toRate` (jobs/s) over
/// `length`; a hold has fromRate == toRate.
struct RateStage {
    Duration length{0};
    double fromRate = 0;
    double toRate = 0;
    bool hold() const noexcept { return fromRate == toRate; }
};

/// The piecewise-linear rate r(t) of consecutive stages, starting at t = 0, and its
/// integral Λ(t) = ∫₀ᵗ r — the expected number of arrivals before t.
class RateProfile {
  public:
    /// Throws std::invalid_argument for no stages, a stage of zero length, a negative or
    /// non-finite rate, or a profile whose rate is 0 throughout.
    explicit RateProfile(std::vector<RateStage> stages);

    const std::vector<RateStage>& stages() const noexcept { return stages_; }
    Duration duration() const noexcept { return duration_; }

    /// r(t); the rate a stage ends with belongs to the next stage's start. 0 outside.
    double rateAt(Duration t) const noexcept;
    /// Λ(t) in jobs, t clamped to [0, duration].
    long double arrivalsBefore(Duration t) const noexcept;
    /// (Λ(to) − Λ(from)) / (to − from): the mean offered rate over [from, to); 0 when empty.
    double meanRate(Duration from, Duration to) const noexcept;
    /// The earliest t with Λ(t) = n, as a non-negative time in seconds; for n ≥ Λ(duration)
    /// the profile's duration. Inverts Λ exactly per stage (a quadratic for a ramp).
    long double timeOfArrival(long double n) const noexcept;

    double peakRate() const noexcept;
    /// The rate the profile ends with: the load the system is meant to sustain after a spike.
    double finalRate() const noexcept { return stages_.back().toRate; }
    /// The end of the last stage that offers more than `rate` anywhere; 0 when none does.
    Duration endOfLastStageAbove(double rate) const noexcept;

    /// "30s:0→2k/s,1min:2k/s" — the canonical form for reports.
    std::string text() const;

  private:
    std::vector<RateStage> stages_;
    std::vector<long double> startArrivals_;  ///< Λ at each stage's start, one more at the end
    std::vector<Duration> starts_;            ///< each stage's start, one more at the end
    Duration duration_{0};
};

}  // namespace pullsched::rig
