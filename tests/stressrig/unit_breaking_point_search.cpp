// The breaking-point search and the statistics of one probe, on synthetic verdicts and
// run outcomes (no timing).
#include <cmath>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "analysis/BreakingPointProbe.hpp"
#include "analysis/BreakingPointSearch.hpp"

using pullsched::rig::BreakingPointSearch;
using pullsched::rig::BreakThresholds;
using pullsched::rig::kMissing;
using pullsched::rig::ProbeRun;
using pullsched::rig::ProbeStatistics;

namespace {

/// Runs the search against a sharp breaking stress; returns the probed stresses.
std::vector<double> searchAgainst(BreakingPointSearch& s, double breaking) {
    std::vector<double> probed;
    while (auto next = s.next()) {
        probed.push_back(*next);
        s.record(*next > breaking);
    }
    return probed;
}

}  // namespace

TEST(BreakingPointSearch, WidensThenBisectsToTheResolution) {
    BreakingPointSearch s;
    const std::vector<double> probed = searchAgainst(s, 2.345);
    ASSERT_GE(probed.size(), 3u);
    EXPECT_DOUBLE_EQ(probed[0], 1.7);
    EXPECT_DOUBLE_EQ(probed[1], 3.4);   // held at 1.7: doubled
    EXPECT_DOUBLE_EQ(probed[2], 2.55);  // broke at 3.4: bisect [1.7, 3.4]
    EXPECT_TRUE(s.finished());
    EXPECT_TRUE(s.bracketed());
    EXPECT_TRUE(s.converged());
    EXPECT_LE(s.low(), 2.345);
    EXPECT_GT(s.high(), 2.345);
    EXPECT_LE(s.high() - s.low(), 0.01);
    EXPECT_DOUBLE_EQ(s.estimate(), (s.low() + s.high()) / 2);
    EXPECT_EQ(s.probes(), probed.size());
    EXPECT_THROW(s.record(true), std::logic_error);
}

TEST(BreakingPointSearch, GivesUpAtTheCap) {
    BreakingPointSearch s;
    const std::vector<double> probed = searchAgainst(s, 1e9);
    EXPECT_EQ(probed, (std::vector<double>{1.7, 3.4, 6.8, 13.6, 27.2, 54.4, 64}));
    EXPECT_TRUE(s.finished());
    EXPECT_FALSE(s.bracketed());
    EXPECT_EQ(s.low(), 64);
    EXPECT_TRUE(std::isnan(s.high()));
    EXPECT_TRUE(std::isnan(s.estimate()));
}

TEST(BreakingPointSearch, BrokenAtTheStartBisectsDownwards) {
    BreakingPointSearch s({.start = 1.7, .cap = 64, .resolution = 0.05});
    searchAgainst(s, 0.3);
    EXPECT_TRUE(s.converged());
    EXPECT_LE(s.low(), 0.3);
    EXPECT_GT(s.high(), 0.3);
    EXPECT_LE(s.high() - s.low(), 0.05);
}

TEST(BreakingPointSearch, RejectsBadLimits) {
    EXPECT_THROW(BreakingPointSearch({.start = 0, .cap = 64, .resolution = 0.01}),
                 std::invalid_argument);
    EXPECT_THROW(BreakingPointSearch({.start = 2, .cap = 1, .resolution = 0.01}),
                 std::invalid_argument);
    EXPECT_THROW(BreakingPointSearch({.start = 1, .cap = 2, .resolution = 0}),
                 std::invalid_argument);
}

TEST(ProbeStatistics, IncompleteRunsAreExcludedFromTheFiguresAndCountAsFailed) {
    const BreakThresholds t{.failDeltaMs = 1.5,
                            .sdevLimitMs = 1,
                            .deltaLimitMs = 0.5,
                            .breakFailFraction = 0.99,
                            .failFraction = 0.55};
    // complete runs of 1 ms and 3 ms (planned 1 ms); two incomplete runs
    const std::vector<ProbeRun> runs{
        {1.0, 1.0, false}, {3.0, 1.0, false}, {kMissing, 1.0, true}, {kMissing, 1.0, false}};
    const ProbeStatistics p = ProbeStatistics::of(2.5, runs, t);
    EXPECT_EQ(p.stress, 2.5);
    EXPECT_EQ(p.runs, 4u);
    EXPECT_EQ(p.incomplete, 2u);
    EXPECT_EQ(p.failed, 3u);  // 3 ms is 2 ms late; both incomplete runs
    EXPECT_DOUBLE_EQ(p.failFraction, 0.75);
    EXPECT_DOUBLE_EQ(p.meanRuntimeMs, 2.0);
    EXPECT_DOUBLE_EQ(p.meanDeltaMs, 1.0);
    EXPECT_DOUBLE_EQ(p.sdevMs, std::sqrt(2.0));
    EXPECT_DOUBLE_EQ(p.expectedMs, 1.0);
    EXPECT_TRUE(p.broken);  // 75 % > 55 %, σ 1.41 > 1, delta 1 > 0.5

    BreakThresholds loose = t;
    loose.deltaLimitMs = 2;
    EXPECT_FALSE(ProbeStatistics::of(2.5, runs, loose).broken);
    loose.breakFailFraction = 0.7;
    EXPECT_TRUE(ProbeStatistics::of(2.5, runs, loose).broken);
}

TEST(ProbeStatistics, AllRunsIncompleteLeaveTheFiguresMissing) {
    const std::vector<ProbeRun> runs(5, ProbeRun{kMissing, 0.3, true});
    const ProbeStatistics p = ProbeStatistics::of(1.7, runs, BreakThresholds{});
    EXPECT_EQ(p.incomplete, 5u);
    EXPECT_EQ(p.failed, 5u);
    EXPECT_TRUE(std::isnan(p.meanDeltaMs));  // never a number from runs that did not end
    EXPECT_TRUE(std::isnan(p.sdevMs));
    EXPECT_TRUE(std::isnan(p.meanRuntimeMs));
    EXPECT_DOUBLE_EQ(p.failFraction, 1.0);
    EXPECT_TRUE(p.broken);
}

TEST(ProbeStatistics, OneCompleteRunHasNoSdevAndOnlyTheFractionRuleApplies) {
    const BreakThresholds t{.failDeltaMs = 0.1,
                            .sdevLimitMs = 0,
                            .deltaLimitMs = 0,
                            .breakFailFraction = 0.99,
                            .failFraction = 0.5};
    const std::vector<ProbeRun> runs{{5.0, 1.0, false}, {kMissing, 1.0, false}};
    const ProbeStatistics p = ProbeStatistics::of(3, runs, t);
    EXPECT_TRUE(std::isnan(p.sdevMs));
    EXPECT_DOUBLE_EQ(p.meanDeltaMs, 4.0);
    EXPECT_DOUBLE_EQ(p.failFraction, 1.0);
    EXPECT_TRUE(p.broken);  // by the first rule
    const std::vector<ProbeRun> half{{5.0, 1.0, false}, {1.0, 1.0, false}, {kMissing, 1.0, false}};
    BreakThresholds t2 = t;
    t2.breakFailFraction = 1;
    // 2 of 3 fail, σ and delta over their (zero) limits
    EXPECT_TRUE(ProbeStatistics::of(3, half, t2).broken);
}

TEST(ProbeStatistics, NoRunsNoVerdict) {
    const ProbeStatistics p = ProbeStatistics::of(1, {}, BreakThresholds{});
    EXPECT_EQ(p.runs, 0u);
    EXPECT_TRUE(std::isnan(p.failFraction));
    EXPECT_FALSE(p.broken);
}
