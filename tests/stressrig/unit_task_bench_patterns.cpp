// Each Task Bench pattern's dependencies against small cases worked out by hand from the
// definitions in docs/granularity.md, and the graphs built from them.
#include <algorithm>
#include <map>
#include <numeric>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "load/SyntheticGraphs.hpp"
#include "load/TaskBenchPatterns.hpp"
#include "pullsched/testchain/GraphStatistics.hpp"
#include "pullsched/testchain/LevelSchedule.hpp"

using namespace pullsched::rig;
using namespace pullsched::testchain;

namespace {

using Points = std::vector<std::size_t>;

TaskBenchShape shape(TaskBenchPattern p, std::size_t w, std::size_t s,
                     std::size_t radix = kTaskBenchDefaultRadix, double imbalance = 0) {
    return {p, w, s, radix, imbalance};
}

/// The dependencies of every point of timestep t, by point.
std::vector<Points> stepDependencies(const TaskBenchShape& s, std::size_t t) {
    std::vector<Points> out;
    const PointRange r = activePoints(s, t);
    for (std::size_t x = r.first; x < r.first + r.count; ++x)
        out.push_back(dependencies(s, t, x));
    return out;
}

/// Node id → (timestep, point), from the numbering the graph promises.
std::vector<std::pair<std::size_t, std::size_t>> pointsById(const TaskBenchShape& s) {
    std::vector<std::pair<std::size_t, std::size_t>> out;
    for (std::size_t t = 0; t < s.steps; ++t) {
        const PointRange r = activePoints(s, t);
        for (std::size_t x = r.first; x < r.first + r.count; ++x)
            out.emplace_back(t, x);
    }
    return out;
}

/// The graph's predecessors of every node equal the pattern's dependencies, on the
/// timestep before, and its levels are the timesteps.
void expectGraphFollowsPattern(const TaskBenchShape& s) {
    const TestChainGraph g = taskBenchGraph(s);
    const auto where = pointsById(s);
    ASSERT_EQ(g.size(), where.size());
    ASSERT_EQ(g.size(), nodeCount(s));
    for (std::size_t id = 0; id < g.size(); ++id) {
        const auto [t, x] = where[id];
        EXPECT_EQ(g.node(id).level, t);
        Points preds;
        for (const auto p : g.node(id).predecessors()) {
            ASSERT_LT(p, id);
            EXPECT_EQ(where[p].first + 1, t);
            preds.push_back(where[p].second);
        }
        EXPECT_EQ(preds, dependencies(s, t, x)) << "t " << t << " x " << x;
    }
    EXPECT_NO_THROW(LevelSchedule(g, WeightPolicy::Raw));
    EXPECT_EQ(g.seed(), kSyntheticGraphSeed);
}

}  // namespace

TEST(TaskBenchPatterns, NamesRoundTrip) {
    ASSERT_EQ(taskBenchPatternNames().size(), 11u);
    for (const auto name : taskBenchPatternNames()) {
        const auto p = taskBenchPatternNamed(name);
        ASSERT_TRUE(p) << name;
        EXPECT_EQ(nameOf(*p), name);
    }
    EXPECT_FALSE(taskBenchPatternNamed("grid"));
    EXPECT_FALSE(taskBenchPatternNamed("stencil"));
}

TEST(TaskBenchPatterns, TrivialHasNoEdges) {
    const auto s = shape(TaskBenchPattern::Trivial, 4, 3);
    EXPECT_EQ(stepDependencies(s, 1), std::vector<Points>(4));
    const TestChainGraph g = taskBenchGraph(s);
    EXPECT_EQ(g.size(), 12u);
    EXPECT_EQ(g.edgeCount(), 0u);
    EXPECT_EQ(g.startCount(), 12u);
    EXPECT_EQ(g.levels(), 3u);
    expectGraphFollowsPattern(s);
}

TEST(TaskBenchPatterns, NoCommIsOneChainPerPoint) {
    const auto s = shape(TaskBenchPattern::NoComm, 4, 3);
    EXPECT_EQ(stepDependencies(s, 2), (std::vector<Points>{{0}, {1}, {2}, {3}}));
    EXPECT_TRUE(dependencies(s, 0, 2).empty());
    const TestChainGraph g = taskBenchGraph(s);
    EXPECT_EQ(g.edgeCount(), 8u);
    EXPECT_EQ(g.startCount(), 4u);
    EXPECT_EQ(g.exitCount(), 4u);
    expectGraphFollowsPattern(s);
}

