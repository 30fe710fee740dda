#include "analysis/SoakAnalysis.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace pullsched::rig {

namespace {

constexpr double kMiB = 1048576.0;

/// A fraction as percent with 3 significant digits ("0.5 %", "12.5 %"); the thresholds in
/// reasons read as the user gave them.
std::string percent3Text(double fraction) {
    return fmt::format("{:.3g} %", 100 * fraction);
}

/// `significant` digits in fixed notation (no exponent: "880", "0.0012").
std::string fixed(double v, int significant, bool sign = false) {
    if (!std::isfinite(v)) return "n/a";
    const int magnitude = v == 0 ? 0 : static_cast<int>(std::floor(std::log10(std::abs(v))));
    const int decimals = std::max(0, significant - 1 - magnitude);
    return sign ? fmt::format("{:+.{}f}", v, decimals) : fmt::format("{:.{}f}", v, decimals);
}

std::string join(const std::vector<std::string>& parts) {
    std::string s;
    for (const std::string& p : parts)
        s += (s.empty() ? "" : "; ") + p;
    return s;
}

std::string memoryReturnedText(const SoakVerdict& v) {
    return fmt::format("memory given back: RSS peaked at {:.1f} MiB and ended at {:.1f} MiB",
                       v.rssPeakMiB, v.rssLastMiB);
}

/// `fit` scaled by k (a change of unit of y).
SlopeFit scaled(SlopeFit fit, double k) {
    fit.slope *= k;
    fit.standardError *= k;
    fit.low95 *= k;
    fit.high95 *= k;
    fit.meanY *= k;
    return fit;
}

/// Relative fall from `first` to `last` (0.25 = fell by a quarter); 0 when first ≤ 0.
double relativeFall(double first, double last) {
    return first > 0 ? (first - last) / first : 0;
}

/// What moved with a fall of throughput: the process's CPU share, steal time, or
/// neither (the scheduler did less with the CPU it had). Fills the verdict's cause and
/// returns the clause for its reason.
std::string throughputCause(SoakVerdict& v, double throughputFall, const SoakLimits& limits) {
    const SlopeFit& cpu = v.cpuPercentPerHour;
    const SlopeFit& steal = v.stealPercentPerHour;
    const bool stealRose =
        steal.significant() && v.stealLastPercent - v.stealFirstPercent >= limits.stealRisePoints;
    const std::string stealText =
        fmt::format("steal time rose {:.1f} % → {:.1f} %", v.stealFirstPercent, v.stealLastPercent);
    if (!cpu.fitted) {
        v.throughputCause = "unknown";
        return "the CPU share was not recorded, so a slower scheduler cannot be told from a "
               "process that got less CPU";
    }
    const std::string shares =
        fmt::format("{:.0f} % → {:.0f} % of one core", v.cpuFirstPercent, v.cpuLastPercent);
    const double cpuFall = relativeFall(v.cpuFirstPercent, v.cpuLastPercent);
    if (cpu.significant() && cpuFall > 0 && cpuFall >= limits.cpuShareOfFall * throughputFall) {
        v.throughputCause = "less-cpu";
        return fmt::format(
            "the process's CPU share fell with it ({}{}): it got less CPU, the scheduler did not "
            "slow down",
            shares, stealRose ? "; " + stealText : std::string());
    }
    if (stealRose) {
        v.throughputCause = "steal";
        return fmt::format("{} while the CPU share held ({}): the hypervisor took CPU time",
                           stealText, shares);
    }
    v.throughputCause = "scheduler";
    return fmt::format(
        "the process's CPU share did not fall with it ({}): the scheduler completed fewer jobs "
        "with the CPU it had",
        shares);
}

/// The series the trends are fitted to, one value per interval used.
struct SoakSeries {
    std::vector<double> hours, throughput, rssMiB, cpu, steal;
};

/// Drops and misses over the threshold, one clause each; fills their fractions.
std::vector<std::string> thresholdReasons(SoakVerdict& v, const SoakTotals& totals,
                                          const SoakLimits& limits) {
    if (totals.jobs > 0)
        v.dropFraction = static_cast<double>(totals.drops) / static_cast<double>(totals.jobs);
    if (totals.measured > 0)
        v.missFraction = static_cast<double>(totals.misses) / static_cast<double>(totals.measured);
    std::vector<std::string> why;
    if (v.dropFraction > limits.dropThreshold)
        why.push_back(
            fmt::format("{} of {} jobs dropped unstarted at their deadline (over the "
                        "{} threshold)",
                        totals.drops, totals.jobs, percent3Text(limits.dropThreshold)));
    if (v.missFraction > limits.dropThreshold)
        why.push_back(
            fmt::format("{} of {} measured jobs started later than the lateness limit "
                        "(over the {} threshold)",
                        totals.misses, totals.measured, percent3Text(limits.dropThreshold)));
    return why;
}

/// The intervals' series; fills the first, peak and last RSS.
SoakSeries seriesOf(std::span<const SoakInterval> used, SoakVerdict& v) {
    SoakSeries s;
    for (const SoakInterval& i : used) {
        s.hours.push_back(i.tSeconds / 3600.0);
        s.throughput.push_back(i.throughput);
        s.rssMiB.push_back(i.rssBytes / kMiB);
        s.cpu.push_back(i.cpuPercent);
        s.steal.push_back(i.stealPercent);
        if (!std::isfinite(i.rssBytes)) continue;
        if (!std::isfinite(v.rssFirstMiB)) v.rssFirstMiB = i.rssBytes / kMiB;
        v.rssLastMiB = i.rssBytes / kMiB;
        if (!(v.rssPeakMiB >= v.rssLastMiB)) v.rssPeakMiB = v.rssLastMiB;
    }
    return s;
}

/// The four fitted slopes and the CPU share and steal time on their lines.
void fitTrends(SoakVerdict& v, const SoakSeries& s) {
    const SlopeFit t = SlopeFit::of(s.hours, s.throughput);
    if (t.fitted && v.meanThroughput > 0)
        v.throughputPercentPerHour = scaled(t, 100.0 / v.meanThroughput);  // % of the mean
    v.memoryMiBPerHour = SlopeFit::of(s.hours, s.rssMiB);
    v.cpuPercentPerHour = SlopeFit::of(s.hours, s.cpu);
    v.stealPercentPerHour = SlopeFit::of(s.hours, s.steal);
    if (s.hours.empty()) return;
    // Shares on the fitted lines, never below 0 (rounding shows "-0.0 %" otherwise).
    const auto share = [](const SlopeFit& f, double h) {
        return f.fitted ? std::max(0.0, f.at(h)) : kMissing;
    };
    v.cpuFirstPercent = share(v.cpuPercentPerHour, s.hours.front());
    v.cpuLastPercent = share(v.cpuPercentPerHour, s.hours.back());
    v.stealFirstPercent = share(v.stealPercentPerHour, s.hours.front());
    v.stealLastPercent = share(v.stealPercentPerHour, s.hours.back());
}

/// "throughput … %/h, memory … MiB/h (95 % interval, N intervals)", or why there is none.
std::string trendText(const SoakVerdict& v, std::size_t used, std::size_t skip,
                      const SoakLimits& limits) {
    const SlopeFit& tp = v.throughputPercentPerHour;
    const SlopeFit& mem = v.memoryMiBPerHour;
    if (!tp.fitted && !mem.fitted)
        return fmt::format("trend: n/a (only {} interval{}{}; {} needed to fit one)", used,
                           used == 1 ? "" : "s",
                           skip == 1  ? std::string(" after skipping the first")
                           : skip > 1 ? fmt::format(" after skipping the first {}", skip)
                                      : std::string(),
                           limits.minIntervals);
    auto slope = [](const SlopeFit& f, const char* unit) {
        return f.fitted ? fmt::format("{} ± {} {}", fixed(f.slope, 3, true),
                                      fixed(f.high95 - f.slope, 2), unit)
                        : std::string("n/a");
    };
    // The CPU share and steal time beside them: what a fall of throughput moved with.
    std::string cpuText;
    if (v.cpuPercentPerHour.fitted)
        cpuText += ", CPU share " + slope(v.cpuPercentPerHour, "points/h");
    if (v.stealPercentPerHour.fitted)
        cpuText += ", steal " + slope(v.stealPercentPerHour, "points/h");
    return fmt::format("throughput {}, memory {}{} (95 % interval, {} intervals)", slope(tp, "%/h"),
                       slope(mem, "MiB/h"), cpuText, used);
}

/// Degradation: a significant fall or growth that is also large over the run, one clause
/// each; fills memoryReturned and, for a fall of throughput, its cause.
std::vector<std::string> degradations(SoakVerdict& v, const SoakSeries& s,
                                      std::span<const SoakInterval> used, double rssMeanMiB,
                                      const SoakLimits& limits) {
    std::vector<std::string> worse;
    if (s.hours.empty()) return worse;
    const SlopeFit& tp = v.throughputPercentPerHour;
    const SlopeFit& mem = v.memoryMiBPerHour;
    const double spanH = s.hours.back() - s.hours.front();
    if (tp.fitted && tp.significant() && tp.slope * spanH < -100 * limits.throughputDrop) {
        // Relative to the fitted start, as the CPU share's fall is.
        const double first = tp.at(s.hours.front()), last = tp.at(s.hours.back());
        const std::string cause = throughputCause(v, relativeFall(first, last), limits);
        worse.push_back(fmt::format("throughput fell {:.1f} % over the run ({:+.3g} %/h); {}",
                                    -tp.slope * spanH, tp.slope, cause));
    }
    // Growth must still be there at the end: a pool that grew and then gave its memory
    // back is not a leak, however the line through it slopes.
    const double kept = v.rssLastMiB - v.rssFirstMiB;
    const auto large = [&](double mib, double reference) {
        return mib * kMiB > limits.memoryGrowthBytes &&
               mib > limits.memoryGrowthFraction * reference;
    };
    if (mem.fitted && mem.significant()) {
        const double growth = mem.slope * spanH;
        if (large(growth, rssMeanMiB) && large(kept, rssMeanMiB))
            worse.push_back(
                fmt::format("RSS grew {:.1f} MiB over the run ({:+.3g} MiB/h)", growth, mem.slope));
    }
    v.memoryReturned = large(v.rssPeakMiB - v.rssLastMiB, v.rssPeakMiB);
    const double last = used.back().backlog, first = used.front().backlog;
    if (last > limits.backlogBound && last > first)
        worse.push_back(fmt::format("backlog grew to {:.0f} jobs", last));
    return worse;
}

/// The verdict word and its reason from what was over the threshold and what degraded.
void decide(SoakVerdict& v, std::vector<std::string> why, const std::vector<std::string>& worse,
            const SoakLimits& limits) {
    if (v.overThreshold) {
        v.verdict = "unstable";
        for (const std::string& w : worse)
            why.push_back(w);
        v.reason = join(why);
    } else if (v.degrading) {
        v.verdict = "degrading";
        v.reason = join(worse);
        if (v.memoryReturned) v.reason += "; " + memoryReturnedText(v);
    } else if (!v.throughputPercentPerHour.fitted) {
        v.verdict = "inconclusive";
        v.reason = fmt::format("drops and misses within the threshold, but {}", v.trendText);
    } else {
        v.verdict = "stable";
        v.reason = fmt::format(
            "drops and misses within the {} threshold, no significant "
            "degradation: {}",
            percent3Text(limits.dropThreshold), v.trendText);
        if (v.memoryReturned) v.reason += "; " + memoryReturnedText(v);
    }
}

}  // namespace

