// LinearRegression on hand-computed tables.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "analysis/LinearRegression.hpp"
#include "format/SignificantDigits.hpp"

using pullsched::rig::formatSignificant;
using pullsched::rig::LinearRegression;

TEST(LinearRegression, FixedTableHandComputed) {
    // mean x 3, mean y 4; Sxx 10, Sxy 6, Syy 6 → gradient 0.6, socket 2.2,
    // r = 6/√60; residuals −0.8 0.6 1.0 −0.6 −0.2 → Δmax 1, SSE 2.4, σ = √(2.4/3)
    const std::vector<double> x{1, 2, 3, 4, 5}, y{2, 4, 5, 4, 5};
    const LinearRegression r(x, y);
    EXPECT_EQ(r.size(), 5u);
    EXPECT_NEAR(r.gradient(), 0.6, 1e-12);
    EXPECT_NEAR(r.socket(), 2.2, 1e-12);
    EXPECT_NEAR(r.correlation(), 6.0 / std::sqrt(60.0), 1e-12);
    EXPECT_NEAR(r.maxDelta(), 1.0, 1e-12);
    EXPECT_NEAR(r.sigma(), std::sqrt(0.8), 1e-12);
    EXPECT_NEAR(r.predict(10), 8.2, 1e-12);
    EXPECT_EQ(r.format(), "Model: 0.600·p + 2.20 corr=0.775 Δmax=1.00 σ=0.894");
}

TEST(LinearRegression, PointsOverload) {
    const std::vector<std::pair<double, double>> pts{{1, 2}, {2, 4}, {3, 5}, {4, 4}, {5, 5}};
    const LinearRegression r(pts);
    EXPECT_NEAR(r.gradient(), 0.6, 1e-12);
    EXPECT_NEAR(r.socket(), 2.2, 1e-12);
}

TEST(LinearRegression, ExactLine) {
    std::vector<double> x, y;
    for (int p = 0; p <= 60; p += 10) {
        x.push_back(p);
        y.push_back(0.518 * p + 8.57);
    }
    const LinearRegression r(x, y);
    EXPECT_NEAR(r.gradient(), 0.518, 1e-12);
    EXPECT_NEAR(r.socket(), 8.57, 1e-12);
    EXPECT_NEAR(r.correlation(), 1.0, 1e-12);
    EXPECT_NEAR(r.maxDelta(), 0.0, 1e-12);
    EXPECT_NEAR(r.sigma(), 0.0, 1e-12);
    EXPECT_EQ(r.formatModel(), "Model: 0.518·p + 8.57");
}

TEST(LinearRegression, NegativeSocketAndNegativeCorrelation) {
    const std::vector<double> x{10, 20}, y{0.21 * 10 - 1.92, 0.21 * 20 - 1.92};
    EXPECT_EQ(LinearRegression(x, y).formatModel(), "Model: 0.210·p - 1.92");
    const std::vector<double> down{5, 3, 1};
    const std::vector<double> xs{1, 2, 3};
    const LinearRegression d(xs, down);
    EXPECT_NEAR(d.gradient(), -2.0, 1e-12);
    EXPECT_NEAR(d.correlation(), -1.0, 1e-12);
}

TEST(LinearRegression, DegenerateInputs) {
    const std::vector<double> one{1}, two{1, 2}, three{1, 2, 3};
    EXPECT_THROW((void)LinearRegression(one, one), std::invalid_argument);
    EXPECT_THROW((void)LinearRegression(two, three), std::invalid_argument);
    const std::vector<double> same{4, 4, 4};
    EXPECT_THROW((void)LinearRegression(same, three), std::invalid_argument);
    const std::vector<double> withNan{1, NAN, 3};
    EXPECT_THROW((void)LinearRegression(three, withNan), std::invalid_argument);

    const LinearRegression pair(two, std::vector<double>{3, 5});
    EXPECT_NEAR(pair.gradient(), 2.0, 1e-12);
    EXPECT_TRUE(std::isnan(pair.sigma()));  // n − 2 = 0

    const LinearRegression flat(three, same);
    EXPECT_EQ(flat.gradient(), 0.0);
    EXPECT_EQ(flat.socket(), 4.0);
    EXPECT_TRUE(std::isnan(flat.correlation()));
}

TEST(LinearRegression, SignificantDigits) {
    EXPECT_EQ(formatSignificant(0.518, 3), "0.518");
    EXPECT_EQ(formatSignificant(12.8, 3), "12.8");
    EXPECT_EQ(formatSignificant(1234.6, 3), "1235");
    EXPECT_EQ(formatSignificant(0.0, 3), "0");
    EXPECT_EQ(formatSignificant(-0.0001, 3), "-0.000100");
    EXPECT_EQ(formatSignificant(8.571, 2), "8.6");
    EXPECT_EQ(formatSignificant(0.99999, 3), "1.00");  // rounds across 10^0
    EXPECT_EQ(formatSignificant(99.96, 3), "100");
}
