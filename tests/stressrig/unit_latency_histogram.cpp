// LatencyHistogram: exact bucket layout, percentiles on known inputs, fixed memory.
#include <cstdint>
#include <random>

#include <gtest/gtest.h>

#include "measure/LatencyHistogram.hpp"

using pullsched::rig::LatencyHistogram;

TEST(LatencyHistogram, LayoutForThreeDigits) {
    const LatencyHistogram h;  // 1 h in ns, 3 digits
    EXPECT_EQ(h.subBucketCount(), 2048);
    EXPECT_EQ(h.highestTrackable(), 3'600'000'000'000);
    // 3.6e12: ⌊log2⌋ = 41 → shift 31, ⌊3.6e12 / 2^31⌋ = 1676 → index 31·1024 + 1676
    EXPECT_EQ(h.bucketCount(), 31u * 1024 + 1676 + 1);

    // linear part: one value per bucket
    EXPECT_EQ(h.bucketIndex(0), 0u);
    EXPECT_EQ(h.bucketIndex(2047), 2047u);
    EXPECT_EQ(h.bucketLowerBound(2047), 2047);
    EXPECT_EQ(h.bucketUpperBound(2047), 2048);
    // first logarithmic bucket: width 2
    EXPECT_EQ(h.bucketIndex(2048), 2048u);
    EXPECT_EQ(h.bucketIndex(2049), 2048u);
    EXPECT_EQ(h.bucketIndex(2050), 2049u);
    EXPECT_EQ(h.bucketLowerBound(2048), 2048);
    EXPECT_EQ(h.bucketUpperBound(2048), 2050);
    EXPECT_EQ(h.bucketIndex(4095), 3071u);
    EXPECT_EQ(h.bucketLowerBound(3071), 4094);
    EXPECT_EQ(h.bucketUpperBound(3071), 4096);
    // next power of two: width 4
    EXPECT_EQ(h.bucketIndex(4096), 3072u);
    EXPECT_EQ(h.bucketLowerBound(3072), 4096);
    EXPECT_EQ(h.bucketUpperBound(3072), 4100);
    // 1 ms = 1e6 ns: ⌊log2⌋ = 19 → width 2^9 = 512, ⌊1e6/512⌋ = 1953
    EXPECT_EQ(h.bucketIndex(1'000'000), 9u * 1024 + 1953);
    EXPECT_EQ(h.bucketLowerBound(9u * 1024 + 1953), 1953 * 512);
    EXPECT_EQ(h.bucketUpperBound(9u * 1024 + 1953), 1954 * 512);
}

