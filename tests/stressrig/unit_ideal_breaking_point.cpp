// The ideal run's breaking stress and the measured time per weight unit, on hand-made
// graphs and runs whose answers are worked out by hand (no timing).
#include <cmath>

#include <gtest/gtest.h>

#include "analysis/IdealBreakingPoint.hpp"
#include "measure/JobTimePerUnit.hpp"

using namespace pullsched::rig;
using namespace pullsched::testchain;
using namespace std::chrono_literals;

namespace {

/// Three jobs of weight 1 on level 0. The adapted schedule plans 2 units for them on two
/// workers (3 nodes take 2 rounds), i.e. an end at 2 ms / stress with 1 ms units; any run
/// on two workers ends at 2 units, whatever the stress.
TestChainGraph threeJobs() {
    TestChainGraph g{3};
    for (std::size_t i = 0; i < 3; ++i)
        g.node(i).weight = 1;
    return g;
}

BreakThresholds failAfter(double ms) {
    BreakThresholds t;
    t.failDeltaMs = ms;
    return t;
}

}  // namespace

TEST(IdealBreakingPoint, BreaksWhereTheSimulatedRunEndsTooLate) {
    // the run ends at 2 ms and fails when 2 - 2 / s > 0.5, i.e. above s = 4/3
    const IdealBreakingPoint p = IdealBreakingPoint::search(threeJobs(), WeightPolicy::Raw, 2, 1ms,
                                                            1ms, 0ms, failAfter(0.5));
    ASSERT_FALSE(std::isnan(p.stress));
    EXPECT_LE(p.low, 4.0 / 3.0);
    EXPECT_GT(p.high, 4.0 / 3.0);
    EXPECT_NEAR(p.stress, 4.0 / 3.0, BreakingPointSearch::Limits{}.resolution);
    EXPECT_GT(p.probes, 0u);
}

TEST(IdealBreakingPoint, ShorterJobsHoldToAHigherStress) {
    // jobs of 0.9 ms: the run ends at 1.8 ms and fails above 2 / 1.3
    const IdealBreakingPoint p = IdealBreakingPoint::search(threeJobs(), WeightPolicy::Raw, 2, 1ms,
                                                            900us, 0ms, failAfter(0.5));
    EXPECT_NEAR(p.stress, 2.0 / 1.3, BreakingPointSearch::Limits{}.resolution);
}

TEST(IdealBreakingPoint, DeadlinesBreakItEarlier) {
    // one worker: the third job starts at 2 ms, 2 ms after its planned start of 0; with a
    // 1.5 ms window it expires at every stress, so the first probe breaks
    const IdealBreakingPoint p = IdealBreakingPoint::search(threeJobs(), WeightPolicy::Raw, 1, 1ms,
                                                            1ms, 1500us, failAfter(100));
    EXPECT_EQ(p.low, 0.0);
    EXPECT_LE(p.high, BreakingPointSearch::Limits{}.resolution);
    // without deadlines and a threshold nothing reaches, it never breaks
    const IdealBreakingPoint none = IdealBreakingPoint::search(threeJobs(), WeightPolicy::Raw, 1,
                                                               1ms, 1ms, 0ms, failAfter(1e9));
    EXPECT_TRUE(std::isnan(none.stress));
    EXPECT_TRUE(std::isnan(none.high));
    EXPECT_EQ(none.low, BreakingPointSearch::Limits{}.cap);
}

TEST(JobTimePerUnit, WeightedMeanOverJobsThatRan) {
    JobTimePerUnit t;
    EXPECT_FALSE(t.perUnit().has_value());
    EXPECT_FALSE(t.driftFrom(1ms).has_value());
    RunResult run;
    auto job = [](std::uint32_t weight, Duration start, Duration end) {
        JobTiming j;
        j.weight = weight;
        j.actualStart = start;
        j.end = end;
        return j;
    };
    run.jobs = {job(1, 0ms, 1ms), job(2, 1ms, 4ms),
                job(0, 4ms, 4ms + 500us),  // weight 0: no unit to measure
                JobTiming{}};              // never ran
    run.jobs.back().weight = 5;
    t.add(run);
    ASSERT_TRUE(t.perUnit().has_value());
    EXPECT_EQ(*t.perUnit(), Duration{4ms} / 3);  // 4 ms over 3 units
    EXPECT_EQ(t.jobs(), 2u);
    RunResult second;
    second.jobs = {job(1, 0ms, 2ms)};
    t.add(second);
    EXPECT_EQ(*t.perUnit(), Duration{6ms} / 4);
    EXPECT_DOUBLE_EQ(*t.driftFrom(1ms), 0.5);  // 1.5 ms per unit against 1 ms planned
    EXPECT_DOUBLE_EQ(*t.driftFrom(3ms), -0.5);
    EXPECT_EQ(t.jobs(), 3u);
}
