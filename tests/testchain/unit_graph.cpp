// TestChainGraph operations: construction, linking, seeds, hashes, rebuilding.
#include <gtest/gtest.h>

#include "pullsched/testchain/ComputationalLoad.hpp"
#include "pullsched/testchain/Presets.hpp"
#include "pullsched/testchain/TestChainGraph.hpp"

using namespace pullsched::testchain;

TEST(TestChainGraph, Construction) {
    EXPECT_THROW(TestChainGraph{1}, std::invalid_argument);
    EXPECT_THROW(TestChainGraph{0}, std::invalid_argument);
    EXPECT_THROW((TestChainGraph{8, 0}), std::invalid_argument);
    EXPECT_THROW((TestChainGraph{8, 17}), std::invalid_argument);
    const TestChainGraph g;
    EXPECT_EQ(g.size(), 256u);
    EXPECT_EQ(g.maxFan(), 16u);
    EXPECT_EQ(g.levels(), 1u);  // no topology: every node on level 0
    EXPECT_EQ(g.edgeCount(), 0u);
    EXPECT_EQ(g.graphHash(), 0u);  // all hashes 0: nothing folded
}

TEST(TestChainGraph, LinkChecks) {
    TestChainGraph g{20};
    EXPECT_THROW(g.link(3, 3), std::invalid_argument);
    EXPECT_THROW(g.link(4, 3), std::invalid_argument);
    EXPECT_THROW(g.link(3, 20), std::invalid_argument);
    for (std::size_t i = 1; i <= 16; ++i)
        g.link(0, i);
    EXPECT_THROW(g.link(0, 17), std::invalid_argument);
    EXPECT_EQ(g.node(0).successors().size(), 16u);
    EXPECT_EQ(g.edgeCount(), 16u);
}

TEST(TestChainGraph, SeedWeightAndClear) {
    TestChainGraph g{8};
    g.buildTopology(RuleSet{});
    g.setSeed(99).setWeight(3);
    EXPECT_EQ(g.seed(), 99u);
    EXPECT_EQ(g.weightSum(), 24u);
    g.node(5).hash = 1234;
    g.clearNodeHashes();
    EXPECT_EQ(g.node(0).hash, 99u);
    for (std::size_t i = 1; i < 8; ++i)
        EXPECT_EQ(g.node(i).hash, 0u);
    g.recalculate();
    std::uint64_t h = 99;
    for (std::size_t i = 1; i < 8; ++i) {
        h = hashCombine(0, h);
        EXPECT_EQ(g.node(i).hash, h);
    }
    EXPECT_EQ(g.graphHash(), hashCombine(0, h));
}

TEST(TestChainGraph, SeedChangesEverything) {
    RuleSet rules;
    rules.expansion.probability(0.4).maxVal(2);
    TestChainGraph a{32};
    a.buildTopology(rules);
    TestChainGraph b{32};
    b.setSeed(1).buildTopology(rules);
    EXPECT_NE(a.graphHash(), b.graphHash());
    // the rules' seed overrides the graph's one
    rules.seed = 0;
    b.buildTopology(rules);
    EXPECT_EQ(b.graphHash(), a.graphHash());
}

TEST(TestChainGraph, RecalculateReproducesTheHash) {
    TestChainGraph g = TestChainGraph::generate(preset("burst"), 64);
    const std::uint64_t h = g.graphHash();
    const std::uint64_t last = g.node(63).hash;
    g.node(30).hash ^= 1;  // disturb
    g.node(63).hash = 0;
    EXPECT_NE(g.graphHash(), h);
    g.recalculate();
    EXPECT_EQ(g.graphHash(), h);
    EXPECT_EQ(g.node(63).hash, last);
    // calculating twice is not idempotent: detectable
    g.node(63).calculate(g.nodes());
    EXPECT_NE(g.graphHash(), h);
}

TEST(TestChainGraph, RebuildIsDeterministicWithShuffle) {
    RuleSet rules = preset("chains");
    rules.pruning.shuffle();
    rules.seeding.shuffle(3);
    const RuleSet copy = rules;
    TestChainGraph g{128, 8};
    g.buildTopology(rules);
    const std::uint64_t h = g.graphHash();
    const auto widths = g.levelWidths();
    EXPECT_EQ(rules.pruning.counter(), 55u);  // the caller's rules are not advanced
    EXPECT_EQ(rules, copy);
    for (int i = 0; i < 5; ++i) {  // advance the caller's counters: must not matter
        rules.pruning.draw(g.node(1));
        rules.seeding.draw(g.node(1));
    }
    ASSERT_EQ(rules.pruning.counter(), 60u);
    g.buildTopology(rules);  // counters restart at every build
    EXPECT_EQ(g.graphHash(), h);
    EXPECT_EQ(g.levelWidths(), widths);
    // and shuffling really changes the graph
    EXPECT_NE(TestChainGraph::generate(preset("chains"), 128).graphHash(), h);
}

TEST(TestChainGraph, RebuildAfterOtherTopology) {
    TestChainGraph g{64};
    g.buildTopology(preset("chains2"));
    g.buildTopology(preset("burst"));
    EXPECT_EQ(g.graphHash(), 0x258C8DEF5E0791BFULL);
    EXPECT_EQ(g.edgeCount(), 84u);
}

TEST(TestChainGraph, MaxFanMismatchRejected) {
    TestChainGraph g{64, 16};
    EXPECT_THROW(g.buildTopology(preset("stationary")), std::invalid_argument);
}

TEST(TestChainGraph, PerformSynchronouslyGivesTheGraphHash) {
    ComputationalLoad load;
    load.setCalibration({.speed = 1.0});  // 1 step per µs: trivial work, no timing
    for (const char* name : {"burst", "stationary"}) {
        TestChainGraph g = TestChainGraph::generate(preset(name), 64);
        const std::uint64_t h = g.recalculate().graphHash();
        for (std::size_t i = 1; i < g.size(); ++i)
            g.node(i).hash = 0xDEAD;  // stale run
        EXPECT_EQ(g.performGraphSynchronously(std::chrono::microseconds{1}, load,
                                              WeightPolicy::UnitIfZero),
                  h)
            << name;
    }
    TestChainGraph g{8};
    ComputationalLoad uncalibrated;
    g.setWeight(1);
    EXPECT_THROW(g.performGraphSynchronously(std::chrono::microseconds{1}, uncalibrated),
                 std::logic_error);
}

TEST(TestChainGraph, GenerationPollsItsStopPredicate) {
    // Polled at the start and every kStopCheckNodes nodes: a stop on the second poll
    // ends a graph larger than that before it is complete.
    int polls = 0;
    const StopPredicate secondPoll = [&polls] { return ++polls >= 2; };
    EXPECT_THROW(
        TestChainGraph::generate(RuleSet{}, 3 * TestChainGraph::kStopCheckNodes, secondPoll),
        Stopped);
    EXPECT_EQ(polls, 2);
    polls = 0;
    const StopPredicate never = [&polls] { return ++polls < 0; };
    const TestChainGraph g =
        TestChainGraph::generate(RuleSet{}, 3 * TestChainGraph::kStopCheckNodes, never);
    EXPECT_GE(polls, 3);  // at the start and after each kStopCheckNodes
    EXPECT_EQ(g.graphHash(),
              TestChainGraph::generate(RuleSet{}, 3 * TestChainGraph::kStopCheckNodes).graphHash());
}
