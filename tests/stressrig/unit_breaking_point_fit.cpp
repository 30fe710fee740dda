// FailFractionFit on synthetic outcome counts with hand-computed maximum-likelihood values.
#include <cmath>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "analysis/FailFractionFit.hpp"

using pullsched::rig::FailFractionFit;
using pullsched::rig::StressOutcomes;

namespace {

double deviance(const std::vector<StressOutcomes>& d, const FailFractionFit& f, double s) {
    return 2 * (f.logLikelihood - FailFractionFit::profileLogLikelihood(d, s));
}

}  // namespace

TEST(FailFractionFit, TwoStressesFitTheObservedFractionsExactly) {
    // Two stresses, two parameters: the fit reproduces the observed fractions, so
    // slope·(0 − x50) = logit 0.1 = −ln 9 and slope·(ln 4 − x50) = logit 0.6 = ln 1.5.
    const std::vector<StressOutcomes> d{{1.0, 20, 2}, {4.0, 20, 12}};
    const FailFractionFit f = FailFractionFit::fit(d);
    ASSERT_TRUE(f.fitted) << f.reason;
    const double slope = std::log(13.5) / std::log(4.0);
    EXPECT_NEAR(f.slope, slope, 1e-6);
    EXPECT_NEAR(std::log(f.stress50), std::log(9.0) / slope, 1e-7);
    EXPECT_NEAR(f.failProbability(1.0), 0.1, 1e-7);
    EXPECT_NEAR(f.failProbability(4.0), 0.6, 1e-7);
    EXPECT_FALSE(f.separated);
    EXPECT_EQ(f.runs, 40u);
    EXPECT_EQ(f.failed, 14u);
    EXPECT_EQ(f.stresses, 2u);
    // log-likelihood of the saturated fit: Σ k ln p + (n − k) ln(1 − p)
    EXPECT_NEAR(f.logLikelihood,
                2 * std::log(0.1) + 18 * std::log(0.9) + 12 * std::log(0.6) + 8 * std::log(0.4),
                1e-9);
}

TEST(FailFractionFit, SymmetricDataGiveTheMidpoint) {
    const std::vector<StressOutcomes> d{{1.0, 20, 5}, {4.0, 20, 15}};
    const FailFractionFit f = FailFractionFit::fit(d);
    ASSERT_TRUE(f.fitted);
    EXPECT_NEAR(f.stress50, 2.0, 1e-7);
    EXPECT_NEAR(f.slope, std::log(3.0) / std::log(2.0), 1e-6);
    EXPECT_NEAR(f.failProbability(2.0), 0.5, 1e-7);
}

TEST(FailFractionFit, IntervalEndsLieAtTheChiSquareBound) {
    const std::vector<StressOutcomes> d{{1.0, 10, 1}, {1.5, 10, 3}, {2.0, 10, 6}, {3.0, 10, 9}};
    const FailFractionFit f = FailFractionFit::fit(d);
    ASSERT_TRUE(f.fitted);
    ASSERT_FALSE(std::isnan(f.low));
    ASSERT_FALSE(std::isnan(f.high));
    EXPECT_LT(f.low, f.stress50);
    EXPECT_GT(f.high, f.stress50);
    EXPECT_NEAR(deviance(d, f, f.low), FailFractionFit::kChiSquare95, 1e-6);
    EXPECT_NEAR(deviance(d, f, f.high), FailFractionFit::kChiSquare95, 1e-6);
    EXPECT_NEAR(deviance(d, f, f.stress50), 0.0, 1e-9);
    // the estimate maximises the profile
    for (double s : {f.stress50 * 0.99, f.stress50 * 1.01})
        EXPECT_GT(deviance(d, f, s), 0.0);
}

TEST(FailFractionFit, MoreRunsNarrowTheInterval) {
    const std::vector<StressOutcomes> few{{1.0, 10, 1}, {1.5, 10, 3}, {2.0, 10, 6}, {3.0, 10, 9}};
    std::vector<StressOutcomes> many = few;
    for (StressOutcomes& o : many) {
        o.runs *= 4;
        o.failed *= 4;
    }
    const FailFractionFit a = FailFractionFit::fit(few), b = FailFractionFit::fit(many);
    ASSERT_TRUE(a.fitted && b.fitted);
    EXPECT_NEAR(a.stress50, b.stress50, 1e-6);  // same fractions, same estimate
    EXPECT_LT(b.high - b.low, a.high - a.low);
    // roughly 1/√4 in ln stress
    EXPECT_NEAR(std::log(b.high / b.low) / std::log(a.high / a.low), 0.5, 0.1);
}

