#pragma once
// Log-linear latency histogram in the HdrHistogram style: bounded relative error,
// fixed memory, allocation-free recording.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace pullsched::rig {

/// Records non-negative integer values (the rig uses nanoseconds) with a relative
/// error below 10^-digits, in memory fixed at construction.
///
/// Bucket layout (S = sub-bucket count = the smallest power of two ≥ 2·10^digits,
/// H = S/2; for 3 digits S = 2048, H = 1024):
/// - values 0 … S−1 each have their own bucket (index = value, width 1, exact);
/// - a value v ≥ S with m = ⌊log2 v⌋ lies in a bucket of width w = 2^(m − log2 H):
///   index = (m − log2 H)·H + ⌊v / w⌋, covering [⌊v/w⌋·w, (⌊v/w⌋+1)·w).
///   Since ⌊v/w⌋ ≥ H, the width is at most 1/H of the bucket's lower bound.
/// The index is continuous (S−1 → S) and monotonic; bucketLowerBound()/
/// bucketUpperBound() expose it so that tests and exports can name exact limits.
///
/// Values above highestTrackable() are not bucketed but counted as overflow; they
/// still enter count(), min/max/mean (which are exact, kept from the raw values)
/// and percentiles that fall into the overflow report max(). Negative values
/// (e.g. a job starting early) are recorded as 0 and counted in clampedNegatives().
class LatencyHistogram {
  public:
    static constexpr std::int64_t kOneHourNs = 3'600'000'000'000;

    /// digits: 1…5 significant decimal digits. Throws std::invalid_argument otherwise
    /// or for highestTrackable < 2·10^digits.
    explicit LatencyHistogram(std::int64_t highestTrackable = kOneHourNs, int digits = 3);

    /// Never allocates.
    void record(std::int64_t value) noexcept { recordN(value, 1); }
    void record(std::chrono::nanoseconds value) noexcept { recordN(value.count(), 1); }
    void recordN(std::int64_t value, std::uint64_t times) noexcept;

    std::uint64_t count() const noexcept { return total_; }  ///< incl. overflow
    std::uint64_t overflowCount() const noexcept { return overflow_; }
    std::uint64_t clampedNegatives() const noexcept { return negatives_; }
    std::int64_t min() const noexcept;  ///< 0 when empty
    std::int64_t max() const noexcept;  ///< 0 when empty
    double mean() const noexcept;       ///< exact; 0 when empty

    /// Value at `percent` (0…100): the highest value equivalent to the bucket holding
    /// the sample of rank ⌈percent/100 · count⌉ (at least 1), clamped to [min, max].
    /// So percentile(100) == max() and values below S are returned exactly.
    /// Returns 0 when empty; throws std::invalid_argument for percent outside 0…100.
    std::int64_t percentile(double percent) const;

    /// Adds `other`'s counts; throws std::invalid_argument if the layouts differ.
    void merge(const LatencyHistogram& other);
    void reset() noexcept;

    // --- layout inspection ---
    int digits() const noexcept { return digits_; }
    std::int64_t highestTrackable() const noexcept { return highest_; }
    std::int64_t subBucketCount() const noexcept { return subCount_; }
    std::size_t bucketCount() const noexcept { return counts_.size(); }
    /// Bucket index of a value in 0…highestTrackable().
    std::size_t bucketIndex(std::int64_t value) const noexcept;
    std::int64_t bucketLowerBound(std::size_t index) const noexcept;
    /// Exclusive upper bound of the bucket.
    std::int64_t bucketUpperBound(std::size_t index) const noexcept;
    /// Raw counts (for export, and for tests asserting that nothing was reallocated).
    std::span<const std::uint64_t> counts() const noexcept { return counts_; }

  private:
    int digits_;
    int halfShift_;  ///< log2 H
    std::int64_t subCount_;
    std::int64_t highest_;
    std::vector<std::uint64_t> counts_;
    std::uint64_t total_ = 0, overflow_ = 0, negatives_ = 0;
    std::int64_t min_ = 0, max_ = 0;
    long double sum_ = 0;
};

}  // namespace pullsched::rig
