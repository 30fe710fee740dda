#include "measure/LatencyHistogram.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

namespace pullsched::rig {

LatencyHistogram::LatencyHistogram(std::int64_t highestTrackable, int digits)
    : digits_(digits), highest_(highestTrackable) {
    if (digits < 1 || digits > 5)
        throw std::invalid_argument(
            fmt::format("LatencyHistogram: digits must be 1…5, got {}", digits));
    std::int64_t pow10 = 1;
    for (int i = 0; i < digits; ++i)
        pow10 *= 10;
    subCount_ = static_cast<std::int64_t>(std::bit_ceil(static_cast<std::uint64_t>(2 * pow10)));
    halfShift_ = std::countr_zero(static_cast<std::uint64_t>(subCount_ / 2));
    if (highestTrackable < subCount_)
        throw std::invalid_argument(
            fmt::format("LatencyHistogram: highest trackable value {} must be at least {}",
                        highestTrackable, subCount_));
    counts_.assign(bucketIndex(highestTrackable) + 1, 0);  // the only allocation
}

std::size_t LatencyHistogram::bucketIndex(std::int64_t value) const noexcept {
    if (value < subCount_) return static_cast<std::size_t>(std::max<std::int64_t>(value, 0));
    const int m = std::bit_width(static_cast<std::uint64_t>(value)) - 1;
    const int shift = m - halfShift_;
    return (static_cast<std::size_t>(shift) << halfShift_) +
           static_cast<std::size_t>(value >> shift);
}

std::int64_t LatencyHistogram::bucketLowerBound(std::size_t index) const noexcept {
    const auto i = static_cast<std::int64_t>(index);
    if (i < subCount_) return i;
    const int shift = static_cast<int>((i >> halfShift_) - 1);
    const std::int64_t sub = i - (static_cast<std::int64_t>(shift) << halfShift_);
    return sub << shift;
}

std::int64_t LatencyHistogram::bucketUpperBound(std::size_t index) const noexcept {
    const auto i = static_cast<std::int64_t>(index);
    if (i < subCount_) return i + 1;
    const int shift = static_cast<int>((i >> halfShift_) - 1);
    const std::int64_t sub = i - (static_cast<std::int64_t>(shift) << halfShift_);
    return (sub + 1) << shift;
}

void LatencyHistogram::recordN(std::int64_t value, std::uint64_t times) noexcept {
    if (times == 0) return;
    if (value < 0) {
        negatives_ += times;
        value = 0;
    }
    if (total_ == 0) {
        min_ = max_ = value;
    } else {
        min_ = std::min(min_, value);
        max_ = std::max(max_, value);
    }
    total_ += times;
    sum_ += static_cast<long double>(value) * static_cast<long double>(times);
    if (value > highest_)
        overflow_ += times;
    else
        counts_[bucketIndex(value)] += times;
}

std::int64_t LatencyHistogram::min() const noexcept {
    return total_ ? min_ : 0;
}
std::int64_t LatencyHistogram::max() const noexcept {
    return total_ ? max_ : 0;
}
double LatencyHistogram::mean() const noexcept {
    return total_ ? static_cast<double>(sum_ / static_cast<long double>(total_)) : 0.0;
}

std::int64_t LatencyHistogram::percentile(double percent) const {
    if (!(percent >= 0.0 && percent <= 100.0))
        throw std::invalid_argument(
            fmt::format("LatencyHistogram: percentile {} outside 0…100", percent));
    if (total_ == 0) return 0;
    auto rank =
        static_cast<std::uint64_t>(std::ceil(percent / 100.0 * static_cast<double>(total_)));
    rank = std::clamp<std::uint64_t>(rank, 1, total_);
    std::uint64_t seen = 0;
    for (std::size_t i = 0; i < counts_.size(); ++i) {
        seen += counts_[i];
        if (seen >= rank) return std::clamp(bucketUpperBound(i) - 1, min_, max_);
    }
    return max_;  // rank falls into the overflow above highestTrackable()
}

void LatencyHistogram::merge(const LatencyHistogram& other) {
    if (other.digits_ != digits_ || other.highest_ != highest_)
        throw std::invalid_argument(fmt::format(
            "LatencyHistogram::merge: layouts differ ({} digits up to {} vs {} digits up to {})",
            digits_, highest_, other.digits_, other.highest_));
    if (other.total_ == 0) return;
    for (std::size_t i = 0; i < counts_.size(); ++i)
        counts_[i] += other.counts_[i];
    if (total_ == 0) {
        min_ = other.min_;
        max_ = other.max_;
    } else {
        min_ = std::min(min_, other.min_);
        max_ = std::max(max_, other.max_);
    }
    total_ += other.total_;
    overflow_ += other.overflow_;
    negatives_ += other.negatives_;
    sum_ += other.sum_;
}

void LatencyHistogram::reset() noexcept {
    std::fill(counts_.begin(), counts_.end(), 0);
    total_ = overflow_ = negatives_ = 0;
    min_ = max_ = 0;
    sum_ = 0;
}

}  // namespace pullsched::rig
