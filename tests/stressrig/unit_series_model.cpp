// SeriesModel: incomplete points of a parameter series are left out of the line and the
// mean concurrency, and counted.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "analysis/SeriesModel.hpp"

using pullsched::rig::kMissing;
using pullsched::rig::SeriesModel;
using pullsched::rig::SeriesPoint;

TEST(SeriesModel, IncompletePointsAreExcludedAndCounted) {
    // the complete points lie on 0.5·x + 1; the incomplete ones would pull it anywhere
    const std::vector<SeriesPoint> pts{
        {2, 2.0, 1.5}, {4, 3.0, 1.7}, {6, kMissing, kMissing}, {8, 5.0, 1.9}, {10, kMissing, 1.0}};
    const SeriesModel m = SeriesModel::fit(pts);
    ASSERT_TRUE(m.line.has_value()) << m.why;
    EXPECT_EQ(m.used, 3u);
    EXPECT_EQ(m.missing, 2u);
    EXPECT_NEAR(m.line->gradient(), 0.5, 1e-12);
    EXPECT_NEAR(m.line->socket(), 1.0, 1e-12);
    EXPECT_EQ(m.line->size(), 3u);
    // concurrency is averaged where present, result or not
    EXPECT_NEAR(m.meanConcurrency, (1.5 + 1.7 + 1.9 + 1.0) / 4, 1e-12);
    EXPECT_EQ(m.line->format(), "Model: 0.500·p + 1.00 corr=1.00 Δmax=0 σ=0");
}

TEST(SeriesModel, NoLineWithoutTwoCompleteSizes) {
    const std::vector<SeriesPoint> one{{2, 2.0, 1.0}, {4, kMissing, kMissing}};
    const SeriesModel a = SeriesModel::fit(one);
    EXPECT_FALSE(a.line.has_value());
    EXPECT_EQ(a.why, "1 complete points at 1 distinct sizes; a line needs 2");
    EXPECT_EQ(a.missing, 1u);
    const std::vector<SeriesPoint> same{{5, 2.0, 1.0}, {5, 2.5, 1.0}};
    EXPECT_FALSE(SeriesModel::fit(same).line.has_value());
    const SeriesModel none = SeriesModel::fit({});
    EXPECT_FALSE(none.line.has_value());
    EXPECT_TRUE(std::isnan(none.meanConcurrency));
    const std::vector<SeriesPoint> gone{{2, kMissing, kMissing}, {4, kMissing, kMissing}};
    const SeriesModel g = SeriesModel::fit(gone);
    EXPECT_EQ(g.missing, 2u);
    EXPECT_TRUE(std::isnan(g.meanConcurrency));
}
