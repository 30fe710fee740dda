// Reference schedule of the chain with load bursts, 64 nodes, concurrency 4 (spec §7).
#include <gtest/gtest.h>

#include "pullsched/testchain/LevelSchedule.hpp"
#include "pullsched/testchain/Presets.hpp"

using namespace pullsched::testchain;
using namespace std::chrono_literals;

namespace {
double ms(Duration d) {
    return std::chrono::duration<double, std::milli>(d).count();
}
}  // namespace

TEST(BurstSchedule, LevelTable) {
    const LevelSchedule s{TestChainGraph::generate(preset("burst"), 64)};
    const std::vector<std::pair<std::size_t, std::size_t>> expected{
        {1, 0}, {1, 0},  {1, 2}, {1, 0}, {1, 0}, {1, 0}, {1, 1},  {1, 2}, {1, 2},
        {2, 2}, {2, 0},  {2, 0}, {2, 2}, {2, 2}, {2, 4}, {1, 0},  {1, 1}, {1, 3},
        {5, 0}, {5, 10}, {2, 5}, {3, 5}, {6, 6}, {6, 6}, {10, 9}, {3, 4}};
    const auto& lw = s.levelWeights();
    ASSERT_EQ(lw.size(), expected.size());
    for (std::size_t l = 0; l < lw.size(); ++l) {
        EXPECT_EQ(lw[l].level, l);
        EXPECT_EQ(lw[l].nodes, expected[l].first) << "level " << l;
        EXPECT_EQ(lw[l].weight, expected[l].second) << "level " << l;
    }
}

TEST(BurstSchedule, RunningSequenceConcurrency4) {
    const LevelSchedule s{TestChainGraph::generate(preset("burst"), 64)};
    const std::vector<double> expected{0,  0,  2,    2,      2,      2,      3,      5,   7,
                                       8,  8,  8,    9,      10,     12,     12,     13,  16,
                                       16, 20, 22.5, 24.167, 26.167, 28.167, 30.867, 32.2};
    const auto seq = s.sequence(4);
    ASSERT_EQ(seq.size(), expected.size());
    for (std::size_t i = 0; i < seq.size(); ++i)
        EXPECT_NEAR(seq[i], expected[i], 1e-3) << i;
}

TEST(BurstSchedule, NominalSchedule) {
    LevelSchedule s{TestChainGraph::generate(preset("burst"), 64)};
    s.adapt(1.0, 4, 500us);
    EXPECT_NEAR(ms(s.expectedEnd()), 16.1, 1e-3);
    EXPECT_EQ(s.levelStart(0), 0ns);
    EXPECT_EQ(s.levelStart(3), 1ms);  // after level 2's two loads
    EXPECT_NEAR(ms(s.levelStart(25)), 30.867 / 2, 1e-3);
}
