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

namespace {

/// Throughput 1100 → 800 over intervals 2..8 (−27 % from its start), the first interval
/// skipped; CPU share and steal time given per interval (NaN: not recorded).
std::vector<SoakInterval> falling(std::vector<double> cpu, std::vector<double> steal = {}) {
    auto v = series({0, 1100, 1050, 1000, 950, 900, 850, 800}, {60, 60, 60, 60, 60, 60, 60, 60});
    for (std::size_t i = 0; i < v.size(); ++i) {
        v[i].cpuPercent = cpu[i];
        v[i].stealPercent = steal.empty() ? NAN : steal[i];
    }
    return v;
}

}  // namespace

TEST(SoakAnalysis, AFallWithTheCpuShareIsTheProcessGettingLessCpu) {
    // 155 % → 68 % of one core, falling with throughput: other work took the CPU.
    const SoakVerdict s = judgeSoak(falling({0, 155, 140.5, 126, 111.5, 97, 82.5, 68}), clean());
    EXPECT_EQ(s.verdict, "degrading") << s.reason;
    EXPECT_EQ(s.throughputCause, "less-cpu");
    EXPECT_NEAR(s.cpuFirstPercent, 155, 1e-9);
    EXPECT_NEAR(s.cpuLastPercent, 68, 1e-9);
    EXPECT_NE(s.reason.find("throughput fell"), std::string::npos) << s.reason;
    EXPECT_NE(s.reason.find("the process's CPU share fell with it (155 % → 68 % of one core): "
                            "it got less CPU, the scheduler did not slow down"),
              std::string::npos)
        << s.reason;
    EXPECT_NE(s.trendText.find("CPU share -"), std::string::npos) << s.trendText;
}

TEST(SoakAnalysis, AFallWithTheCpuShareHeldIsTheScheduler) {
    // The same fall at a steady 150 % (a little noise): the scheduler did less with it.
    const SoakVerdict s = judgeSoak(falling({0, 150, 151, 149, 150, 151, 149, 150}), clean());
    EXPECT_EQ(s.verdict, "degrading") << s.reason;
    EXPECT_EQ(s.throughputCause, "scheduler");
    EXPECT_NE(s.reason.find("the process's CPU share did not fall with it (150 % → 150 % of one "
                            "core): the scheduler completed fewer jobs with the CPU it had"),
              std::string::npos)
        << s.reason;
    // A share that rose while throughput fell is the scheduler too.
    EXPECT_EQ(judgeSoak(falling({0, 100, 110, 120, 130, 140, 150, 160}), clean()).throughputCause,
              "scheduler");
    // A small fall of the share beside a large fall of throughput does not explain it:
    // 150 → 140 % is −7 %, throughput −27 %.
    EXPECT_EQ(
        judgeSoak(falling({0, 150, 148.3, 146.7, 145, 143.3, 141.7, 140}), clean()).throughputCause,
        "scheduler");
}

TEST(SoakAnalysis, AFallWithRisingStealTimeNamesTheHypervisor) {
    const std::vector<double> steal{0, 0, 5, 10, 15, 20, 25, 30};
    // The share held, steal rose: the hypervisor.
    const SoakVerdict held =
        judgeSoak(falling({0, 150, 151, 149, 150, 151, 149, 150}, steal), clean());
    EXPECT_EQ(held.throughputCause, "steal") << held.reason;
    EXPECT_NE(held.reason.find("steal time rose 0.0 % → 30.0 % while the CPU share held"),
              std::string::npos)
        << held.reason;
    // The share fell and steal rose: both are said.
    const SoakVerdict both =
        judgeSoak(falling({0, 155, 140.5, 126, 111.5, 97, 82.5, 68}, steal), clean());
    EXPECT_EQ(both.throughputCause, "less-cpu");
    EXPECT_NE(both.reason.find("; steal time rose 0.0 % → 30.0 %): it got less CPU"),
              std::string::npos)
        << both.reason;
    // Steady steal is no cause.
    EXPECT_EQ(judgeSoak(falling({0, 150, 151, 149, 150, 151, 149, 150}, {0, 2, 2, 2, 2, 2, 2, 2}),
                        clean())
                  .throughputCause,
              "scheduler");
}

TEST(SoakAnalysis, AFallWithoutCpuFiguresSaysItCannotTell) {
    const std::vector<double> none(8, NAN);
    const SoakVerdict s = judgeSoak(falling(none), clean());
    EXPECT_EQ(s.verdict, "degrading");
    EXPECT_EQ(s.throughputCause, "unknown");
    EXPECT_NE(s.reason.find("the CPU share was not recorded"), std::string::npos) << s.reason;
}

TEST(SoakAnalysis, NoCauseWithoutAFall) {
    // The CPU share may move (less work, other load) while throughput holds: no cause.
    auto v =
        series({1000, 1000, 1001, 999, 1000, 1000, 1001, 999}, {60, 60, 60, 60, 60, 60, 60, 60});
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i].cpuPercent = 150 - 10.0 * static_cast<double>(i);
    const SoakVerdict s = judgeSoak(v, clean());
    EXPECT_EQ(s.verdict, "stable") << s.reason;
    EXPECT_TRUE(s.throughputCause.empty()) << s.throughputCause;
}

TEST(SoakAnalysis, MemoryGivenBackIsNotGrowth) {
    // The pool grew for 20 intervals (60 → 440 MiB) and returned its records in the last:
    // RSS is back where it started. The line through the points still rises
    // significantly, by more than the growth limits; what stays at the end decides.
    std::vector<double> rss{50};
    for (int i = 0; i < 20; ++i)
        rss.push_back(60 + 20.0 * i);
    rss.push_back(60);
    const auto v = series(std::vector<double>(rss.size(), 1000), rss);
    const SoakVerdict s = judgeSoak(v, clean());
    ASSERT_TRUE(s.memoryMiBPerHour.significant());
    EXPECT_GT(s.memoryMiBPerHour.low95, 0) << "the fitted line alone would call it growth";
    EXPECT_EQ(s.verdict, "stable") << s.reason;
    EXPECT_EQ(s.reason.find("RSS grew"), std::string::npos) << s.reason;
    EXPECT_TRUE(s.memoryReturned);
    EXPECT_DOUBLE_EQ(s.rssFirstMiB, 60);
    EXPECT_DOUBLE_EQ(s.rssPeakMiB, 440);
    EXPECT_DOUBLE_EQ(s.rssLastMiB, 60);
    EXPECT_NE(s.reason.find("memory given back: RSS peaked at 440.0 MiB and ended at 60.0 MiB"),
              std::string::npos)
        << s.reason;
}

TEST(SoakAnalysis, FallingMemoryIsShownAndNeverDegrading) {
    const auto v = series({1000, 1000, 1001, 999, 1000, 1000, 1001, 999},
                          {400, 400, 350, 300, 250, 200, 150, 100});
    const SoakVerdict s = judgeSoak(v, clean());
    EXPECT_EQ(s.verdict, "stable") << s.reason;
    EXPECT_FALSE(s.degrading);
    EXPECT_TRUE(s.memoryReturned);
    EXPECT_LT(s.memoryMiBPerHour.high95, 0) << "a significant fall";
    EXPECT_NE(s.trendText.find("memory -"), std::string::npos) << s.trendText;
    // Growth that stays is still growth.
    const auto grew = series({1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000},
                             {40, 50, 60, 70, 80, 90, 100, 110});
    const SoakVerdict g = judgeSoak(grew, clean());
    EXPECT_EQ(g.verdict, "degrading");
    EXPECT_FALSE(g.memoryReturned);
}