TEST(TaskBenchPatterns, Stencil1dClipsAtTheEdges) {
    const auto s = shape(TaskBenchPattern::Stencil1d, 4, 3);
    const std::vector<Points> want{{0, 1}, {0, 1, 2}, {1, 2, 3}, {2, 3}};
    EXPECT_EQ(stepDependencies(s, 1), want);
    EXPECT_EQ(stepDependencies(s, 2), want);
    EXPECT_EQ(taskBenchGraph(s).edgeCount(), 20u);
    expectGraphFollowsPattern(s);
}

TEST(TaskBenchPatterns, Stencil1dPeriodicWrapsAround) {
    const auto s = shape(TaskBenchPattern::Stencil1dPeriodic, 4, 3);
    EXPECT_EQ(stepDependencies(s, 1),
              (std::vector<Points>{{0, 1, 3}, {0, 1, 2}, {1, 2, 3}, {0, 2, 3}}));
    EXPECT_EQ(taskBenchGraph(s).edgeCount(), 24u);
    // two points: left and right neighbour are the same point, named once
    EXPECT_EQ(stepDependencies(shape(TaskBenchPattern::Stencil1dPeriodic, 2, 2), 1),
              (std::vector<Points>{{0, 1}, {0, 1}}));
    expectGraphFollowsPattern(s);
}

TEST(TaskBenchPatterns, DomIsAWavefrontOverAGrid) {
    // W = 4, S = 6: the wavefront of a 4 × 3 grid, points 0; 0-1; 0-2; 1-3; 2-3; 3
    const auto s = shape(TaskBenchPattern::Dom, 4, 6);
    const std::vector<std::pair<std::size_t, std::size_t>> active{{0, 1}, {0, 2}, {0, 3},
                                                                  {1, 3}, {2, 2}, {3, 1}};
    for (std::size_t t = 0; t < 6; ++t) {
        EXPECT_EQ(activePoints(s, t).first, active[t].first) << t;
        EXPECT_EQ(activePoints(s, t).count, active[t].second) << t;
    }
    EXPECT_EQ(stepDependencies(s, 1), (std::vector<Points>{{0}, {0}}));  // 1 was not active
    EXPECT_EQ(stepDependencies(s, 3), (std::vector<Points>{{0, 1}, {1, 2}, {2}}));
    EXPECT_EQ(stepDependencies(s, 5), (std::vector<Points>{{2, 3}}));
    // the same graph as the hand-made 4 × 3 grid
    const TestChainGraph g = taskBenchGraph(s);
    const TestChainGraph grid = gridGraph(4, 3);
    EXPECT_EQ(g.size(), grid.size());
    EXPECT_EQ(g.edgeCount(), grid.edgeCount());
    EXPECT_EQ(g.levelWidths(), grid.levelWidths());
    EXPECT_EQ(GraphStatistics(g).criticalPathWeight(), 6u);
    expectGraphFollowsPattern(s);
}

TEST(TaskBenchPatterns, TreeDoublesItsWidthThenEachPointFollowsItsHalf) {
    const auto s = shape(TaskBenchPattern::Tree, 4, 4);
    EXPECT_EQ(activePoints(s, 0).count, 1u);
    EXPECT_EQ(activePoints(s, 1).count, 2u);
    EXPECT_EQ(activePoints(s, 2).count, 4u);
    EXPECT_EQ(activePoints(s, 3).count, 4u);
    EXPECT_EQ(stepDependencies(s, 1), (std::vector<Points>{{0}, {0}}));
    EXPECT_EQ(stepDependencies(s, 2), (std::vector<Points>{{0}, {0}, {1}, {1}}));
    EXPECT_EQ(stepDependencies(s, 3), (std::vector<Points>{{0}, {0}, {1}, {1}}));
    const TestChainGraph g = taskBenchGraph(s);
    EXPECT_EQ(g.size(), 11u);
    EXPECT_EQ(g.edgeCount(), 10u);
    EXPECT_EQ(g.startCount(), 1u);
    EXPECT_EQ(g.exitCount(), 6u);  // points 2 and 3 of timestep 2, all of timestep 3
    expectGraphFollowsPattern(s);
}

