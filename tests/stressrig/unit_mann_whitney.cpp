// The Mann-Whitney U test against values computed independently (by enumerating every
// arrangement of the ranks, and by the normal approximation's formula by hand).
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "analysis/MannWhitney.hpp"

using pullsched::rig::mannWhitneyU;

TEST(MannWhitney, ExactSmallSamples) {
    // The textbook example: U = 17, p = 1/9 two-sided (10 of 126 arrangements each side).
    const std::vector<double> a{19, 22, 16, 29, 24}, b{20, 11, 17, 12};
    const auto r = mannWhitneyU(a, b);
    EXPECT_TRUE(r.exact);
    EXPECT_FALSE(r.ties);
    EXPECT_EQ(r.n1, 5u);
    EXPECT_EQ(r.n2, 4u);
    EXPECT_DOUBLE_EQ(r.u1, 17.0);
    EXPECT_NEAR(r.pValue, 1.0 / 9.0, 1e-12);
    // symmetric: swapping the samples gives U2 = n1·n2 − U1 and the same p
    const auto s = mannWhitneyU(b, a);
    EXPECT_DOUBLE_EQ(s.u1, 3.0);
    EXPECT_NEAR(s.pValue, r.pValue, 1e-12);
}

TEST(MannWhitney, CompleteSeparationGivesTheSmallestP) {
    const std::vector<double> a{1, 2, 3, 4, 5}, b{6, 7, 8, 9, 10};
    const auto r = mannWhitneyU(a, b);
    EXPECT_DOUBLE_EQ(r.u1, 0.0);
    EXPECT_NEAR(r.pValue, 2.0 / 252.0, 1e-12);
    EXPECT_NEAR(r.minimumPValue, 2.0 / 252.0, 1e-12);
    EXPECT_LT(r.pValue, 0.05);
}

TEST(MannWhitney, InterleavedSamplesAreNotDifferent) {
    const std::vector<double> a{1.1, 2.3, 3.2, 4.8}, b{1.5, 2.9, 3.1, 5.0, 6.2};
    const auto r = mannWhitneyU(a, b);
    EXPECT_TRUE(r.exact);
    EXPECT_DOUBLE_EQ(r.u1, 7.0);
    EXPECT_NEAR(r.pValue, 5.0 / 9.0, 1e-12);
}

TEST(MannWhitney, TiesUseTheCorrectedNormalApproximation) {
    // mid-ranks; variance n1·n2/12·((n+1) − Σ(t³−t)/(n(n−1))); continuity ½
    const std::vector<double> a{1, 2, 2, 3, 3, 3, 4, 5}, b{3, 4, 4, 5, 6, 6, 7, 8, 9};
    const auto r = mannWhitneyU(a, b);
    EXPECT_FALSE(r.exact);
    EXPECT_TRUE(r.ties);
    EXPECT_DOUBLE_EQ(r.u1, 7.0);
    EXPECT_NEAR(r.pValue, 0.005580984136839319, 1e-12);
}

TEST(MannWhitney, LargeSamplesUseTheNormalApproximation) {
    std::vector<double> a, b;
    for (int i = 1; i <= 21; ++i)
        a.push_back(10.0 * i);
    for (int x = 15; x < 250; x += 10)
        b.push_back(x + 5);
    const auto r = mannWhitneyU(a, b);
    EXPECT_FALSE(r.exact);
    EXPECT_DOUBLE_EQ(r.u1, 200.0);
    EXPECT_NEAR(r.pValue, 0.24102117777144905, 1e-12);
}

TEST(MannWhitney, MissingValuesAreLeftOutAndEmptySamplesGiveNoP) {
    const double nan = std::nan("");
    const std::vector<double> a{1, nan, 2, 3, 4, 5}, b{6, 7, 8, nan, 9, 10};
    const auto r = mannWhitneyU(a, b);
    EXPECT_EQ(r.n1, 5u);
    EXPECT_EQ(r.n2, 5u);
    EXPECT_NEAR(r.pValue, 2.0 / 252.0, 1e-12);
    const std::vector<double> none{nan};
    EXPECT_TRUE(std::isnan(mannWhitneyU(a, none).pValue));
    // identical constant samples: no evidence of a difference
    const std::vector<double> c{3, 3, 3}, d{3, 3, 3, 3};
    EXPECT_DOUBLE_EQ(mannWhitneyU(c, d).pValue, 1.0);
}

TEST(MannWhitney, FewRepetitionsCannotShowADifference) {
    // two against two: even complete separation gives p = 1/3
    const std::vector<double> a{1, 2}, b{3, 4};
    const auto r = mannWhitneyU(a, b);
    EXPECT_NEAR(r.pValue, 1.0 / 3.0, 1e-12);
    EXPECT_NEAR(r.minimumPValue, 1.0 / 3.0, 1e-12);
}