double studentT95(std::size_t df) noexcept {
    static constexpr double kTable[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
                                        2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
                                        2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
                                        2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
    if (df == 0) return kMissing;
    if (df <= std::size(kTable)) return kTable[df - 1];
    return 1.960 + 2.4 / static_cast<double>(df);  // within 0.002 of the exact value
}

SlopeFit SlopeFit::of(std::span<const double> x, std::span<const double> y) {
    SlopeFit f;
    std::vector<double> xs, ys;
    for (std::size_t i = 0; i < std::min(x.size(), y.size()); ++i)
        if (std::isfinite(x[i]) && std::isfinite(y[i])) {
            xs.push_back(x[i]);
            ys.push_back(y[i]);
        }
    f.points = xs.size();
    if (f.points < 3) return f;
    const double n = static_cast<double>(f.points);
    double mx = 0, my = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
        mx += xs[i];
        my += ys[i];
    }
    mx /= n;
    my /= n;
    double sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
        sxx += (xs[i] - mx) * (xs[i] - mx);
        sxy += (xs[i] - mx) * (ys[i] - my);
    }
    if (!(sxx > 0)) return f;
    f.meanX = mx;
    f.meanY = my;
    f.slope = sxy / sxx;
    double ssr = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
        const double r = ys[i] - (my + f.slope * (xs[i] - mx));
        ssr += r * r;
    }
    f.standardError = std::sqrt(ssr / (n - 2) / sxx);
    const double half = studentT95(f.points - 2) * f.standardError;
    f.low95 = f.slope - half;
    f.high95 = f.slope + half;
    f.fitted = true;
    return f;
}

SoakVerdict judgeSoak(std::span<const SoakInterval> intervals, const SoakTotals& totals,
                      const SoakLimits& limits) {
    SoakVerdict v;
    std::vector<std::string> why = thresholdReasons(v, totals, limits);
    v.overThreshold = !why.empty();

    // Trends over the intervals after the skipped ones.
    const std::size_t skip = std::min(limits.skip, intervals.size());
    const auto used = intervals.subspan(skip);
    v.intervals = used.size();
    const SoakSeries series = seriesOf(used, v);
    const SampleStatistics thrStats = SampleStatistics::of(series.throughput);
    v.meanThroughput = thrStats.mean;
    if (used.size() >= limits.minIntervals && thrStats.count >= limits.minIntervals)
        fitTrends(v, series);
    v.trendText = trendText(v, used.size(), skip, limits);

    const std::vector<std::string> worse =
        degradations(v, series, used, SampleStatistics::of(series.rssMiB).mean, limits);
    v.degrading = !worse.empty();
    decide(v, std::move(why), worse, limits);
    return v;
}

}  // namespace pullsched::rig