TEST(TaskBenchPatterns, FftButterflyStrideCyclesThroughThePowersOfTwo) {
    const auto s = shape(TaskBenchPattern::Fft, 8, 5);
    // t = 1: stride 1; t = 2: stride 2; t = 3: stride 4; t = 4: stride 1 again
    EXPECT_EQ(dependencies(s, 1, 0), (Points{0, 1}));
    EXPECT_EQ(dependencies(s, 1, 3), (Points{2, 3, 4}));
    EXPECT_EQ(dependencies(s, 2, 1), (Points{1, 3}));
    EXPECT_EQ(dependencies(s, 2, 5), (Points{3, 5, 7}));
    EXPECT_EQ(dependencies(s, 3, 2), (Points{2, 6}));
    EXPECT_EQ(dependencies(s, 3, 4), (Points{0, 4}));
    EXPECT_EQ(dependencies(s, 3, 6), (Points{2, 6}));
    EXPECT_EQ(dependencies(s, 4, 7), (Points{6, 7}));
    // W = 6 is not a power of two: ⌈log2 6⌉ = 3 stages, stride 4 clipped at the edge
    EXPECT_EQ(dependencies(shape(TaskBenchPattern::Fft, 6, 4), 3, 3), (Points{3}));
    expectGraphFollowsPattern(s);
}

TEST(TaskBenchPatterns, AllToAllDependsOnEveryPoint) {
    const auto s = shape(TaskBenchPattern::AllToAll, 4, 3);
    EXPECT_EQ(stepDependencies(s, 2), std::vector<Points>(4, Points{0, 1, 2, 3}));
    EXPECT_EQ(taskBenchGraph(s).edgeCount(), 32u);
    expectGraphFollowsPattern(s);
}

TEST(TaskBenchPatterns, NearestTakesRadixPointsAroundX) {
    // radix 3: x − 1 .. x + 1, the same as stencil_1d
    const auto three = shape(TaskBenchPattern::Nearest, 8, 3);
    EXPECT_EQ(stepDependencies(three, 1),
              stepDependencies(shape(TaskBenchPattern::Stencil1d, 8, 3), 1));
    // radix 4: x − 2 .. x + 1
    const auto four = shape(TaskBenchPattern::Nearest, 8, 3, 4);
    EXPECT_EQ(dependencies(four, 1, 0), (Points{0, 1}));
    EXPECT_EQ(dependencies(four, 1, 5), (Points{3, 4, 5, 6}));
    EXPECT_EQ(dependencies(four, 1, 7), (Points{5, 6, 7}));
    // radix 1: the point itself
    EXPECT_EQ(dependencies(shape(TaskBenchPattern::Nearest, 8, 3, 1), 2, 4), (Points{4}));
    expectGraphFollowsPattern(four);
}

TEST(TaskBenchPatterns, SpreadShiftsRadixDependenciesAcrossTheWidth) {
    // W = 8, radix 3: shifts 0, ⌊8/3⌋ = 2, ⌊16/3⌋ = 5, the last two + (t mod 3)
    const auto s = shape(TaskBenchPattern::Spread, 8, 4);
    EXPECT_EQ(dependencies(s, 1, 0), (Points{0, 3, 6}));
    EXPECT_EQ(dependencies(s, 1, 7), (Points{2, 5, 7}));
    EXPECT_EQ(dependencies(s, 2, 0), (Points{0, 4, 7}));
    EXPECT_EQ(dependencies(s, 3, 0), (Points{0, 2, 5}));
    // every point has radix predecessors and radix successors
    const TestChainGraph g = taskBenchGraph(s);
    for (std::size_t id = 8; id < 24; ++id) {
        EXPECT_EQ(g.node(id).predecessors().size(), 3u);
        EXPECT_EQ(g.node(id - 8).successors().size(), 3u);
    }
    expectGraphFollowsPattern(s);
}

TEST(TaskBenchPatterns, RandomNearestKeepsThePointAndAQuarterOfItsNeighbours) {
    const auto s = shape(TaskBenchPattern::RandomNearest, 16, 200, 5);
    std::size_t neighbours = 0, candidates = 0;
    for (std::size_t t = 1; t < s.steps; ++t)
        for (std::size_t x = 0; x < 16; ++x) {
            const Points d = dependencies(s, t, x);
            ASSERT_TRUE(std::binary_search(d.begin(), d.end(), x));
            const Points window = dependencies(shape(TaskBenchPattern::Nearest, 16, 2, 5), 1, x);
            EXPECT_TRUE(std::includes(window.begin(), window.end(), d.begin(), d.end()));
            neighbours += d.size() - 1;
            candidates += window.size() - 1;
        }
    const double fraction = double(neighbours) / double(candidates);
    EXPECT_GT(fraction, 0.2);
    EXPECT_LT(fraction, 0.3);
    // deterministic: the same shape, the same graph
    TestChainGraph a = taskBenchGraph(s), b = taskBenchGraph(s);
    EXPECT_EQ(a.edgeCount(), b.edgeCount());
    EXPECT_EQ(a.recalculate().graphHash(), b.recalculate().graphHash());
    expectGraphFollowsPattern(shape(TaskBenchPattern::RandomNearest, 8, 6, 5));
}

