// The soak verdict on synthetic series: thresholds for drops and late starts, trends
// only with enough intervals and with their uncertainty.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "analysis/LatenessMisses.hpp"
#include "analysis/SoakAnalysis.hpp"

using namespace pullsched::rig;

namespace {

std::vector<SoakInterval> series(std::vector<double> thr, std::vector<double> rssMiB,
                                 std::vector<double> backlog = {}) {
    std::vector<SoakInterval> v;
    for (std::size_t i = 0; i < thr.size(); ++i) {
        SoakInterval s;
        s.tSeconds = 10.0 * static_cast<double>(i + 1);
        s.throughput = thr[i];
        s.rssBytes = rssMiB[i] * 1048576.0;
        s.backlog = backlog.empty() ? 0 : backlog[i];
        v.push_back(s);
    }
    return v;
}

SoakTotals clean() {
    return {10'000, 0, 9'000, 0};
}

}  // namespace

TEST(SoakAnalysis, SlopeWithStandardErrorAndInterval) {
    // y = 2x + 1 exactly: slope 2, no residual, zero-width interval.
    const std::vector<double> x{1, 2, 3, 4, 5}, y{3, 5, 7, 9, 11};
    const SlopeFit f = SlopeFit::of(x, y);
    ASSERT_TRUE(f.fitted);
    EXPECT_DOUBLE_EQ(f.slope, 2);
    EXPECT_NEAR(f.standardError, 0, 1e-12);
    // Sxx = 5, Sxy = 3: slope 0.6; residuals ±0.4, ±1.2: SSR = 3.2 → SE = sqrt(3.2 / 2 / 5).
    const std::vector<double> x2{1, 2, 3, 4}, y2{2, 1, 4, 3};
    const SlopeFit g = SlopeFit::of(x2, y2);
    EXPECT_NEAR(g.slope, 0.6, 1e-12);
    EXPECT_NEAR(g.standardError, std::sqrt(0.32), 1e-12);
    EXPECT_NEAR(g.high95 - g.slope, 4.303 * std::sqrt(0.32), 1e-9);
    EXPECT_FALSE(g.significant());
}

TEST(SoakAnalysis, SlopeLeavesMissingPointsOutAndNeedsThree) {
    const std::vector<double> x{1, 2, 3, 4}, y{1, NAN, 3, 4};
    const SlopeFit f = SlopeFit::of(x, y);
    EXPECT_EQ(f.points, 3u);
    EXPECT_TRUE(f.fitted);
    const std::vector<double> x2{1, 2}, y2{1, 2};
    EXPECT_FALSE(SlopeFit::of(x2, y2).fitted);
    EXPECT_DOUBLE_EQ(studentT95(1), 12.706);
    EXPECT_NEAR(studentT95(1000), 1.962, 0.002);
}

TEST(SoakAnalysis, StableFlatRun) {
    const auto v =
        series({500, 1000, 1001, 999, 1000, 1000, 1001, 999}, {50, 60, 60, 60, 60, 60, 60, 60});
    const SoakVerdict s = judgeSoak(v, clean());
    EXPECT_EQ(s.verdict, "stable") << s.reason;
    EXPECT_EQ(s.intervals, 7u);  // the first is skipped
    ASSERT_TRUE(s.throughputPercentPerHour.fitted);
    EXPECT_TRUE(std::isfinite(s.throughputPercentPerHour.standardError));
    EXPECT_NE(s.trendText.find("±"), std::string::npos) << s.trendText;
    EXPECT_NE(s.trendText.find("%/h"), std::string::npos);
    EXPECT_NE(s.trendText.find("MiB/h"), std::string::npos);
}

TEST(SoakAnalysis, TooFewIntervalsGiveNoTrend) {
    const auto v = series({1000, 1000, 1000, 1000}, {60, 60, 60, 60});
    const SoakVerdict s = judgeSoak(v, clean());
    EXPECT_EQ(s.verdict, "inconclusive");
    EXPECT_FALSE(s.throughputPercentPerHour.fitted);
    EXPECT_FALSE(s.memoryMiBPerHour.fitted);
    EXPECT_EQ(s.trendText.rfind("trend: n/a (only 3 intervals", 0), 0u) << s.trendText;
    EXPECT_EQ(s.reason.find("%/h"), std::string::npos) << s.reason;
}

