// Reference graphs of the spec (§3.1): our generator must reproduce them bit for bit.
#include <gtest/gtest.h>

#include <vector>

#include "pullsched/testchain/GraphStatistics.hpp"
#include "pullsched/testchain/Presets.hpp"
#include "pullsched/testchain/TestChainGraph.hpp"

using namespace pullsched::testchain;

TEST(ReferenceGraphs, DefaultRulesGiveAPlainChainOf32) {
    TestChainGraph g{32};
    g.buildTopology(RuleSet{});
    EXPECT_EQ(g.levels(), 32u);
    EXPECT_EQ(g.edgeCount(), 31u);
    EXPECT_EQ(g.graphHash(), 0xB3445F1240A1B05FULL);
    EXPECT_EQ(g.node(31).hash, 0x5CDF544B70E59866ULL);
    for (std::size_t i = 1; i < 32; ++i) {
        ASSERT_EQ(g.node(i).predecessors().size(), 1u);
        EXPECT_EQ(g.node(i).predecessors()[0], i - 1);
    }
}

TEST(ReferenceGraphs, ExpansionP04Max2) {
    RuleSet rules;
    rules.expansion.probability(0.4).maxVal(2);
    TestChainGraph g{32};
    g.buildTopology(rules);
    EXPECT_EQ(g.graphHash(), 0x6EDD7B92F12E9A37ULL);
    EXPECT_EQ(g.levels(), 11u);
    EXPECT_EQ(g.count(NodeKind::Fork), 4u);
    EXPECT_EQ(g.startCount(), 1u);
    EXPECT_EQ(g.exitCount(), 1u);
}

TEST(ReferenceGraphs, BurstPreset64IsTopo10) {
    const TestChainGraph g = TestChainGraph::generate(preset("burst"), 64);
    EXPECT_EQ(g.graphHash(), 0x258C8DEF5E0791BFULL);
    EXPECT_EQ(g.levels(), 26u);
    EXPECT_EQ(g.edgeCount(), 84u);
    EXPECT_EQ(g.weightSum(), 66u);
    const std::vector<std::size_t> widths{1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2,  2,
                                          2, 2, 1, 1, 1, 5, 5, 2, 3, 6, 6, 10, 3};
    EXPECT_EQ(g.levelWidths(), widths);
}
