// Pure helpers of the load-test modes, checked exactly on synthetic data.

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <vector>

#include "analysis/LoadTestAnalysis.hpp"
#include "load/ArrivalTimetable.hpp"

using namespace pullsched::rig;
using namespace pullsched::rig::loadtest;
using namespace std::chrono_literals;

TEST(LoadTestAnalysis, MeasuredArrivalsConstant) {
    // 1000/s for 1 s: offsets 0, 1 ms, …, 999 ms. Warm-up 300 ms excludes 0 … 299 ms.
    const auto tt = ArrivalTimetable::constant(1000, 1s);
    ASSERT_EQ(tt.size(), 1000u);
    EXPECT_EQ(measuredArrivals(tt, 300ms), 700u);
    EXPECT_EQ(measuredArrivals(tt, 0ns), 1000u);
    EXPECT_EQ(measuredArrivals(tt, 1s), 0u);
    // An arrival exactly at the warm-up boundary counts (offset >= warmup).
    EXPECT_EQ(measuredArrivals(tt, 299'000'000ns), 701u);
    EXPECT_EQ(measuredArrivals(tt, 299'000'001ns), 700u);
}

TEST(LoadTestAnalysis, MeasuredArrivalsPoissonMatchesScan) {
    const auto tt = ArrivalTimetable::poisson(2000, 1s, 7);
    std::uint64_t n = 0;
    for (auto o : tt)
        n += o >= 250ms ? 1 : 0;
    EXPECT_EQ(measuredArrivals(tt, 250ms), n);
}

TEST(LoadTestAnalysis, SweepRates) {
    EXPECT_EQ(sweepRates(100, 300, 100), (std::vector<double>{100, 200, 300}));
    EXPECT_EQ(sweepRates(100, 350, 100), (std::vector<double>{100, 200, 300}));
    EXPECT_EQ(sweepRates(0.1, 0.3, 0.1).size(), 3u);  // inclusive despite rounding
    EXPECT_EQ(sweepRates(10, 50, 0), (std::vector<double>{10, 20, 30, 40, 50}));
    EXPECT_EQ(sweepRates(10, 10, 5), (std::vector<double>{10}));
    EXPECT_TRUE(sweepRates(0, 10, 1).empty());
    EXPECT_TRUE(sweepRates(10, 5, 1).empty());
    EXPECT_TRUE(sweepRates(10, 20, -1).empty());
}

TEST(LoadTestAnalysis, HeadroomEfficiency) {
    // Seed 004's Intel table: 223 s for one compile, 354 s for eight.
    std::vector<HeadroomRow> rows{{1, 20, 223, 0}, {4, 51, 225, 0}, {8, 100, 354, 0}};
    computeEfficiency(rows);
    EXPECT_DOUBLE_EQ(rows[0].efficiency, 1.0);
    EXPECT_DOUBLE_EQ(rows[1].efficiency, 223.0 / 225.0);
    EXPECT_DOUBLE_EQ(rows[2].efficiency, 223.0 / 354.0);
}

TEST(LoadTestAnalysis, MaxSustainedLoad) {
    // Seed 004's c6i latencies: 1005 µs at low load, limit 2010 µs; the table stops at
    // 1806 µs, so the last step is the maximum sustained load.
    const std::vector<double> c6i{1005, 977,  975,  918,  960,  957,
                                  1037, 1037, 1106, 1173, 1301, 1806};
    EXPECT_EQ(maxSustainedIndex(c6i), 11u);
    const std::vector<double> lat{10, 12, 19, 21, 15};
    EXPECT_EQ(maxSustainedIndex(lat), 2u);  // contiguous: stops at the first excess
    EXPECT_EQ(maxSustainedIndex(lat, 3.0), 4u);
    EXPECT_FALSE(maxSustainedIndex(std::vector<double>{}).has_value());
    EXPECT_FALSE(maxSustainedIndex(std::vector<double>{0, 1}).has_value());
}

TEST(LoadTestAnalysis, MaxSustainedLoadIgnoresNoiseBelowTheFloor) {
    // Mean lateness in ns at 10 %..100 % of capacity (measured shape): microsecond noise
    // must not decide; the knee at the last step must.
    const std::vector<double> late{4850, 5930, 13800, 4690, 327, 1120, 825, 61200, 7030, 494000};
    EXPECT_EQ(maxSustainedIndex(late), 1u);                // without a floor: noise wins
    EXPECT_EQ(maxSustainedIndex(late, 2.0, 50000.0), 8u);  // 2 x 50 us: up to the knee
    EXPECT_EQ(maxSustainedIndex(std::vector<double>{0, 1}, 2.0, 10.0), 1u);
}

TEST(LoadTestAnalysis, MedianAndOutliers) {
    EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
    EXPECT_DOUBLE_EQ(median({4, 1, 2, 3}), 2.5);
    EXPECT_DOUBLE_EQ(median({}), 0);
    const std::vector<double> v{1, 1.2, 0.9, 1.1, 6, 4.9, 1};
    const auto o = outliers(v, 5.0);  // median 1.1 → bound 5.5
    EXPECT_EQ(o, (std::vector<bool>{false, false, false, false, true, false, false}));
    EXPECT_EQ(outliers(v, 5.0, 10.0), std::vector<bool>(7, false));  // floor
}

TEST(LoadTestAnalysis, WindowThroughputCountsCompletionsAndSaysWhenTooShort) {
    // 300 completions in a 1.5 s window of 1 ms jobs: 200/s.
    const WindowThroughput ok = windowThroughput(300, 1500ms, 1ms);
    EXPECT_DOUBLE_EQ(ok.perSecond, 200.0);
    EXPECT_FALSE(ok.tooShort);
    // Jobs of 7 s, a 50 ms window, nothing ended in it: no rate (not 0/s), too short.
    const WindowThroughput none = windowThroughput(0, 50ms, 7s);
    EXPECT_TRUE(std::isnan(none.perSecond));
    EXPECT_TRUE(none.tooShort);
    // Four jobs begun before a window shorter than one job ended in it: a rate, flagged.
    const WindowThroughput early = windowThroughput(4, 50ms, 7s);
    EXPECT_DOUBLE_EQ(early.perSecond, 80.0);
    EXPECT_TRUE(early.tooShort);
    // A window exactly one job long can hold one.
    EXPECT_FALSE(windowThroughput(1, 7s, 7s).tooShort);
    EXPECT_DOUBLE_EQ(windowThroughput(1, 7s, 7s).perSecond, 1.0 / 7.0);
    // An empty (or negative) window measures nothing.
    EXPECT_TRUE(std::isnan(windowThroughput(5, 0ns, 1ms).perSecond));
    EXPECT_TRUE(windowThroughput(5, -1ms, 1ms).tooShort);
    // Many fast jobs in a long window: no overflow, no flag.
    EXPECT_DOUBLE_EQ(windowThroughput(1'000'000'000, 1000s, 0ns).perSecond, 1e6);
}
