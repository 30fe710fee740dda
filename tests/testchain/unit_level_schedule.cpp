// Schedule math on a hand-made graph (spec §7).
#include <gtest/gtest.h>

#include "pullsched/testchain/LevelSchedule.hpp"

using namespace pullsched::testchain;
using namespace std::chrono_literals;

namespace {

/// Levels 0:[N0] 1:[N1 N2] 2:[N3 N4 N5] 3:[N6] 4:[N7] 5:[N8], weights 1 2 3 1 4 0 2 5 1.
TestChainGraph handMade() {
    TestChainGraph g{9};
    const std::size_t level[] = {0, 1, 1, 2, 2, 2, 3, 4, 5};
    const std::size_t weight[] = {1, 2, 3, 1, 4, 0, 2, 5, 1};
    for (std::size_t i = 0; i < 9; ++i) {
        g.node(i).level = level[i];
        g.node(i).weight = weight[i];
    }
    return g;
}

}  // namespace

TEST(LevelSchedule, SpeedUp) {
    EXPECT_DOUBLE_EQ(LevelSchedule::speedUp(0, 4), 1.0);
    EXPECT_DOUBLE_EQ(LevelSchedule::speedUp(1, 4), 1.0);
    EXPECT_DOUBLE_EQ(LevelSchedule::speedUp(3, 4), 3.0);
    EXPECT_DOUBLE_EQ(LevelSchedule::speedUp(4, 4), 4.0);
    EXPECT_DOUBLE_EQ(LevelSchedule::speedUp(5, 4), 2.5);
    EXPECT_DOUBLE_EQ(LevelSchedule::speedUp(10, 4), 10.0 / 3);
    EXPECT_DOUBLE_EQ(LevelSchedule::speedUp(3, 2), 1.5);
    EXPECT_DOUBLE_EQ(LevelSchedule::levelFactor({0, 5, 10}, 4), 4.0);
}

TEST(LevelSchedule, LevelWeightsAndSequence) {
    const LevelSchedule s{handMade()};
    const auto& lw = s.levelWeights();
    ASSERT_EQ(lw.size(), 6u);
    EXPECT_EQ(lw[1].nodes, 2u);
    EXPECT_EQ(lw[1].weight, 5u);
    EXPECT_EQ(lw[2].nodes, 3u);
    EXPECT_EQ(lw[2].weight, 5u);
    const auto seq = s.sequence(2);  // factors 1, 2.5, 10/3, 2, 5, 1
    const std::vector<double> expected{
        1, 3.5, 3.5 + 10.0 / 3, 5.5 + 10.0 / 3, 10.5 + 10.0 / 3, 11.5 + 10.0 / 3};
    ASSERT_EQ(seq.size(), expected.size());
    for (std::size_t i = 0; i < seq.size(); ++i)
        EXPECT_NEAR(seq[i], expected[i], 1e-12) << i;

    const LevelSchedule unit{handMade(), WeightPolicy::UnitIfZero};
    EXPECT_EQ(unit.levelWeights()[2].weight, 6u);  // N5 counts as one load
}

TEST(LevelSchedule, DefaultSchedule) {
    LevelSchedule s{handMade()};
    EXPECT_EQ(s.points().size(), 7u);
    EXPECT_EQ(s.levelStart(0), 0ms);
    EXPECT_EQ(s.levelStart(5), 5ms);
    EXPECT_EQ(s.nodeStart(4), 2ms);
    EXPECT_EQ(s.nodeDeadline(4), 32ms);
    EXPECT_EQ(s.expectedEnd(), 6ms);
    s.useDefault(250us);
    EXPECT_EQ(s.nodeStart(8), 1250us);
}

TEST(LevelSchedule, AdaptedSchedule) {
    LevelSchedule s{handMade()};
    s.adapt(2.0, 2, 1ms).baseExpense(10us).lifeWindow(5ms);
    ASSERT_EQ(s.points().size(), 7u);
    EXPECT_EQ(s.points()[0], 0ns);
    EXPECT_EQ(s.points()[1], 500us);
    EXPECT_EQ(s.points()[2], 1750us);
    EXPECT_EQ(s.points()[3], 3416667ns);  // (3.5 + 10/3) / 2 ms, rounded
    EXPECT_EQ(s.points()[6], 7416667ns);
    EXPECT_EQ(s.nodeStart(4), 1750us + 20us);  // + 10 µs × 4 / 2
    EXPECT_EQ(s.nodeDeadline(4), 1770us + 5ms);
    EXPECT_EQ(s.nodeStart(0), 0ns);
    EXPECT_EQ(s.expectedEnd(), 7416667ns + 45us);  // + 10 µs × 9 / 2
    EXPECT_THROW(s.adapt(0.0, 2, 1ms), std::invalid_argument);
    EXPECT_THROW(s.adapt(1.0, 0, 1ms), std::invalid_argument);
}

TEST(LevelSchedule, StressScalesInversely) {
    LevelSchedule s{handMade()};
    const auto at1 = s.adapt(1.0, 4, 1ms).expectedEnd();
    const auto at2 = s.adapt(2.0, 4, 1ms).expectedEnd();
    const auto atHalf = s.adapt(0.5, 4, 1ms).expectedEnd();
    EXPECT_NEAR(static_cast<double>(at1.count()), 2.0 * static_cast<double>(at2.count()), 1.0);
    EXPECT_NEAR(static_cast<double>(atHalf.count()), 2.0 * static_cast<double>(at1.count()), 1.0);
}

TEST(LevelSchedule, DecreasingLevelsRejected) {
    TestChainGraph g{3};
    g.node(1).level = 2;
    g.node(2).level = 1;
    EXPECT_THROW(LevelSchedule{g}, std::invalid_argument);
}
