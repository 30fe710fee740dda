// EfficiencyCurve: run efficiency, METG interpolated on the log scale, its edge cases
// (never reached, reached at the smallest size, noise crossing the threshold twice,
// missing points) and the saturation test that ends a sweep, on synthetic curves with
// exact expected values.
#include <cmath>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "analysis/EfficiencyCurve.hpp"

using pullsched::rig::EfficiencyCurve;
using pullsched::rig::EfficiencyPoint;
using pullsched::rig::kMissing;
using pullsched::rig::Metg;
using pullsched::rig::runEfficiency;

namespace {
EfficiencyCurve curve(std::vector<double> sizes, std::vector<double> effs) {
    std::vector<EfficiencyPoint> pts;
    for (std::size_t i = 0; i < sizes.size(); ++i)
        pts.push_back({sizes[i], effs[i]});
    return EfficiencyCurve(pts);
}
}  // namespace

TEST(EfficiencyCurve, RunEfficiencyIsTheLowerBoundOverTheMakespan) {
    // work-bound: 1000 us over 4 workers = 250 us, run took 500 us
    EXPECT_DOUBLE_EQ(runEfficiency(1000, 100, 4, 500), 0.5);
    // path-bound: the critical path (400 us) exceeds work / P (250 us)
    EXPECT_DOUBLE_EQ(runEfficiency(1000, 400, 4, 800), 0.5);
    EXPECT_DOUBLE_EQ(runEfficiency(1000, 400, 4, 200), 2.0);  // not clamped
    EXPECT_TRUE(std::isnan(runEfficiency(1000, 400, 4, 0)));
    EXPECT_TRUE(std::isnan(runEfficiency(1000, 400, 4, kMissing)));
    EXPECT_TRUE(std::isnan(runEfficiency(1000, 400, 0, 100)));
}

TEST(EfficiencyCurve, MetgIsInterpolatedOnTheLogScale) {
    // 0.3 at 2 us, 0.7 at 4 us: halfway in efficiency is halfway in log(size): 2·√2 us
    const Metg m = curve({1, 2, 4, 8}, {0.1, 0.3, 0.7, 0.9}).metg();
    ASSERT_EQ(m.kind, Metg::Kind::Interpolated);
    EXPECT_DOUBLE_EQ(m.valueUs, 2 * std::sqrt(2.0));
    EXPECT_EQ(m.belowUs, 2);
    EXPECT_EQ(m.aboveUs, 4);
    EXPECT_EQ(m.firstReachedUs, 4);
    EXPECT_FALSE(m.nonMonotonic);
    EXPECT_EQ(m.measured, 4u);
    EXPECT_EQ(m.kindName(), "interpolated");

    // a wide bracket tells log from linear interpolation: 10 us, not 50.5 us
    EXPECT_NEAR(curve({1, 100}, {0.0, 1.0}).metg().valueUs, 10.0, 1e-12);
    // a third of the way from 0.25 us to 0.5 us on the log scale
    EXPECT_NEAR(curve({0.25, 0.5}, {0.25, 1.0}).metg().valueUs, 0.25 * std::cbrt(2.0), 1e-15);
    // another threshold
    EXPECT_NEAR(curve({1, 2, 4, 8}, {0.1, 0.3, 0.7, 0.9}).metg(0.8).valueUs, 4 * std::sqrt(2.0),
                1e-12);
}

TEST(EfficiencyCurve, ExactlyAtTheThresholdCountsAsReached) {
    const Metg m = curve({1, 2, 4}, {0.2, 0.5, 0.8}).metg();
    ASSERT_EQ(m.kind, Metg::Kind::Interpolated);
    EXPECT_DOUBLE_EQ(m.valueUs, 2.0);
    EXPECT_EQ(m.firstReachedUs, 2);
}

TEST(EfficiencyCurve, NeverReachedIsAboveTheLargestSize) {
    const Metg m = curve({1, 2, 4}, {0.1, 0.2, 0.49}).metg();
    EXPECT_EQ(m.kind, Metg::Kind::AboveLargest);
    EXPECT_TRUE(std::isnan(m.valueUs));
    EXPECT_EQ(m.boundUs, 4);
    EXPECT_TRUE(std::isnan(m.firstReachedUs));
    EXPECT_EQ(m.kindName(), "above_largest");
}

TEST(EfficiencyCurve, ReachedAtTheSmallestSizeIsAnUpperBound) {
    const Metg m = curve({0.25, 0.5, 1}, {0.6, 0.7, 0.9}).metg();
    EXPECT_EQ(m.kind, Metg::Kind::AtOrBelowSmallest);
    EXPECT_TRUE(std::isnan(m.valueUs));
    EXPECT_EQ(m.boundUs, 0.25);
    EXPECT_EQ(m.firstReachedUs, 0.25);
    EXPECT_EQ(m.kindName(), "at_or_below_smallest");
}

