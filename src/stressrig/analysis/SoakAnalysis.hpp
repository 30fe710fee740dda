#pragma once
// The verdict of a soak: drops and misses against a threshold, and the trends of
// throughput and memory with their uncertainty, fitted only when the run has enough
// intervals. Pure: no clocks, no threads, so unit tests check it on synthetic series.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "analysis/SampleStatistics.hpp"

namespace pullsched::rig {

/// One soak interval. Missing values are NaN (e.g. a p99 the count does not support).
struct SoakInterval {
    double tSeconds = 0;              ///< end of the interval since the soak started
    double throughput = kMissing;     ///< completions / s in the interval
    double latenessP99Us = kMissing;  ///< µs
    double rssBytes = kMissing;
    double cpuPercent = kMissing;  ///< the process's CPU share: 100 = one core busy
    double backlog = kMissing;     ///< due jobs not started, at the end of the interval
    /// Per cent of the machine's CPU time a hypervisor took (steal, /proc/stat); missing
    /// where the kernel does not report it.
    double stealPercent = kMissing;
};

/// A least-squares slope with its standard error and 95 % confidence interval
/// (Student t, n − 2 degrees of freedom). NaN points are left out; with fewer than 3
/// points (or all x equal) nothing is fitted.
struct SlopeFit {
    bool fitted = false;
    std::size_t points = 0;
    double slope = kMissing;
    double standardError = kMissing;
    double low95 = kMissing, high95 = kMissing;
    double meanX = kMissing, meanY = kMissing;  ///< the fitted line passes through them

    static SlopeFit of(std::span<const double> x, std::span<const double> y);
    /// Whether the interval excludes 0 (the trend is more than noise).
    bool significant() const noexcept { return fitted && (low95 > 0 || high95 < 0); }
    /// The fitted line at `x`; missing when nothing was fitted.
    double at(double x) const noexcept { return fitted ? meanY + slope * (x - meanX) : kMissing; }
};

/// Two-sided 95 % quantile of Student's t with `df` degrees of freedom.
double studentT95(std::size_t df) noexcept;

/// Totals of the whole soak, for the drop and miss fractions.
struct SoakTotals {
    std::uint64_t jobs = 0;      ///< posted
    std::uint64_t drops = 0;     ///< expired: not started by their deadline
    std::uint64_t measured = 0;  ///< started jobs whose lateness was measured
    std::uint64_t misses = 0;    ///< of those, started later than the lateness limit
};

struct SoakLimits {
    /// A soak with more drops, or more misses, than this fraction is never stable.
    double dropThreshold = 0.001;
    /// Intervals (after the skipped ones) needed to fit a trend.
    std::size_t minIntervals = 6;
    /// Leading intervals left out of the trends (start-up effects).
    std::size_t skip = 1;
    /// Degrading when throughput fell by more than this fraction of its mean over the
    /// run, and the fall is significant.
    double throughputDrop = 0.05;
    /// Degrading when RSS grew by more than both of these over the run, significantly.
    double memoryGrowthBytes = 8.0 * 1024 * 1024;
    double memoryGrowthFraction = 0.10;
    /// Degrading when the backlog at the end exceeds this and grew over the run.
    double backlogBound = 1000;
    /// When throughput falls, the process "got less CPU" when its CPU share fell by at
    /// least this fraction of the throughput's fall (relative to their starting values);
    /// otherwise the scheduler did less with the CPU it had.
    double cpuShareOfFall = 0.5;
    /// Steal time counts as having risen when it grew by this many percentage points.
    double stealRisePoints = 1.0;
};

struct SoakVerdict {
    std::string verdict;        ///< "stable", "degrading", "unstable" or "inconclusive"
    std::string reason;         ///< why, one line
    std::size_t intervals = 0;  ///< used for the trends
    double dropFraction = kMissing, missFraction = kMissing;
    bool overThreshold = false;
    bool degrading = false;
    double meanThroughput = kMissing;
    /// Fitted slopes: throughput in % of its mean per hour, memory in MiB per hour, the
    /// CPU share and steal time in percentage points per hour.
    SlopeFit throughputPercentPerHour, memoryMiBPerHour, cpuPercentPerHour, stealPercentPerHour;
    /// When throughput fell (a degrading verdict says so), what moved with it:
    /// "less-cpu" (the process's CPU share fell with it, possibly by steal), "steal" (steal
    /// time rose, the CPU share held), "scheduler" (the CPU share held or rose: the
    /// scheduler did less with the same CPU), "unknown" (no CPU figures); empty otherwise.
    std::string throughputCause;
    /// The CPU share and steal time on the fitted lines at the first and last interval used.
    double cpuFirstPercent = kMissing, cpuLastPercent = kMissing;
    double stealFirstPercent = kMissing, stealLastPercent = kMissing;
    /// RSS of the intervals used: first, highest, last (MiB).
    double rssFirstMiB = kMissing, rssPeakMiB = kMissing, rssLastMiB = kMissing;
    /// RSS ended clearly below its peak (by the memory growth limits): memory was given back.
    bool memoryReturned = false;
    /// "throughput -0.42 ± 1.3 %/h, memory +0.10 ± 0.21 MiB/h (95 %, 9 intervals)" or
    /// "trend: n/a (only 3 intervals)".
    std::string trendText;
};

SoakVerdict judgeSoak(std::span<const SoakInterval> intervals, const SoakTotals& totals,
                      const SoakLimits& limits = {});

}  // namespace pullsched::rig
