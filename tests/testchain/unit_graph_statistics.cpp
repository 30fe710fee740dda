// GraphStatistics on a hand-made graph whose figures are checked by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "pullsched/testchain/GraphStatistics.hpp"

using namespace pullsched::testchain;
using Cat = GraphStatistics::Category;
using std::chrono::microseconds;

namespace {

/// Level 0: N0 | 1: N1 N2 | 2: N3 N4 N5 | 3: N6 | 4: N7 (seed: new segment) | 5: N8
/// 0->1 0->2 1->3 1->4 2->4 2->5 3->6 7->8; weights 1 2 3 1 4 0 2 5 1
TestChainGraph handMade() {
    TestChainGraph g{9};
    const std::size_t level[] = {0, 1, 1, 2, 2, 2, 3, 4, 5};
    const std::size_t weight[] = {1, 2, 3, 1, 4, 0, 2, 5, 1};
    for (std::size_t i = 0; i < 9; ++i) {
        g.node(i).level = level[i];
        g.node(i).weight = weight[i];
    }
    g.link(0, 1);
    g.link(0, 2);
    g.link(1, 3);
    g.link(1, 4);
    g.link(2, 4);
    g.link(2, 5);
    g.link(3, 6);
    g.link(7, 8);
    return g;
}

constexpr double kTol = 1e-12;

}  // namespace

TEST(GraphStatistics, Structure) {
    const GraphStatistics s{handMade()};
    EXPECT_EQ(s.nodes(), 9u);
    EXPECT_EQ(s.levels(), 6u);
    EXPECT_EQ(s.segments(), 2u);
    EXPECT_EQ(s.maxSubLevel(), 3u);
    EXPECT_EQ(s.maxWidth(), 3u);
    EXPECT_EQ(s.edges(), 8u);
    EXPECT_DOUBLE_EQ(s.averageSegmentHeight(), 3.0);
    EXPECT_EQ(s.perLevel(Cat::Node), (std::vector<double>{1, 2, 3, 1, 1, 1}));
    EXPECT_EQ(s.perLevel(Cat::Seed), (std::vector<double>{1, 0, 0, 0, 1, 0}));
    EXPECT_EQ(s.perLevel(Cat::Exit), (std::vector<double>{0, 0, 2, 1, 0, 1}));
    EXPECT_EQ(s.perLevel(Cat::Inner), (std::vector<double>{0, 2, 1, 0, 0, 0}));
    EXPECT_EQ(s.perLevel(Cat::Fork), (std::vector<double>{1, 2, 0, 0, 0, 0}));
    EXPECT_EQ(s.perLevel(Cat::Join), (std::vector<double>{0, 0, 1, 0, 0, 0}));
    EXPECT_EQ(s.perLevel(Cat::Link), (std::vector<double>{0, 0, 1, 0, 0, 0}));
    EXPECT_EQ(s.perLevel(Cat::Knot), (std::vector<double>{0, 0, 0, 0, 0, 0}));
    EXPECT_EQ(s.perLevel(Cat::Weight), (std::vector<double>{1, 5, 5, 2, 5, 1}));
}

TEST(GraphStatistics, NodeIndicator) {
    const auto n = GraphStatistics{handMade()}.indicator(Cat::Node);
    EXPECT_EQ(n.cnt, 9);
    EXPECT_NEAR(n.frac, 1.0, kTol);
    EXPECT_NEAR(n.pS, 4.5, kTol);
    EXPECT_NEAR(n.pL, 1.5, kTol);
    EXPECT_NEAR(n.pLW, 1.0, kTol);
    EXPECT_NEAR(n.gL, 20.0 / 9 / 5, kTol);  // Σ level·k = 0+2+6+3+4+5
    EXPECT_NEAR(n.gLW, 15.0 / 6 / 5, kTol);
    EXPECT_NEAR(n.gSL, 12.0 / 9 / 3, kTol);  // sub-levels 0 1 2 3 0 1
    EXPECT_NEAR(n.gSLW, 7.0 / 6 / 3, kTol);
}

