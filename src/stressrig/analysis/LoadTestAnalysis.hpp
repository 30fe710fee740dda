#pragma once
// Pure evaluation helpers of the load-test modes: no clocks, no threads, so the unit
// tests check them exactly on synthetic data.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace pullsched::rig::loadtest {

/// Offered rates of a sweep: from, from+step, … up to `to` inclusive (within 1e-9
/// relative). step 0 gives 5 evenly spaced rates (from and to included); from == to
/// gives one. Empty when from ≤ 0, to < from or step < 0.
std::vector<double> sweepRates(double from, double to, double step);

// ------------------------------------------------------------------ closed load

/// The throughput of a load over its measured window.
struct WindowThroughput {
    /// Completions in the window per second of it; missing when the window is empty or
    /// no job completed in it (a window too short for one job measures no rate, not 0).
    double perSecond = std::numeric_limits<double>::quiet_NaN();
    /// The window could not hold one job: none completed in it, or it is shorter than
    /// one job's cycle, so the completions it saw began before it.
    bool tooShort = false;
};

/// `completions` that ended inside a measured window of length `window`, where one job
/// takes at least `cycle` (a closed user's busy time plus think time).
WindowThroughput windowThroughput(std::uint64_t completions, std::chrono::nanoseconds window,
                                  std::chrono::nanoseconds cycle);

// ------------------------------------------------------------------ headroom

struct HeadroomRow {
    unsigned copies = 0;
    double cpuPercent = 0;  ///< of the whole machine (100 = all cores busy)
    double seconds = 0;     ///< time to complete all copies
    double efficiency = 0;  ///< t(1) / t(k)
};

/// Fills `efficiency` from the row with copies == 1 (or the first row). Rows keep their order.
void computeEfficiency(std::vector<HeadroomRow>& rows);

/// Index of the last step of the contiguous run from step 0 whose latency stays within
/// factor × max(latency[0], floor): the maximum sustained load. The floor keeps noise from
/// deciding: a scheduler's low-load lateness is a few microseconds, where one OS wake-up
/// doubles it. nullopt when empty or the reference (latency[0] or floor) is not positive.
std::optional<std::size_t> maxSustainedIndex(std::span<const double> latency, double factor = 2.0,
                                             double floor = 0.0);

// ------------------------------------------------------------------ pipeclean

/// Pipeclean outliers: value > factor × median(values) (median of all, even count: mean
/// of the two middle values) and value > floor. Same length as values.
std::vector<bool> outliers(std::span<const double> values, double factor, double floor = 0);

double median(std::vector<double> values);

}  // namespace pullsched::rig::loadtest
