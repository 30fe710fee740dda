// idealRun: the simulated zero-overhead run, on hand-made graphs worked out by hand and
// cross-checked against simpler computations on a preset graph.
#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <utility>
#include <vector>

#include "pullsched/testchain/GraphStatistics.hpp"
#include "pullsched/testchain/IdealRun.hpp"
#include "pullsched/testchain/Presets.hpp"

using namespace pullsched::testchain;
using namespace std::chrono_literals;

namespace {

constexpr Duration kUnit = 1ms;  // time base: weight 1 = 1 ms

/// Nodes with the given (level, weight), linked by `links`.
TestChainGraph graphOf(std::initializer_list<std::pair<std::size_t, std::size_t>> nodes,
                       std::initializer_list<std::pair<std::size_t, std::size_t>> links = {}) {
    TestChainGraph g{nodes.size()};
    std::size_t i = 0;
    for (const auto& [level, weight] : nodes) {
        g.node(i).level = level;
        g.node(i).weight = weight;
        ++i;
    }
    for (const auto& [from, to] : links)
        g.link(from, to);
    return g;
}

/// Level l starts at l ms (the default schedule).
LevelSchedule levelsOneMsApart(const TestChainGraph& g) {
    return LevelSchedule(g);
}

}  // namespace

TEST(IdealRun, ThreeEqualJobsOnTwoWorkersCannotReachTheLowerBound) {
    const TestChainGraph g = graphOf({{0, 1}, {0, 1}, {0, 1}});
    const LevelSchedule s = levelsOneMsApart(g);
    EXPECT_EQ(idealRun(g, s, WeightPolicy::Raw, 2, kUnit).end, 2ms);
    // the bound the breaking-point mode also reports: max(3 / 2, 1) ms
    EXPECT_EQ(GraphStatistics(g).lowerBound(2, kUnit), 1500us);
    EXPECT_EQ(idealRun(g, s, WeightPolicy::Raw, 3, kUnit).end, 1ms);
    EXPECT_EQ(idealRun(g, s, WeightPolicy::Raw, 1, kUnit).end, 3ms);
}

TEST(IdealRun, AJobWaitsForItsStartAndItsPredecessors) {
    // chain 0 -> 1 -> 2 on levels 0, 1, 2 with weights 1, 2, 3: node 2 is due at 2 ms
    // but its predecessor ends at 3 ms; a lone node on level 5 starts at 5 ms.
    const TestChainGraph chain = graphOf({{0, 1}, {1, 2}, {2, 3}}, {{0, 1}, {1, 2}});
    EXPECT_EQ(idealRun(chain, levelsOneMsApart(chain), WeightPolicy::Raw, 2, kUnit).end, 6ms);
    const TestChainGraph late = graphOf({{0, 1}, {5, 1}});
    EXPECT_EQ(idealRun(late, levelsOneMsApart(late), WeightPolicy::Raw, 2, kUnit).end, 6ms);
}

TEST(IdealRun, ReleasedJobsStartOnEveryFreeWorker) {
    // node 0 (1 ms) releases 1 and 2 at 1 ms: both workers take one, the idle one included
    const TestChainGraph g = graphOf({{0, 1}, {1, 1}, {1, 1}, {3, 1}}, {{0, 1}, {0, 2}});
    EXPECT_EQ(idealRun(g, levelsOneMsApart(g), WeightPolicy::Raw, 2, kUnit).end, 4ms);
    const TestChainGraph wide =
        graphOf({{0, 2}, {0, 1}, {1, 1}, {1, 1}, {1, 1}}, {{1, 2}, {1, 3}, {1, 4}});
    // 0: worker one 0..2; 1: worker two 0..1; 2, 3 at 1 and 2 on worker two and one; 4 at 2
    EXPECT_EQ(idealRun(wide, levelsOneMsApart(wide), WeightPolicy::Raw, 2, kUnit).end, 3ms);
}

