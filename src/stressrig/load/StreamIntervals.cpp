#include "load/StreamIntervals.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "analysis/PercentileSupport.hpp"
#include "analysis/SampleStatistics.hpp"

namespace pullsched::rig {
namespace {

/// The nearest-rank percentile of sorted values, in µs; NaN when the count does not support it.
double percentileUs(const std::vector<std::int64_t>& sorted, double p) {
    if (sorted.empty() || !percentileSupported(p, sorted.size())) return kMissing;
    const auto rank =
        static_cast<std::size_t>(std::ceil(p / 100 * static_cast<double>(sorted.size())));
    return static_cast<double>(sorted[std::max<std::size_t>(rank, 1) - 1]) / 1e3;
}

}  // namespace

std::vector<IntervalRow> streamIntervals(std::span<const StreamJobTimes> jobs,
                                         const OpenLoadConfig& cfg) {
    std::vector<IntervalRow> rows;
    if (cfg.interval <= Duration{0}) return rows;
    const auto count = static_cast<std::size_t>((cfg.duration.count() + cfg.interval.count() - 1) /
                                                cfg.interval.count());
    const std::int64_t step = cfg.interval.count(), warmup = cfg.warmup.count();
    std::vector<std::int64_t> intended, started;
    std::vector<std::vector<std::int64_t>> lateness(count);
    rows.resize(count);
    for (IntervalRow& r : rows)
        r.i.throughput = 0;  // counted first, divided by the interval below
    const auto at = [step](std::int64_t t) {
        return static_cast<std::size_t>(std::max<std::int64_t>(0, t) / step);
    };
    for (const StreamJobTimes& j : jobs) {
        intended.push_back(j.intended);
        if (!j.ran) continue;
        started.push_back(j.started);
        if (at(j.ended) < count) rows[at(j.ended)].i.throughput += 1;
        if (j.intended >= warmup && at(j.started) < count)
            lateness[at(j.started)].push_back(j.started - j.intended);
    }
    std::sort(intended.begin(), intended.end());
    std::sort(started.begin(), started.end());
    const double seconds = std::chrono::duration<double>(cfg.interval).count();
    for (std::size_t k = 0; k < count; ++k) {
        IntervalRow& r = rows[k];
        const Duration from = cfg.interval * static_cast<Duration::rep>(k);
        const std::int64_t end = from.count() + step;
        r.i.tSeconds = static_cast<double>(end) / 1e9;
        r.i.throughput /= seconds;
        const auto due = std::upper_bound(intended.begin(), intended.end(), end) - intended.begin();
        const auto begun = std::upper_bound(started.begin(), started.end(), end) - started.begin();
        r.i.backlog = static_cast<double>(std::max<std::ptrdiff_t>(0, due - begun));
        r.offeredRate = cfg.arrivals.meanRate(from, std::min(cfg.duration, from + cfg.interval));
        r.jobs = static_cast<std::uint64_t>(
            std::lower_bound(intended.begin(), intended.end(), end) -
            std::lower_bound(intended.begin(), intended.end(), from.count()));
        std::vector<std::int64_t>& l = lateness[k];
        std::sort(l.begin(), l.end());
        r.measured = l.size();
        r.late = static_cast<std::uint64_t>(
            l.end() - std::upper_bound(l.begin(), l.end(), cfg.lateLimit.count()));
        r.i.latenessP99Us = percentileUs(l, 99);
        r.p50Us = percentileUs(l, 50);
        r.maxUs = l.empty() ? kMissing : static_cast<double>(l.back()) / 1e3;
    }
    return rows;
}

}  // namespace pullsched::rig
