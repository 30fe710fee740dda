#include "report/HgrmWriter.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <fmt/format.h>
#include <fmt/printf.h>

namespace pullsched::rig {

namespace {

/// One non-empty bucket: what HdrHistogram reports for it and what it averages with.
struct Bucket {
    std::int64_t highest;  ///< highest equivalent value
    double middle;         ///< median equivalent value
    std::uint64_t count;
};

std::vector<Bucket> buckets(const LatencyHistogram& h) {
    std::vector<Bucket> b;
    const auto counts = h.counts();
    for (std::size_t i = 0; i < counts.size(); ++i) {
        if (counts[i] == 0) continue;
        const std::int64_t lo = h.bucketLowerBound(i), hi = h.bucketUpperBound(i);
        b.push_back({hi - 1, static_cast<double>(lo + ((hi - lo) >> 1)), counts[i]});
    }
    if (h.overflowCount() > 0)  // beyond the layout: counted at the maximum
        b.push_back({h.max(), static_cast<double>(h.max()), h.overflowCount()});
    return b;
}

/// HdrHistogram's bucket count: buckets of doubling width needed to cover the range.
int bucketsToCover(std::int64_t subBuckets, std::int64_t highest) {
    std::int64_t smallestUntrackable = subBuckets;
    int n = 1;
    while (smallestUntrackable <= highest) {
        if (smallestUntrackable > std::numeric_limits<std::int64_t>::max() / 2) return n + 1;
        smallestUntrackable <<= 1;
        ++n;
    }
    return n;
}

/// The next percentile level: the same number of steps in each half of the remaining
/// distance to 100 %.
double nextLevel(double level, int ticksPerHalfDistance) {
    const double halvings = std::log(100.0 / (100.0 - level)) / std::log(2.0);
    const auto exponent = std::isfinite(halvings) ? static_cast<std::int64_t>(halvings) + 1 : 62;
    const auto ticks = static_cast<std::int64_t>(ticksPerHalfDistance) *
                       static_cast<std::int64_t>(std::pow(2.0, static_cast<double>(exponent)));
    return level + 100.0 / static_cast<double>(ticks);
}

}  // namespace

std::string hgrmText(const LatencyHistogram& h, double valueScale, int ticksPerHalfDistance) {
    const int digits = h.digits();
    const std::string valueFormat = fmt::format("%12.{}f", digits);
    std::string out = fmt::sprintf("%12s %14s %10s %14s\n\n", "Value", "Percentile", "TotalCount",
                                   "1/(1-Percentile)");
    const std::vector<Bucket> all = buckets(h);
    std::uint64_t total = 0;
    for (const Bucket& b : all)
        total += b.count;

    auto line = [&](std::int64_t value, double level, std::uint64_t cumulative) {
        out += fmt::sprintf(valueFormat, static_cast<double>(value) / valueScale);
        if (level != 100.0)
            out += fmt::sprintf(" %2.12f %10d %14.2f\n", level / 100.0, cumulative,
                                1.0 / (1.0 - level / 100.0));
        else
            out += fmt::sprintf(" %2.12f %10d\n", level / 100.0, cumulative);
    };
    if (total > 0) {
        double level = 0;
        std::uint64_t cumulative = 0;
        std::int64_t last = 0;
        for (const Bucket& b : all) {
            cumulative += b.count;
            last = b.highest;
            // A bucket may pass several levels; once all counts are in, only one line
            // more, then the closing 100 % line.
            while (100.0 * static_cast<double>(cumulative) / static_cast<double>(total) >= level) {
                line(b.highest, level, cumulative);
                level = nextLevel(level, ticksPerHalfDistance);
                if (cumulative >= total) break;
            }
            if (cumulative >= total) break;
        }
        line(last, 100.0, total);
    }

    double mean = 0, sdev = 0;
    if (total > 0) {
        double sum = 0;
        for (const Bucket& b : all)
            sum += b.middle * static_cast<double>(b.count);
        mean = sum / static_cast<double>(total);
        double squares = 0;
        for (const Bucket& b : all)
            squares += (b.middle - mean) * (b.middle - mean) * static_cast<double>(b.count);
        sdev = std::sqrt(squares / static_cast<double>(total));
    }
    std::int64_t max = 0;
    if (h.count() > 0)
        max = h.max() <= h.highestTrackable() ? h.bucketUpperBound(h.bucketIndex(h.max())) - 1
                                              : h.max();
    out += fmt::sprintf("#[Mean    = " + valueFormat + ", StdDeviation   = " + valueFormat + "]\n",
                        mean / valueScale, sdev / valueScale);
    out += fmt::sprintf("#[Max     = " + valueFormat + ", Total count    = %12d]\n",
                        static_cast<double>(max) / valueScale, total);
    out +=
        fmt::sprintf("#[Buckets = %12d, SubBuckets     = %12d]\n",
                     bucketsToCover(h.subBucketCount(), h.highestTrackable()), h.subBucketCount());
    return out;
}

}  // namespace pullsched::rig