TEST(TaskBenchPatterns, ImbalanceSpreadsWeightsAroundTheBase) {
    const auto even = shape(TaskBenchPattern::Stencil1d, 8, 50);
    EXPECT_EQ(taskBenchGraph(even).weightSum(), 400u);
    const auto s = shape(TaskBenchPattern::Stencil1d, 8, 50, 3, 0.5);
    const TestChainGraph g = taskBenchGraph(s);
    std::map<std::size_t, std::size_t> seen;
    for (const Node& n : g.nodes()) {
        // (1 ± 0.25) × 16
        EXPECT_GE(n.weight, 12u);
        EXPECT_LE(n.weight, 20u);
        ++seen[n.weight];
    }
    EXPECT_GE(seen.size(), 8u);
    const double mean = double(g.weightSum()) / double(g.size());
    EXPECT_NEAR(mean, 16.0, 0.5);
    EXPECT_EQ(g.weightSum(), taskBenchGraph(s).weightSum());  // deterministic
    // the dependencies do not change with the weights
    EXPECT_EQ(g.edgeCount(), taskBenchGraph(even).edgeCount());
}

TEST(TaskBenchPatterns, HashSeesEverySkippedJob) {
    TestChainGraph a = taskBenchGraph(shape(TaskBenchPattern::Fft, 8, 4));
    const std::uint64_t whole = a.recalculate().graphHash();
    EXPECT_NE(whole, 0u);
    for (const std::size_t skipped :
         {9u, 12u, 20u}) {  // inner jobs: a start job's hash is the seed
        TestChainGraph c = a;
        c.clearNodeHashes();
        for (std::size_t i = 0; i < c.size(); ++i)
            if (i != skipped) c.node(i).calculate(c.nodes());
        EXPECT_NE(c.graphHash(), whole) << skipped;
    }
}

TEST(TaskBenchPatterns, ParsesNameWidthAndSteps) {
    const auto s = parseTaskBenchShape("stencil_1d:8x100", 3, 0);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->pattern, TaskBenchPattern::Stencil1d);
    EXPECT_EQ(s->width, 8u);
    EXPECT_EQ(s->steps, 100u);
    EXPECT_EQ(shapeLabel(*s), "stencil_1d-8x100");
    EXPECT_EQ(shapeLabel(*parseTaskBenchShape("nearest:8x10", 5, 0.5)), "nearest-8x10-r5-i0.5");
    EXPECT_EQ(shapeLabel(*parseTaskBenchShape("tree:8x10", 5, 0)), "tree-8x10");
    EXPECT_FALSE(parseTaskBenchShape("grid:4x4", 3, 0));
    EXPECT_FALSE(parseTaskBenchShape("burst", 3, 0));
}

TEST(TaskBenchPatterns, RefusesShapesItCannotBuild) {
    const struct {
        const char* text;
        std::size_t radix;
        double imbalance;
        const char* message;
    } cases[] = {
        {"stencil_1d:8", 3, 0, "NAME:WIDTHxSTEPS"},
        {"stencil_1d", 3, 0, "NAME:WIDTHxSTEPS"},
        {"fft:8x", 3, 0, "NAME:WIDTHxSTEPS"},
        {"fft:x8", 3, 0, "NAME:WIDTHxSTEPS"},
        {"fft:8x-1", 3, 0, "NAME:WIDTHxSTEPS"},
        {"fft:0x8", 3, 0, "at least 1"},
        {"trivial:1x1", 3, 0, "at least 2 jobs"},
        {"all_to_all:17x4", 3, 0, "width of at most 16"},
        {"nearest:8x4", 17, 0, "radix 1..16"},
        {"spread:8x4", 0, 0, "radix 1..16"},
        {"no_comm:4000x4000", 3, 0, "more than 10000000 jobs"},
        {"dom:4x4", 3, 2.5, "imbalance must be 0..2"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.text);
        try {
            (void)parseTaskBenchShape(c.text, c.radix, c.imbalance);
            ADD_FAILURE() << "accepted";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
        }
    }
    EXPECT_THROW(taskBenchGraph(shape(TaskBenchPattern::AllToAll, 20, 2)), std::invalid_argument);
}
