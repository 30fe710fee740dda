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
    /// A cached speed kept although its re-check ran this much slower (percent; 0 when
    /// confirmed or measured afresh): the machine was busier than when it was calibrated.
    double slowerAtCheckPercent = 0.0;
};

/// The pure calibration math, separated from any clock so it can be tested with numbers.
/// Samples are grouped in batches of `batch`; an estimate is a batch's fastest trial:
/// other work on the CPU (another process, the host taking the virtual CPU) can only slow
/// a trial down, so the fastest is the least disturbed, where a mean takes every
/// interruption in. The result is the mean of the first two successive estimates that
/// agree within `tolerance` (relative), with their disagreement as error; nullopt if none
/// agree yet.
std::optional<Calibration> estimateConverged(std::span<const double> samples, std::size_t batch = 5,
                                             double tolerance = 0.05);

/// Draws samples (speed per trial) until estimateConverged succeeds or maxSamples are
/// taken; then the last two batches are used and the error reports their disagreement.
Calibration calibrateWith(const std::function<double()>& sample, std::size_t batch = 5,
                          double tolerance = 0.05, std::size_t maxSamples = 200);

/// |measured − reference| / reference in percent (infinity if reference is not positive).
double relativeErrorPercent(double reference, double measured) noexcept;

/// What a fresh measurement says of a cached speed.
enum class CacheCheck {
    Confirmed,   ///< within tolerance
    RunsSlower,  ///< slower, but more than half as fast: a busy machine, keep the cached speed
    Stale,       ///< faster (the cached figure was taken on a busy machine), or less than
                 ///< half as fast (not a load effect): calibrate afresh
};
/// Keeping the faster figure is what keeps efficiencies below 100 %: a speed calibrated
/// while other work slowed the CPU makes every job body shorter than its nominal size
/// once the machine is quiet again.
CacheCheck checkCached(double cached, double measured, double tolerance = 0.05) noexcept;

/// Re-checks a cached speed with the fastest of three samples (as an estimate of
/// calibrateWith is): the calibration to use, or nullopt when the figure is stale.
std::optional<Calibration> recheckCached(double cached, const std::function<double()>& sample,
                                         double tolerance = 0.05);

}  // namespace pullsched::testchain
