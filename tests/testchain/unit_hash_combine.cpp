// hashCombine and the node's hash / kind semantics (spec §1).
#include <gtest/gtest.h>

#include <vector>

#include "pullsched/testchain/HashCombine.hpp"
#include "pullsched/testchain/TestChainGraph.hpp"

using namespace pullsched::testchain;

TEST(HashCombine, ReferenceValue) {
    EXPECT_EQ(hashCombine(hashCombine(0, 23), 55), 0x53F8F4753B85558AULL);
    static_assert(hashCombine(0, 0) == 0xe6546b64ULL, "usable at compile time");
}

TEST(HashCombine, OrderMatters) {
    EXPECT_NE(hashCombine(hashCombine(0, 23), 55), hashCombine(hashCombine(0, 55), 23));
}

TEST(Node, CalculateFoldsPredecessorsInOrderAndIsNotIdempotent) {
    TestChainGraph g{4};
    g.link(0, 2);
    g.link(1, 2);
    g.node(0).hash = 23;
    g.node(1).hash = 55;
    Node& n = g.node(2);
    n.calculate(g.nodes());
    EXPECT_EQ(n.hash, 0x53F8F4753B85558AULL);
    n.calculate(g.nodes());
    EXPECT_EQ(n.hash, hashCombine(hashCombine(0x53F8F4753B85558AULL, 23), 55));

    // a start node keeps its value
    g.node(3).hash = 77;
    g.node(3).calculate(g.nodes());
    EXPECT_EQ(g.node(3).hash, 77u);
}

TEST(Node, Kinds) {
    // 0 -> 1 -> 3, 0 -> 2 -> 3, 2 -> 4, 3 -> 5, 4 -> 5
    TestChainGraph g{6};
    g.link(0, 1);
    g.link(0, 2);
    g.link(1, 3);
    g.link(2, 3);
    g.link(2, 4);
    g.link(3, 5);
    g.link(4, 5);
    const Node& n0 = g.node(0);
    EXPECT_TRUE(n0.isStart());
    EXPECT_TRUE(n0.isFork());
    EXPECT_FALSE(n0.isInner());
    EXPECT_FALSE(n0.isLink());
    const Node& n1 = g.node(1);
    EXPECT_TRUE(n1.isLink());
    EXPECT_TRUE(n1.isInner());
    EXPECT_FALSE(n1.isFork());
    EXPECT_FALSE(n1.isJoin());
    const Node& n2 = g.node(2);
    EXPECT_TRUE(n2.isFork());
    EXPECT_FALSE(n2.isKnot());
    const Node& n3 = g.node(3);
    EXPECT_TRUE(n3.isJoin());
    EXPECT_FALSE(n3.isKnot());
    EXPECT_FALSE(n3.isLink());
    const Node& n5 = g.node(5);
    EXPECT_TRUE(n5.isExit());
    EXPECT_TRUE(n5.isJoin());
    EXPECT_FALSE(n5.isInner());
    EXPECT_TRUE(n5.is(NodeKind::Exit));
    EXPECT_FALSE(n5.is(NodeKind::Start));

    // successor and predecessor lists keep link order
    EXPECT_EQ((std::vector<std::uint32_t>{n0.successors().begin(), n0.successors().end()}),
              (std::vector<std::uint32_t>{1, 2}));
    EXPECT_EQ((std::vector<std::uint32_t>{n3.predecessors().begin(), n3.predecessors().end()}),
              (std::vector<std::uint32_t>{1, 2}));
}

TEST(Node, KnotIsForkAndJoin) {
    TestChainGraph g{5};
    g.link(0, 2);
    g.link(1, 2);
    g.link(2, 3);
    g.link(2, 4);
    EXPECT_TRUE(g.node(2).isKnot());
    EXPECT_EQ(g.count(NodeKind::Knot), 1u);
    EXPECT_EQ(g.count(NodeKind::Start), 2u);
    EXPECT_EQ(g.count(NodeKind::Exit), 2u);
}
