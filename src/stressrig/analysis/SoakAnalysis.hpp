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
    double cpuPercent = kMissing;
    double backlog = kMissing;  ///< due jobs not started, at the end of the interval
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

    static SlopeFit of(std::span<const double> x, std::span<const double> y);
    /// Whether the interval excludes 0 (the trend is more than noise).
    bool significant() const noexcept { return fitted && (low95 > 0 || high95 < 0); }
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
};

struct SoakVerdict {
    std::string verdict;        ///< "stable", "degrading", "unstable" or "inconclusive"
    std::string reason;         ///< why, one line
    std::size_t intervals = 0;  ///< used for the trends
    double dropFraction = kMissing, missFraction = kMissing;
    bool overThreshold = false;
    bool degrading = false;
    double meanThroughput = kMissing;
    /// Fitted slopes: throughput in % of its mean per hour, memory in MiB per hour.
    SlopeFit throughputPercentPerHour, memoryMiBPerHour;
    /// "throughput -0.42 ± 1.3 %/h, memory +0.10 ± 0.21 MiB/h (95 %, 9 intervals)" or
    /// "trend: n/a (only 3 intervals)".
    std::string trendText;
};

SoakVerdict judgeSoak(std::span<const SoakInterval> intervals, const SoakTotals& totals,
                      const SoakLimits& limits = {});

}  // namespace pullsched::rig
