#include <gtest/gtest.h>

#include "load/SyntheticGraphs.hpp"
#include "pullsched/testchain/GraphStatistics.hpp"
#include "pullsched/testchain/LevelSchedule.hpp"

using namespace pullsched::rig;
using namespace pullsched::testchain;

TEST(SyntheticGraphs, IsolatedNodesHaveNoEdgesAndAreAllStartAndExit) {
    const TestChainGraph g = isolatedGraph(100, 3);
    EXPECT_EQ(g.size(), 100u);
    EXPECT_EQ(g.edgeCount(), 0u);
    EXPECT_EQ(g.startCount(), 100u);
    EXPECT_EQ(g.exitCount(), 100u);
    EXPECT_EQ(g.levels(), 1u);
    EXPECT_EQ(g.weightSum(), 300u);
    EXPECT_EQ(g.seed(), kSyntheticGraphSeed);
    EXPECT_NE(g.graphHash(), 0u);
}

TEST(SyntheticGraphs, ChainLinksEachNodeToItsPredecessor) {
    const TestChainGraph g = chainGraph(50);
    EXPECT_EQ(g.edgeCount(), 49u);
    EXPECT_EQ(g.startCount(), 1u);
    EXPECT_EQ(g.exitCount(), 1u);
    EXPECT_EQ(g.levels(), 50u);
    for (std::size_t i = 1; i < 50; ++i) {
        ASSERT_EQ(g.node(i).predecessors().size(), 1u);
        EXPECT_EQ(g.node(i).predecessors()[0], i - 1);
        EXPECT_EQ(g.node(i).level, i);
    }
    const GraphStatistics stats(g);
    EXPECT_EQ(stats.criticalPathWeight(), 50u);
}

TEST(SyntheticGraphs, GridDependsOnLeftAndUpperNeighbour) {
    const std::size_t w = 5, h = 3;
    TestChainGraph g = gridGraph(w, h, 2);
    EXPECT_EQ(g.size(), w * h);
    EXPECT_EQ(g.edgeCount(), (w - 1) * h + w * (h - 1));
    EXPECT_EQ(g.startCount(), 1u);  // the corner (0, 0)
    EXPECT_EQ(g.exitCount(), 1u);   // the corner (w-1, h-1)
    EXPECT_EQ(g.levels(), w + h - 1);
    // Levels never decrease by index (a LevelSchedule accepts it), and every edge joins
    // neighbouring diagonals.
    EXPECT_NO_THROW(LevelSchedule(g, WeightPolicy::Raw));
    std::size_t joins = 0;
    for (std::size_t i = 0; i < g.size(); ++i) {
        for (auto p : g.node(i).predecessors()) {
            EXPECT_LT(p, i);
            EXPECT_EQ(g.node(p).level + 1, g.node(i).level);
        }
        if (g.node(i).predecessors().size() == 2) ++joins;
    }
    EXPECT_EQ(joins, (w - 1) * (h - 1));  // every inner cell has both neighbours
    // Critical path: w + h - 1 cells of weight 2.
    const GraphStatistics stats(g);
    EXPECT_EQ(stats.criticalPathWeight(), 2 * (w + h - 1));
    // Wavefront widths: 1, 2, 3, 3, 3, 2, 1.
    const std::vector<std::size_t> widths{1, 2, 3, 3, 3, 2, 1};
    EXPECT_EQ(g.levelWidths(), widths);
}

TEST(SyntheticGraphs, GridHashDependsOnEveryEdge) {
    TestChainGraph a = gridGraph(4, 4);
    a.recalculate();
    TestChainGraph b = gridGraph(4, 4);
    b.recalculate();
    EXPECT_EQ(a.graphHash(), b.graphHash());
    TestChainGraph c = gridGraph(4, 4);
    c.clearNodeHashes();
    for (std::size_t i = 0; i < c.size(); ++i)
        if (i != 5) c.node(i).calculate(c.nodes());  // skip one inner node
    EXPECT_NE(c.graphHash(), a.graphHash());
}

TEST(SyntheticGraphs, RejectsEmptyGrid) {
    EXPECT_THROW(gridGraph(0, 4), std::invalid_argument);
    EXPECT_THROW(isolatedGraph(1), std::invalid_argument);
}