TEST(IdealRun, FreeWorkersTakeJobsInStartOrder) {
    // one worker busy 0..3 ms; then nodes 1 (due 1 ms) and 2 (due 2 ms) both wait. In start
    // order node 1 runs at 3 ms and node 2 at 4 ms; with a 2.5 ms window both make it,
    // the other way round node 1 would start at 4 ms, after its deadline at 3.5 ms.
    const TestChainGraph g = graphOf({{0, 3}, {1, 1}, {2, 1}});
    LevelSchedule s = levelsOneMsApart(g);
    s.lifeWindow(2500us);
    const IdealRunResult r = idealRun(g, s, WeightPolicy::Raw, 1, kUnit, true);
    EXPECT_EQ(r.end, 5ms);
    EXPECT_EQ(r.expired, 0u);
    s.lifeWindow(1500us);  // node 1 (at 3 > 2.5) and node 2 (at 4 > 3.5) start too late
    EXPECT_EQ(idealRun(g, s, WeightPolicy::Raw, 1, kUnit, true).expired, 2u);
    EXPECT_EQ(idealRun(g, s, WeightPolicy::Raw, 1, kUnit, false).expired, 0u);
}

TEST(IdealRun, ZeroWeightJobsFollowTheWeightPolicy) {
    // 0 -> 1 -> 2, weights 0, 0, 1, all due at once
    const TestChainGraph g = graphOf({{0, 0}, {1, 0}, {2, 1}}, {{0, 1}, {1, 2}});
    LevelSchedule s(g);
    s.useDefault(Duration{0});
    EXPECT_EQ(idealRun(g, s, WeightPolicy::Raw, 1, kUnit).end, 1ms);
    EXPECT_EQ(idealRun(g, s, WeightPolicy::UnitIfZero, 1, kUnit).end, 3ms);
}

TEST(IdealRun, RejectsNoWorkers) {
    const TestChainGraph g = graphOf({{0, 1}, {0, 1}});
    EXPECT_THROW(idealRun(g, LevelSchedule(g), WeightPolicy::Raw, 0, kUnit), std::invalid_argument);
}

TEST(IdealRun, PresetGraphAgreesWithSimplerBounds) {
    const RuleSet rules = preset("burst");
    const TestChainGraph g = TestChainGraph::generate(rules, 64);
    const WeightPolicy policy = rules.schedulingWeightPolicy();
    const GraphStatistics stats(g, policy);
    for (const double stress : {0.5, 1.0, 1.17, 1.5, 3.0}) {
        LevelSchedule s(g, policy);
        s.adapt(stress, 2, kUnit);
        // as many workers as jobs: each starts as soon as its start and its inputs allow
        std::vector<Duration> end(g.size());
        Duration last{0};
        for (std::size_t i = 0; i < g.size(); ++i) {
            Duration begin = s.nodeStart(i);
            for (const auto p : g.node(i).predecessors())
                begin = std::max(begin, end[p]);
            end[i] = begin +
                     static_cast<Duration::rep>(effectiveWeight(g.node(i).weight, policy)) * kUnit;
            last = std::max(last, end[i]);
        }
        EXPECT_EQ(idealRun(g, s, policy, g.size(), kUnit).end, last) << "stress " << stress;
        const Duration onTwo = idealRun(g, s, policy, 2, kUnit).end;
        EXPECT_GE(onTwo, stats.lowerBound(2, kUnit)) << "stress " << stress;
        EXPECT_GE(onTwo, last) << "stress " << stress;
        EXPECT_GE(idealRun(g, s, policy, 1, kUnit).end, onTwo) << "stress " << stress;
    }
    // all due at once, one worker: nothing but the work itself
    LevelSchedule atOnce(g, policy);
    atOnce.useDefault(Duration{0});
    EXPECT_EQ(idealRun(g, atOnce, policy, 1, kUnit).end, stats.work(kUnit));
}
