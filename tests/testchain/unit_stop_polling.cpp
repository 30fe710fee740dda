// The long passes over a generated graph (statistics, DOT, recalculation) poll their stop
// predicate as generation does: a stop asked before or during a pass ends it with Stopped,
// and nothing is written. Polls are counted, never timed.
#include <sstream>

#include <gtest/gtest.h>

#include "pullsched/testchain/DotWriter.hpp"
#include "pullsched/testchain/GraphStatistics.hpp"
#include "pullsched/testchain/StopCheck.hpp"
#include "pullsched/testchain/TestChainGraph.hpp"

using namespace pullsched::testchain;

namespace {

constexpr std::size_t kNodes = 3 * kStopPollItems + 5;

/// A chain of kNodes nodes, one per level: every pass over nodes or levels is long.
const TestChainGraph& chain() {
    static const TestChainGraph g = [] {
        TestChainGraph c{kNodes, 1};
        for (std::size_t i = 0; i < kNodes; ++i) {
            c.node(i).level = i;
            c.node(i).weight = 1;
        }
        for (std::size_t i = 1; i < kNodes; ++i)
            c.link(i - 1, i);
        return c;
    }();
    return g;
}

/// Counts its polls; asks to stop from poll `stopAt` on (0: never).
struct CountingStop {
    std::size_t polls = 0;
    std::size_t stopAt = 0;
    StopPredicate predicate() {
        return [this] {
            ++polls;
            return stopAt != 0 && polls >= stopAt;
        };
    }
};

}  // namespace

TEST(StopPolling, StatisticsOfAStoppedRunAreNotComputed) {
    EXPECT_THROW(GraphStatistics(chain(), WeightPolicy::Raw, [] { return true; }), Stopped);
}

// The second poll comes kStopPollItems nodes into the first pass: the stop ends it there.
TEST(StopPolling, StatisticsStopPartWay) {
    CountingStop stop{.stopAt = 2};
    EXPECT_THROW(GraphStatistics(chain(), WeightPolicy::Raw, stop.predicate()), Stopped);
    EXPECT_EQ(stop.polls, 2u);
}

// Every pass (nodes; segments; nine categories over the levels; critical path) polls at
// least once per kStopPollItems items, and polling changes no figure.
TEST(StopPolling, StatisticsPollEveryPass) {
    CountingStop stop;
    const GraphStatistics polled(chain(), WeightPolicy::Raw, stop.predicate());
    const std::size_t perPass = kNodes / kStopPollItems;
    EXPECT_GE(stop.polls, (1 + 1 + GraphStatistics::kCategories + 1) * perPass);
    const GraphStatistics plain(chain());
    EXPECT_EQ(polled.criticalPathWeight(), plain.criticalPathWeight());
    EXPECT_EQ(polled.criticalPathWeight(), kNodes);
    EXPECT_EQ(polled.maxWidth(), 1u);
    EXPECT_EQ(polled.segments(), plain.segments());
}

TEST(StopPolling, DotOfAStoppedRunIsNotWritten) {
    // before anything, in the nodes, in the edges (after four polls in each earlier pass)
    for (const std::size_t stopAt : {1u, 2u, 9u}) {
        CountingStop stop{.stopAt = stopAt};
        std::ostringstream os;
        EXPECT_THROW(DotWriter::write(os, chain(), stop.predicate()), Stopped) << stopAt;
        EXPECT_EQ(stop.polls, stopAt);
        EXPECT_TRUE(os.str().empty()) << "stop at poll " << stopAt;
    }
}

TEST(StopPolling, DotPollsEveryPassAndIsTheSame) {
    CountingStop stop;
    const std::string polled = DotWriter::toString(chain(), stop.predicate());
    EXPECT_GE(stop.polls, 3 * (kNodes / kStopPollItems));  // nodes, layers, topology
    EXPECT_EQ(polled, DotWriter::toString(chain()));
}

TEST(StopPolling, RecalculationStopsPartWay) {
    TestChainGraph g = chain();
    CountingStop stop{.stopAt = 2};
    EXPECT_THROW(g.recalculate(stop.predicate()), Stopped);
    EXPECT_EQ(stop.polls, 2u);
    CountingStop never;
    const std::uint64_t polled = g.recalculate(never.predicate()).graphHash();
    EXPECT_GE(never.polls, kNodes / kStopPollItems);
    EXPECT_EQ(polled, TestChainGraph(chain()).recalculate().graphHash());
}
