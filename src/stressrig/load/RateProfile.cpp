#include "load/RateProfile.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "format/Units.hpp"

namespace pullsched::rig {
namespace {

long double seconds(Duration d) {
    return static_cast<long double>(d.count()) / 1e9L;
}

/// Λ over the first `tau` seconds of a stage.
long double stageArrivals(const RateStage& s, long double tau) {
    const long double len = seconds(s.length);
    return s.fromRate * tau + (s.toRate - s.fromRate) * tau * tau / (2 * len);
}

/// The τ within a stage where its arrivals reach m (0 ≤ m ≤ the stage's total): the
/// root of r0·τ + a·τ² = m with a = (r1 − r0) / 2L, in the form that does not cancel.
long double stageTimeOf(const RateStage& s, long double m) {
    const long double r0 = s.fromRate;
    if (s.hold()) return m / r0;
    const long double a = (s.toRate - s.fromRate) / (2 * seconds(s.length));
    const long double disc = std::max(0.0L, r0 * r0 + 4 * a * m);
    const long double denom = r0 + std::sqrt(disc);
    const long double tau = denom > 0 ? 2 * m / denom : seconds(s.length);
    return std::clamp(tau, 0.0L, seconds(s.length));
}

std::string stageLength(Duration d) {
    const auto ns = d.count();
    if (ns % 60'000'000'000 == 0) return fmt::format("{}min", ns / 60'000'000'000);
    return fmt::format("{}s", static_cast<double>(ns) / 1e9);
}

}  // namespace

RateProfile::RateProfile(std::vector<RateStage> stages) : stages_(std::move(stages)) {
    if (stages_.empty()) throw std::invalid_argument("a rate profile needs at least one stage");
    long double total = 0;
    starts_.push_back(Duration{0});
    startArrivals_.push_back(0);
    for (std::size_t i = 0; i < stages_.size(); ++i) {
        const RateStage& s = stages_[i];
        if (s.length <= Duration{0})
            throw std::invalid_argument(
                fmt::format("stage {}: its duration must be positive", i + 1));
        for (double r : {s.fromRate, s.toRate})
            if (!std::isfinite(r) || r < 0)
                throw std::invalid_argument(fmt::format(
                    "stage {}: a rate must be finite and not negative, got {}", i + 1, r));
        total += stageArrivals(s, seconds(s.length));
        duration_ = saturatingAdd(duration_, s.length);
        starts_.push_back(duration_);
        startArrivals_.push_back(total);
    }
    if (peakRate() <= 0) throw std::invalid_argument("a rate profile must offer some load");
}

double RateProfile::rateAt(Duration t) const noexcept {
    if (t < Duration{0} || t >= duration_) return 0;
    const auto k = static_cast<std::size_t>(std::upper_bound(starts_.begin(), starts_.end(), t) -
                                            starts_.begin()) -
                   1;
    const RateStage& s = stages_[k];
    const long double f = seconds(t - starts_[k]) / seconds(s.length);
    return static_cast<double>(s.fromRate + (s.toRate - s.fromRate) * f);
}

long double RateProfile::arrivalsBefore(Duration t) const noexcept {
    if (t <= Duration{0}) return 0;
    if (t >= duration_) return startArrivals_.back();
    const auto k = static_cast<std::size_t>(std::upper_bound(starts_.begin(), starts_.end(), t) -
                                            starts_.begin()) -
                   1;
    return startArrivals_[k] + stageArrivals(stages_[k], seconds(t - starts_[k]));
}

double RateProfile::meanRate(Duration from, Duration to) const noexcept {
    if (to <= from) return 0;
    return static_cast<double>((arrivalsBefore(to) - arrivalsBefore(from)) / seconds(to - from));
}

long double RateProfile::timeOfArrival(long double n) const noexcept {
    if (n <= 0) {
        // the earliest time: the start of the first stage that offers anything
        for (std::size_t k = 0; k < stages_.size(); ++k)
            if (startArrivals_[k + 1] > 0) return seconds(starts_[k]);
        return seconds(duration_);
    }
    if (n >= startArrivals_.back()) return seconds(duration_);
    // the stage k with Λ(start k) < n ≤ Λ(end k): stages with no arrivals are skipped
    const auto k = static_cast<std::size_t>(
        std::lower_bound(startArrivals_.begin() + 1, startArrivals_.end(), n) -
        (startArrivals_.begin() + 1));
    return seconds(starts_[k]) + stageTimeOf(stages_[k], n - startArrivals_[k]);
}

double RateProfile::peakRate() const noexcept {
    double peak = 0;
    for (const RateStage& s : stages_)
        peak = std::max({peak, s.fromRate, s.toRate});
    return peak;
}

Duration RateProfile::endOfLastStageAbove(double rate) const noexcept {
    Duration end{0};
    for (std::size_t k = 0; k < stages_.size(); ++k)
        if (std::max(stages_[k].fromRate, stages_[k].toRate) > rate) end = starts_[k + 1];
    return end;
}

std::string RateProfile::text() const {
    std::string out;
    for (const RateStage& s : stages_) {
        if (!out.empty()) out += ',';
        out += stageLength(s.length) + ':' + Units::formatRate(s.fromRate);
        if (!s.hold()) out += "\u2192" + Units::formatRate(s.toRate);
    }
    return out;
}

}  // namespace pullsched::rig
