#include "analysis/LoadTestAnalysis.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "analysis/LinearRegression.hpp"

namespace pullsched::rig::loadtest {

std::uint64_t measuredArrivals(const ArrivalTimetable& tt, std::chrono::nanoseconds warmup) {
    const auto first = std::lower_bound(tt.begin(), tt.end(), warmup);
    return static_cast<std::uint64_t>(tt.end() - first);
}

std::vector<double> sweepRates(double from, double to, double step) {
    std::vector<double> r;
    if (!(from > 0) || !(to >= from) || !(step >= 0) || !std::isfinite(to)) return r;
    if (to == from) return {from};
    if (step == 0) {
        for (int i = 0; i < 5; ++i)
            r.push_back(from + (to - from) * i / 4.0);
        return r;
    }
    const double eps = 1e-9 * std::max(std::abs(to), 1.0);
    for (std::size_t i = 0;; ++i) {
        const double v = from + static_cast<double>(i) * step;
        if (v > to + eps || i > 100000) break;
        r.push_back(v);
    }
    return r;
}

SoakTrend soakTrend(std::span<const SoakInterval> intervals, const SoakLimits& limits) {
    SoakTrend t;
    const std::size_t skip = std::min(limits.skip, intervals.size());
    const auto used = intervals.subspan(skip);
    t.intervals = used.size();
    std::vector<double> x, thr, rss;
    for (const auto& i : used) {
        x.push_back(i.tSeconds);
        thr.push_back(i.throughput);
        rss.push_back(i.rssBytes);
    }
    if (!thr.empty()) {
        double s = 0;
        for (double v : thr)
            s += v;
        t.meanThroughput = s / static_cast<double>(thr.size());
    }
    t.enoughData = used.size() >= 3 && x.back() > x.front();
    if (!t.enoughData) {
        t.verdict = "inconclusive";
        t.reason =
            fmt::format("{} interval(s) after skipping {}: need at least 3", used.size(), skip);
        return t;
    }
    const double span = x.back() - x.front();
    const LinearRegression tf(x, thr);
    const LinearRegression mf(x, rss);
    t.throughputSlopePerHour =
        t.meanThroughput > 0 ? 100.0 * tf.gradient() * 3600.0 / t.meanThroughput : 0;
    t.memoryGrowthPerHour = mf.gradient() * 3600.0;
    t.throughputChange = t.meanThroughput > 0 ? tf.gradient() * span / t.meanThroughput : 0;
    t.memoryChange = mf.gradient() * span;
    double meanRss = 0;
    for (double v : rss)
        meanRss += v;
    meanRss /= static_cast<double>(rss.size());

    std::vector<std::string> why;
    if (t.throughputChange < -limits.throughputDrop)
        why.push_back(fmt::format("throughput fell {:.1f} % over the run ({:+.1f} %/h)",
                                  -100 * t.throughputChange, t.throughputSlopePerHour));
    if (t.memoryChange > limits.memoryGrowthBytes &&
        t.memoryChange > limits.memoryGrowthFraction * meanRss)
        why.push_back(fmt::format("RSS grew {:.1f} MiB over the run ({:.1f} MiB/h)",
                                  t.memoryChange / 1048576.0, t.memoryGrowthPerHour / 1048576.0));
    const double lastDepth = used.back().queueDepth;
    if (lastDepth > limits.backlogBound && lastDepth > used.front().queueDepth)
        why.push_back(fmt::format("backlog grew to {:.0f} jobs", lastDepth));
    t.degrading = !why.empty();
    t.verdict = t.degrading ? "degrading" : "stable";
    if (t.degrading) {
        for (std::size_t i = 0; i < why.size(); ++i)
            t.reason += (i ? "; " : "") + why[i];
    } else {
        t.reason = fmt::format(
            "throughput {:+.2f} % over the run ({:+.1f} %/h), RSS {:+.2f} MiB ({:+.1f} MiB/h), "
            "backlog bounded",
            100 * t.throughputChange, t.throughputSlopePerHour, t.memoryChange / 1048576.0,
            t.memoryGrowthPerHour / 1048576.0);
    }
    return t;
}

void computeEfficiency(std::vector<HeadroomRow>& rows) {
    if (rows.empty()) return;
    double t1 = rows.front().seconds;
    for (const auto& r : rows)
        if (r.copies == 1) {
            t1 = r.seconds;
            break;
        }
    for (auto& r : rows)
        r.efficiency = r.seconds > 0 ? t1 / r.seconds : 0;
}

std::optional<std::size_t> maxSustainedIndex(std::span<const double> latency, double factor,
                                             double floor) {
    if (latency.empty()) return std::nullopt;
    const double reference = std::max(latency[0], floor);
    if (!(reference > 0)) return std::nullopt;
    const double bound = factor * reference;
    std::size_t last = 0;
    for (std::size_t i = 1; i < latency.size(); ++i) {
        if (!(latency[i] <= bound)) break;
        last = i;
    }
    return last;
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

std::vector<bool> outliers(std::span<const double> values, double factor, double floor) {
    const double m = median(std::vector<double>(values.begin(), values.end()));
    std::vector<bool> r;
    r.reserve(values.size());
    for (double v : values)
        r.push_back(v > factor * m && v > floor);
    return r;
}

}  // namespace pullsched::rig::loadtest