TEST(FailFractionFit, SeparationGivesTheGapMidpointAndAnIntervalAroundTheGap) {
    // every run holds up to 1.5 and fails from 2 on: the maximum lies anywhere in the gap
    const std::vector<StressOutcomes> d{{1.0, 10, 0}, {1.5, 10, 0}, {2.0, 10, 10}, {3.0, 10, 10}};
    const FailFractionFit f = FailFractionFit::fit(d);
    ASSERT_TRUE(f.fitted) << f.reason;
    EXPECT_TRUE(f.separated);
    EXPECT_TRUE(std::isinf(f.slope));
    EXPECT_NEAR(f.stress50, std::sqrt(3.0), 1e-12);
    EXPECT_EQ(f.logLikelihood, 0.0);
    // moving x50 onto a probe with 10 runs costs 10 ln 2 > χ²/2: the gap is the interval
    EXPECT_NEAR(f.low, 1.5, 1e-6);
    EXPECT_NEAR(f.high, 2.0, 1e-6);
    EXPECT_EQ(f.failProbability(1.2), 0.0);
    EXPECT_EQ(f.failProbability(2.5), 1.0);
}

TEST(FailFractionFit, FewRunsLeaveTheIntervalOpen) {
    // one run each side: nothing within the searched range is excluded at 95 %
    const std::vector<StressOutcomes> d{{1.0, 1, 0}, {2.0, 1, 1}};
    const FailFractionFit f = FailFractionFit::fit(d);
    ASSERT_TRUE(f.fitted);
    EXPECT_NEAR(f.stress50, std::sqrt(2.0), 1e-12);
    EXPECT_TRUE(std::isnan(f.low));
    EXPECT_TRUE(std::isnan(f.high));
}

TEST(FailFractionFit, DegenerateDataAreNotFitted) {
    auto notFitted = [](std::vector<StressOutcomes> d, const std::string& reason) {
        const FailFractionFit f = FailFractionFit::fit(d);
        EXPECT_FALSE(f.fitted);
        EXPECT_EQ(f.reason, reason);
        EXPECT_TRUE(std::isnan(f.stress50));
        EXPECT_TRUE(std::isnan(f.low));
        EXPECT_TRUE(std::isnan(f.high));
        EXPECT_TRUE(std::isnan(f.failProbability(1.0)));
    };
    notFitted({}, "no runs");
    notFitted({{1.0, 0, 0}}, "no runs");  // probes without runs are ignored
    notFitted({{1.0, 5, 0}, {2.0, 5, 0}}, "no run failed");
    notFitted({{1.0, 5, 5}, {2.0, 5, 5}}, "every run failed");
    notFitted({{1.5, 10, 4}}, "all runs at one stress");
    notFitted({{1.0, 20, 15}, {2.0, 20, 10}, {4.0, 20, 5}}, "failing does not grow with stress");
    notFitted({{1.0, 20, 1}, {2.0, 20, 2}, {4.0, 20, 3}},
              "the 50 % point lies outside the probed stresses");
}

TEST(FailFractionFit, ProbesWithoutRunsDoNotChangeTheFit) {
    const std::vector<StressOutcomes> a{{1.0, 20, 5}, {4.0, 20, 15}};
    const std::vector<StressOutcomes> b{{1.0, 20, 5}, {3.0, 0, 0}, {4.0, 20, 15}};
    EXPECT_NEAR(FailFractionFit::fit(a).stress50, FailFractionFit::fit(b).stress50, 1e-12);
}

TEST(FailFractionFit, RejectsImpossibleCounts) {
    const std::vector<StressOutcomes> zero{{0.0, 5, 1}, {1.0, 5, 2}};
    EXPECT_THROW(FailFractionFit::fit(zero), std::invalid_argument);
    const std::vector<StressOutcomes> over{{1.0, 5, 6}, {2.0, 5, 2}};
    EXPECT_THROW(FailFractionFit::fit(over), std::invalid_argument);
}
