// The rule draw and builder semantics (spec §2).
#include <gtest/gtest.h>

#include <map>

#include "pullsched/testchain/Rule.hpp"
#include "pullsched/testchain/TestChainGraph.hpp"

using namespace pullsched::testchain;

namespace {

/// Value histogram of a rule over all Q residues (one draw per residue as node hash).
std::map<std::size_t, int> distribution(Rule rule) {
    std::map<std::size_t, int> hist;
    TestChainGraph g{2, rule.maxFan()};
    const std::uint64_t q = Rule::quantiser(rule.maxFan());
    for (std::uint64_t h = 0; h < q; ++h) {
        g.node(0).hash = h;
        ++hist[rule.draw(g.node(0))];
    }
    return hist;
}

}  // namespace

TEST(Rule, Quantiser) {
    EXPECT_EQ(Rule::quantiser(16), 256u);
    EXPECT_EQ(Rule::quantiser(8), 128u);
    EXPECT_EQ(Rule::quantiser(12), 128u);
    EXPECT_EQ(Rule::quantiser(1), 16u);
}

TEST(Rule, ReferenceDistributionExpansion) {
    Rule r{16};
    r.probability(0.27).maxVal(4);
    EXPECT_EQ(distribution(r),
              (std::map<std::size_t, int>{{0, 187}, {1, 18}, {2, 17}, {3, 17}, {4, 17}}));
}

TEST(Rule, ReferenceDistributionReduction) {
    Rule r{16};
    r.probability(0.44).minVal(2).maxVal(6);
    EXPECT_EQ(distribution(r),
              (std::map<std::size_t, int>{{0, 144}, {2, 22}, {3, 23}, {4, 22}, {5, 23}, {6, 22}}));
}

TEST(Rule, ReferenceDistributionWeight) {
    Rule r{16};
    r.probability(0.66).maxVal(3);
    EXPECT_EQ(distribution(r), (std::map<std::size_t, int>{{0, 88}, {1, 56}, {2, 56}, {3, 56}}));
}

TEST(Rule, DefaultRuleAlwaysZero) {
    EXPECT_EQ(distribution(Rule{16}), (std::map<std::size_t, int>{{0, 256}}));
    EXPECT_TRUE(Rule{16}.isNeutral());
}

TEST(Rule, ProbabilityWithoutMaxDrawsUpToMaxFan) {
    Rule r{8};
    r.probability(1.0);
    const auto hist = distribution(r);
    EXPECT_EQ(hist.begin()->first, 1u);
    EXPECT_EQ(hist.rbegin()->first, 8u);
    EXPECT_EQ(hist.size(), 8u);
    for (const auto& [v, n] : hist)
        EXPECT_EQ(n, 16) << "value " << v;
}

TEST(Rule, DrawFromHashUsesOnlyTheResidue) {
    Rule r{16};
    r.probability(1.0).minVal(2).maxVal(6);
    EXPECT_EQ(r.drawFromHash(0), 2u);
    EXPECT_EQ(r.drawFromHash(255), 6u);
    EXPECT_EQ(r.drawFromHash(256), 2u);  // 256 mod Q = 0
    EXPECT_EQ(r.drawFromHash(0xFFFFFFFFFFFFFF00ULL + 255), 6u);
}

TEST(Rule, BuilderSemantics) {
    Rule r{16};
    EXPECT_EQ(r.minValue(), 0u);
    EXPECT_EQ(r.maxValue(), 16u);
    r.maxVal(20);
    EXPECT_EQ(r.maxValue(), 16u);  // limited to maxFan
    r.minVal(5).maxVal(3);         // min >= max: min = m - 1
    EXPECT_EQ(r.minValue(), 2u);
    EXPECT_EQ(r.maxValue(), 3u);
    r.minVal(6);  // max <= min: max = m + 1
    EXPECT_EQ(r.minValue(), 6u);
    EXPECT_EQ(r.maxValue(), 7u);
    r.minVal(4);  // max stays when above
    EXPECT_EQ(r.maxValue(), 7u);

    r.probability(1.5);
    EXPECT_EQ(r.probabilityValue(), 1.0);
    r.probability(-0.5);
    EXPECT_EQ(r.probabilityValue(), 0.0);

    Rule top{16};
    top.probability(1.0).minVal(16);  // max becomes 17, the draw is clamped to maxFan
    EXPECT_EQ(top.maxValue(), 17u);
    EXPECT_EQ(top.drawFromHash(255), 16u);
}

TEST(Rule, FixedValueIgnoresProbability) {
    Rule r{16};
    r.fixedVal(3);
    EXPECT_EQ(r.mode(), Rule::Mode::Fixed);
    EXPECT_EQ(distribution(r), (std::map<std::size_t, int>{{3, 256}}));
    Rule big{8};
    big.value(12);
    EXPECT_EQ(distribution(big), (std::map<std::size_t, int>{{8, 128}}));  // clamped
}

TEST(Rule, DynamicRulesByNodeKind) {
    TestChainGraph g{3};
    g.link(0, 1);
    g.link(0, 2);
    g.link(1, 2);  // 0 start, 1 one predecessor, 2 join
    Rule start{16};
    start.atStart(2);
    Rule join{16};
    join.atJoin(3);
    Rule link{16};
    link.atLink(1);
    EXPECT_EQ(start.draw(g.node(0)), 2u);
    EXPECT_EQ(start.draw(g.node(1)), 0u);
    EXPECT_EQ(start.draw(g.node(2)), 0u);
    EXPECT_EQ(join.draw(g.node(0)), 0u);
    EXPECT_EQ(join.draw(g.node(1)), 0u);
    EXPECT_EQ(join.draw(g.node(2)), 3u);
    EXPECT_EQ(link.draw(g.node(0)), 0u);
    EXPECT_EQ(link.draw(g.node(1)), 1u);
    EXPECT_EQ(link.draw(g.node(2)), 0u);
}

TEST(Rule, ShuffleMultipliesByAnAdvancingCounter) {
    TestChainGraph g{2};
    g.node(0).hash = 0x1234567;
    Rule r{16};
    r.probability(0.5).maxVal(4).shuffle();
    EXPECT_EQ(r.shuffleSeed(), 55u);
    EXPECT_EQ(r.counter(), 55u);
    const std::uint64_t h = g.node(0).hash;
    for (std::uint64_t c = 55; c < 55 + 300; ++c) {
        ASSERT_EQ(r.draw(g.node(0)), r.drawFromHash(h * c)) << "counter " << c;
    }
    EXPECT_EQ(r.counter(), 355u);
    r.resetCounter();
    EXPECT_EQ(r.counter(), 55u);
}

TEST(Rule, ShuffleCounterAdvancesOnZeroDraws) {
    TestChainGraph g{2};
    Rule r{16};
    r.shuffle(7);  // p = 0: always 0, but every draw still counts
    EXPECT_EQ(r.draw(g.node(0)), 0u);
    EXPECT_EQ(r.draw(g.node(0)), 0u);
    EXPECT_EQ(r.counter(), 9u);
}

TEST(Rule, EqualityIgnoresCounter) {
    Rule a{16};
    a.probability(0.3).shuffle();
    Rule b = a;
    TestChainGraph g{2};
    b.draw(g.node(0));
    EXPECT_EQ(a, b);
    b.maxVal(3);
    EXPECT_NE(a, b);
    EXPECT_NE(Rule{16}, Rule{8});
}

TEST(Rule, InvalidMaxFan) {
    EXPECT_THROW(Rule{0}, std::invalid_argument);
    EXPECT_THROW(Rule{17}, std::invalid_argument);
}
