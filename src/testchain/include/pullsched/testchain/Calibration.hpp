#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <span>

namespace pullsched::testchain {

/// Result of calibrating the computational load: how much work fits in a microsecond.
struct Calibration {
    double speed = 0.0;         ///< work units per µs (CPU: hash steps, memory: words)
    double errorPercent = 0.0;  ///< disagreement of the last two estimates, or cache check
    bool fromCache = false;     ///< speed taken from the per-machine cache (and re-checked)
    std::size_t samples = 0;    ///< timed trials this calibration needed
};

/// The pure calibration math, separated from any clock so it can be tested with numbers.
/// Samples are grouped in batches of `batch`; an estimate is a batch mean. The result is
/// the mean of the first two successive estimates that agree within `tolerance`
/// (relative), with their disagreement as error; nullopt if none agree yet.
std::optional<Calibration> estimateConverged(std::span<const double> samples, std::size_t batch = 5,
                                             double tolerance = 0.05);

/// Draws samples (speed per trial) until estimateConverged succeeds or maxSamples are
/// taken; then the last two batches are used and the error reports their disagreement.
Calibration calibrateWith(const std::function<double()>& sample, std::size_t batch = 5,
                          double tolerance = 0.05, std::size_t maxSamples = 200);

/// |measured − reference| / reference in percent (infinity if reference is not positive).
double relativeErrorPercent(double reference, double measured) noexcept;

/// Whether a fresh measurement confirms a cached speed (within tolerance, relative).
inline bool confirmsCached(double cached, double measured, double tolerance = 0.05) noexcept {
    return relativeErrorPercent(cached, measured) <= tolerance * 100.0;
}

}  // namespace pullsched::testchain