TEST(EfficiencyCurve, NoiseCrossingTwiceTakesTheLastCrossing) {
    // a lucky 0.6 at 2 us, a dip to 0.4 at 4 us: METG is read above the dip
    const Metg m = curve({1, 2, 4, 8, 16}, {0.2, 0.6, 0.4, 0.8, 0.9}).metg();
    ASSERT_EQ(m.kind, Metg::Kind::Interpolated);
    EXPECT_DOUBLE_EQ(m.valueUs, 4 * std::pow(2.0, 0.25));
    EXPECT_EQ(m.belowUs, 4);
    EXPECT_EQ(m.firstReachedUs, 2);  // the optimistic reading, kept for the report
    EXPECT_TRUE(m.nonMonotonic);

    // a dip at the largest size: not reached there, so no claim below it
    const Metg d = curve({1, 2, 4, 8}, {0.2, 0.6, 0.7, 0.4}).metg();
    EXPECT_EQ(d.kind, Metg::Kind::AboveLargest);
    EXPECT_EQ(d.boundUs, 8);
    EXPECT_TRUE(d.nonMonotonic);
}

TEST(EfficiencyCurve, MissingPointsAreSkippedNotZero) {
    // interpolated across the missing 2 and 4 us: between 1 and 8 us, halfway: √8 us
    const Metg m = curve({1, 2, 4, 8}, {0.2, kMissing, kMissing, 0.8}).metg();
    ASSERT_EQ(m.kind, Metg::Kind::Interpolated);
    EXPECT_DOUBLE_EQ(m.valueUs, std::sqrt(8.0));
    EXPECT_EQ(m.measured, 2u);
    // a missing largest size does not count as a miss
    const Metg l = curve({1, 2, 4}, {0.2, 0.8, kMissing}).metg();
    ASSERT_EQ(l.kind, Metg::Kind::Interpolated);
    EXPECT_DOUBLE_EQ(l.valueUs, std::sqrt(2.0));
    // nothing measured
    const Metg n = curve({1, 2}, {kMissing, kMissing}).metg();
    EXPECT_EQ(n.kind, Metg::Kind::NoData);
    EXPECT_EQ(n.kindName(), "no_data");
    EXPECT_EQ(EfficiencyCurve({}).metg().kind, Metg::Kind::NoData);
}

TEST(EfficiencyCurve, SortsAndRejectsBadSizes) {
    const EfficiencyCurve c = curve({4, 1, 2}, {0.7, 0.1, 0.3});
    ASSERT_EQ(c.points().size(), 3u);
    EXPECT_EQ(c.points().front().jobSizeUs, 1);
    EXPECT_EQ(c.points().back().jobSizeUs, 4);
    EXPECT_DOUBLE_EQ(c.metg().valueUs, 2 * std::sqrt(2.0));
    EXPECT_THROW(curve({0, 1}, {0.1, 0.2}), std::invalid_argument);
    EXPECT_THROW(curve({-1, 1}, {0.1, 0.2}), std::invalid_argument);
    EXPECT_THROW(curve({1, 1}, {0.1, 0.2}), std::invalid_argument);
    EXPECT_THROW(curve({1, 2}, {0.1, 0.2}).metg(0), std::invalid_argument);
    EXPECT_THROW(curve({1, 2}, {0.1, 0.2}).metg(1.5), std::invalid_argument);
}

TEST(EfficiencyCurve, SaturatedOnAPlateauAboveTheThreshold) {
    EXPECT_TRUE(curve({1, 2, 4, 8, 16}, {0.2, 0.6, 0.93, 0.95, 0.96}).saturated());
    EXPECT_FALSE(curve({1, 2, 4}, {0.6, 0.8, 0.95}).saturated());  // still climbing
    EXPECT_FALSE(curve({1, 2, 4}, {0.3, 0.3, 0.3}).saturated());   // flat but below 50 %
    EXPECT_FALSE(curve({1, 2}, {0.95, 0.95}).saturated());         // too few sizes
    // a missing size does not count towards the window
    EXPECT_FALSE(curve({1, 2, 4}, {0.95, kMissing, 0.95}).saturated());
    EXPECT_TRUE(curve({1, 2, 4, 8}, {0.95, kMissing, 0.95, 0.96}).saturated());
    EXPECT_TRUE(curve({1, 2}, {0.95, 0.96}).saturated(0.5, 2, 0.05));
}