TEST(LatencyHistogram, LayoutIsContiguousAndPrecise) {
    const LatencyHistogram h(10'000'000'000, 3);
    for (std::size_t i = 0; i + 1 < h.bucketCount(); ++i) {
        ASSERT_EQ(h.bucketUpperBound(i), h.bucketLowerBound(i + 1)) << "bucket " << i;
        const auto lo = h.bucketLowerBound(i), width = h.bucketUpperBound(i) - lo;
        ASSERT_EQ(h.bucketIndex(lo), i);
        ASSERT_EQ(h.bucketIndex(lo + width - 1), i);
        if (lo >= h.subBucketCount()) {  // below, every bucket holds one value: exact
            ASSERT_LE(static_cast<double>(width) / static_cast<double>(lo), 1.0 / 1024);
        }
    }
}

TEST(LatencyHistogram, OtherDigitCounts) {
    EXPECT_EQ(LatencyHistogram(1'000'000, 2).subBucketCount(), 256);
    EXPECT_EQ(LatencyHistogram(1'000'000, 1).subBucketCount(), 32);
    const LatencyHistogram h(1'000'000, 1);
    EXPECT_EQ(h.bucketIndex(32), 32u);  // 16·1 + 32>>1
    EXPECT_EQ(h.bucketUpperBound(32), 34);
    EXPECT_THROW(LatencyHistogram(1'000'000, 0), std::invalid_argument);
    EXPECT_THROW(LatencyHistogram(1'000'000, 6), std::invalid_argument);
    EXPECT_THROW(LatencyHistogram(1000, 3), std::invalid_argument);
}

TEST(LatencyHistogram, PercentilesExactInLinearRange) {
    LatencyHistogram h;
    for (int v = 1; v <= 100; ++v)
        h.record(v);
    EXPECT_EQ(h.count(), 100u);
    EXPECT_EQ(h.min(), 1);
    EXPECT_EQ(h.max(), 100);
    EXPECT_DOUBLE_EQ(h.mean(), 50.5);
    EXPECT_EQ(h.percentile(0), 1);
    EXPECT_EQ(h.percentile(50), 50);
    EXPECT_EQ(h.percentile(90), 90);
    EXPECT_EQ(h.percentile(99), 99);
    EXPECT_EQ(h.percentile(99.9), 100);
    EXPECT_EQ(h.percentile(100), 100);
    EXPECT_THROW((void)h.percentile(100.5), std::invalid_argument);
    EXPECT_THROW((void)h.percentile(-1), std::invalid_argument);
}

TEST(LatencyHistogram, PercentileReportsHighestEquivalentValue) {
    LatencyHistogram h;
    h.record(std::chrono::nanoseconds{10'000});  // bucket [10000, 10008)
    h.record(20'001);
    EXPECT_EQ(h.percentile(50), 10'007);
    EXPECT_EQ(h.percentile(100), 20'001);  // clamped to the exact max
    LatencyHistogram single;
    single.record(10'000);
    EXPECT_EQ(single.percentile(50), 10'000);  // clamped to [min, max]
}

TEST(LatencyHistogram, OverflowAndNegatives) {
    LatencyHistogram h(1'000'000, 3);
    h.record(10);
    h.record(20);
    h.record(30);
    h.record(2'000'000);  // above the highest trackable value
    h.record(-5);         // clamped to 0
    EXPECT_EQ(h.count(), 5u);
    EXPECT_EQ(h.overflowCount(), 1u);
    EXPECT_EQ(h.clampedNegatives(), 1u);
    EXPECT_EQ(h.min(), 0);
    EXPECT_EQ(h.max(), 2'000'000);
    EXPECT_EQ(h.percentile(50), 20);
    EXPECT_EQ(h.percentile(100), 2'000'000);
    EXPECT_DOUBLE_EQ(h.mean(), (10 + 20 + 30 + 2'000'000) / 5.0);
}

TEST(LatencyHistogram, RecordingNeverReallocates) {
    LatencyHistogram h;
    const auto* data = h.counts().data();
    const auto buckets = h.bucketCount();
    std::mt19937_64 rng(7);
    for (int i = 0; i < 200'000; ++i)
        h.record(static_cast<std::int64_t>(rng() % 8'000'000'000'000));
    EXPECT_EQ(h.counts().data(), data);
    EXPECT_EQ(h.bucketCount(), buckets);
    EXPECT_EQ(h.count(), 200'000u);
    EXPECT_GT(h.overflowCount(), 0u);
}

TEST(LatencyHistogram, RelativeErrorBelowOnePerMille) {
    LatencyHistogram h;
    std::mt19937_64 rng(3);
    for (int i = 0; i < 1000; ++i) {
        const auto v = static_cast<std::int64_t>(rng() % 3'000'000'000'000) + 1;
        const auto idx = h.bucketIndex(v);
        ASSERT_LE(h.bucketLowerBound(idx), v);
        ASSERT_LT(v, h.bucketUpperBound(idx));
        ASSERT_LE(static_cast<double>(h.bucketUpperBound(idx) - 1 - v) / static_cast<double>(v),
                  1.0 / 1024);
    }
}

TEST(LatencyHistogram, MergeAndReset) {
    LatencyHistogram a, b, both;
    for (int v = 1; v <= 5000; v += 3) {
        a.record(v * 1000);
        both.record(v * 1000);
    }
    for (int v = 2; v <= 9000; v += 7) {
        b.record(v * 10);
        both.record(v * 10);
    }
    a.merge(b);
    EXPECT_EQ(a.count(), both.count());
    EXPECT_EQ(a.min(), both.min());
    EXPECT_EQ(a.max(), both.max());
    EXPECT_DOUBLE_EQ(a.mean(), both.mean());
    for (double p : {50.0, 90.0, 99.0, 99.9})
        EXPECT_EQ(a.percentile(p), both.percentile(p));

    LatencyHistogram other(1'000'000, 3);
    EXPECT_THROW(a.merge(other), std::invalid_argument);

    a.reset();
    EXPECT_EQ(a.count(), 0u);
    EXPECT_EQ(a.percentile(99), 0);
    EXPECT_EQ(a.max(), 0);
    for (auto c : a.counts())
        ASSERT_EQ(c, 0u);
}