TEST(GraphStatistics, CategoryIndicators) {
    const GraphStatistics s{handMade()};
    const auto seed = s.indicator(Cat::Seed);
    EXPECT_EQ(seed.cnt, 2);
    EXPECT_NEAR(seed.frac, 2.0 / 9, kTol);
    EXPECT_NEAR(seed.pS, 1.0, kTol);
    EXPECT_NEAR(seed.pL, 1.0 / 3, kTol);
    EXPECT_NEAR(seed.pLW, 1.0 / 3, kTol);
    EXPECT_NEAR(seed.gL, 0.4, kTol);
    EXPECT_NEAR(seed.gLW, 0.4, kTol);
    EXPECT_NEAR(seed.gSL, 0.0, kTol);

    const auto exit = s.indicator(Cat::Exit);
    EXPECT_EQ(exit.cnt, 4);
    EXPECT_NEAR(exit.pS, 2.0, kTol);
    EXPECT_NEAR(exit.pLW, (2.0 / 3 + 1 + 1) / 6, kTol);
    EXPECT_NEAR(exit.gL, 12.0 / 4 / 5, kTol);
    EXPECT_NEAR(exit.gLW, (2 * 2.0 / 3 + 3 + 5) / (2.0 / 3 + 2) / 5, kTol);
    EXPECT_NEAR(exit.gSL, 8.0 / 4 / 3, kTol);
    EXPECT_NEAR(exit.gSLW, (2 * 2.0 / 3 + 3 + 1) / (2.0 / 3 + 2) / 3, kTol);

    const auto fork = s.indicator(Cat::Fork);
    EXPECT_NEAR(fork.pLW, 2.0 / 6, kTol);
    EXPECT_NEAR(fork.gL, 2.0 / 3 / 5, kTol);
    EXPECT_NEAR(fork.gLW, 0.1, kTol);

    const auto knot = s.indicator(Cat::Knot);
    EXPECT_EQ(knot.cnt, 0);
    EXPECT_EQ(knot.gL, 0.0);
    EXPECT_EQ(knot.gLW, 0.0);

    const auto w = s.indicator(Cat::Weight);
    EXPECT_EQ(w.cnt, 19);
    EXPECT_NEAR(w.frac, 19.0 / 9, kTol);
    EXPECT_NEAR(w.pS, 9.5, kTol);
    EXPECT_NEAR(w.pLW, (1 + 2.5 + 5.0 / 3 + 2 + 5 + 1) / 6, kTol);
    EXPECT_NEAR(w.gL, 46.0 / 19 / 5, kTol);
}

TEST(GraphStatistics, WorkCriticalPathAndLowerBound) {
    const GraphStatistics s{handMade()};
    EXPECT_EQ(s.totalWeight(), 19u);
    EXPECT_EQ(s.criticalPathWeight(), 8u);  // N0(1) -> N2(3) -> N4(4)
    const microseconds tb{100};
    EXPECT_EQ(s.work(tb), microseconds{1900});
    EXPECT_EQ(s.criticalPath(tb), microseconds{800});
    EXPECT_EQ(s.lowerBound(1, tb), microseconds{1900});
    EXPECT_EQ(s.lowerBound(2, tb), microseconds{950});
    EXPECT_EQ(s.lowerBound(4, tb), microseconds{800});  // path dominates

    // zero weight counted as one load: N5 weighs 1 now; the heaviest path stays 8
    const GraphStatistics u{handMade(), WeightPolicy::UnitIfZero};
    EXPECT_EQ(u.totalWeight(), 20u);
    EXPECT_EQ(u.criticalPathWeight(), 8u);
}

TEST(GraphStatistics, CriticalPathFollowsWeightsNotLength) {
    // long light chain 0-1-2-3 vs short heavy branch 0-4
    TestChainGraph g{5};
    g.link(0, 1);
    g.link(1, 2);
    g.link(2, 3);
    g.link(0, 4);
    const std::size_t w[] = {1, 1, 1, 1, 9};
    for (std::size_t i = 0; i < 5; ++i)
        g.node(i).weight = w[i];
    EXPECT_EQ(GraphStatistics{g}.criticalPathWeight(), 10u);
    g.node(4).weight = 2;
    EXPECT_EQ(GraphStatistics{g}.criticalPathWeight(), 4u);
}

TEST(GraphStatistics, SingleLevelIsGuarded) {
    TestChainGraph g{4};  // no topology: one level of 4 isolated nodes
    g.setWeight(2);
    const GraphStatistics s{g};
    EXPECT_EQ(s.levels(), 1u);
    EXPECT_EQ(s.segments(), 1u);
    EXPECT_EQ(s.maxWidth(), 4u);
    for (std::size_t c = 0; c < GraphStatistics::kCategories; ++c) {
        const auto& i = s.indicator(static_cast<Cat>(c));
        EXPECT_FALSE(std::isnan(i.gL) || std::isnan(i.gLW) || std::isnan(i.gSL) ||
                     std::isnan(i.gSLW));
        EXPECT_EQ(i.gL, 0.0);
        EXPECT_EQ(i.gSLW, 0.0);
    }
    EXPECT_EQ(s.indicator(Cat::Node).pL, 4.0);
    EXPECT_EQ(s.indicator(Cat::Node).pLW, 1.0);
    EXPECT_EQ(s.indicator(Cat::Exit).cnt, 4.0);
    EXPECT_EQ(s.criticalPathWeight(), 2u);
    EXPECT_EQ(s.lowerBound(2, microseconds{10}), microseconds{40});
}

TEST(GraphStatistics, PrintShowsTable) {
    std::ostringstream os;
    GraphStatistics{handMade()}.print(os, microseconds{500});
    const std::string out = os.str();
    for (const char* needle : {"cnt", "frac", "∅pS", "γLW⬙", "node", "seed", "exit", "innr", "fork",
                               "join", "link", "knot", "wght", "LEVL", "SEGS", "critical path 8"})
        EXPECT_NE(out.find(needle), std::string::npos) << needle << "\n" << out;
    EXPECT_NE(out.find("wght        19   2.111"), std::string::npos) << out;
}