TEST(SoakAnalysis, DropsAboveThresholdAreNeverStable) {
    // A perfectly flat run with 54 % dropped: unstable, and the reason says so.
    const auto v =
        series({0, 1000, 1000, 1000, 1000, 1000, 1000, 1000}, {60, 60, 60, 60, 60, 60, 60, 60});
    const SoakVerdict s = judgeSoak(v, {600'000, 324'043, 275'957, 0});
    EXPECT_EQ(s.verdict, "unstable");
    EXPECT_TRUE(s.overThreshold);
    EXPECT_NE(s.reason.find("324043 of 600000 jobs dropped"), std::string::npos) << s.reason;
    EXPECT_NE(s.reason.find("0.1 %"), std::string::npos) << s.reason;
    // The threshold is a parameter: at 60 % the same run is not over it.
    SoakLimits lax;
    lax.dropThreshold = 0.6;
    EXPECT_EQ(judgeSoak(v, {600'000, 324'043, 275'957, 0}, lax).verdict, "stable");
    // Few intervals do not hide the drops either.
    const auto shortRun = series({1000, 1000}, {60, 60});
    EXPECT_EQ(judgeSoak(shortRun, {1000, 10, 990, 0}).verdict, "unstable");
}

TEST(SoakAnalysis, LateStartsAboveThresholdAreNeverStable) {
    const auto v =
        series({1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000}, {60, 60, 60, 60, 60, 60, 60, 60});
    const SoakVerdict s = judgeSoak(v, {10'000, 0, 9'000, 20});  // 0.22 % late
    EXPECT_EQ(s.verdict, "unstable");
    EXPECT_NE(s.reason.find("20 of 9000 measured jobs started later"), std::string::npos)
        << s.reason;
    EXPECT_EQ(judgeSoak(v, {10'000, 0, 9'000, 9}).verdict, "stable");  // 0.1 % is within
}

TEST(SoakAnalysis, ThroughputFallingSignificantlyIsDegrading) {
    // t = 20 … 80 s: 1100 … 800, −50 per interval: about −17 % over the run.
    const auto v =
        series({0, 1100, 1050, 1000, 950, 900, 850, 800}, {60, 60, 60, 60, 60, 60, 60, 60});
    const SoakVerdict s = judgeSoak(v, clean());
    EXPECT_EQ(s.verdict, "degrading") << s.reason;
    EXPECT_NE(s.reason.find("throughput fell"), std::string::npos);
    EXPECT_LT(s.throughputPercentPerHour.high95, 0);
}

TEST(SoakAnalysis, NoisyThroughputIsNotDegrading) {
    // Big swings, no trend: the interval contains 0.
    const auto v =
        series({0, 1200, 800, 1250, 750, 1200, 800, 1150}, {60, 60, 60, 60, 60, 60, 60, 60});
    const SoakVerdict s = judgeSoak(v, clean());
    EXPECT_NE(s.verdict, "degrading") << s.reason;
}

TEST(SoakAnalysis, MemoryGrowthIsDegrading) {
    const auto v = series({1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000},
                          {40, 50, 60, 70, 80, 90, 100, 110});
    const SoakVerdict s = judgeSoak(v, clean());
    EXPECT_EQ(s.verdict, "degrading");
    EXPECT_NEAR(s.memoryMiBPerHour.slope, 3600.0, 1e-6);  // 10 MiB per 10 s
    EXPECT_NE(s.reason.find("RSS grew"), std::string::npos);
}

TEST(SoakAnalysis, GrowingBacklogIsDegrading) {
    const auto v = series({1000, 1000, 1000, 1000, 1000, 1000, 1000}, {60, 60, 60, 60, 60, 60, 60},
                          {0, 10, 500, 900, 1500, 2000, 3000});
    const SoakVerdict s = judgeSoak(v, clean());
    EXPECT_EQ(s.verdict, "degrading");
    EXPECT_NE(s.reason.find("backlog grew to 3000"), std::string::npos);
}

TEST(SoakAnalysis, MissingValuesAreExcluded) {
    auto v =
        series({1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000}, {60, 60, 60, 60, 60, 60, 60, 60});
    v[3].rssBytes = NAN;  // RSS not readable in one interval
    const SoakVerdict s = judgeSoak(v, clean());
    EXPECT_EQ(s.memoryMiBPerHour.points, 6u);
    EXPECT_EQ(s.verdict, "stable") << s.reason;
}

TEST(SoakAnalysis, LatenessMissesCountAboveTheLimit) {
    LatencyHistogram h;
    for (int i = 1; i <= 100; ++i)
        h.record(std::int64_t{i} * 1000);  // 1 µs … 100 µs
    EXPECT_EQ(latenessMisses(h, 50'000), 50u);
    EXPECT_EQ(latenessMisses(h, 100'000), 0u);
    EXPECT_EQ(latenessMisses(h, 0), 100u);
    EXPECT_EQ(latenessMisses(LatencyHistogram{}, 0), 0u);
}
