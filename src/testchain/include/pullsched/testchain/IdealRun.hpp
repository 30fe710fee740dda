#pragma once

#include <cstddef>

#include "pullsched/testchain/Duration.hpp"
#include "pullsched/testchain/LevelSchedule.hpp"
#include "pullsched/testchain/TestChainGraph.hpp"
#include "pullsched/testchain/WeightPolicy.hpp"

namespace pullsched::testchain {

/// What a run of a graph on its schedule would give if scheduling cost nothing.
struct IdealRunResult {
    Duration end{0};          ///< when the last job ends (offset from the schedule's anchor)
    std::size_t expired = 0;  ///< jobs that could not start before their deadline
};

/// Runs a graph on a schedule in simulated time with `workers` threads that cost nothing:
/// a free worker takes, of the jobs whose start has come and whose predecessors are done,
/// the first in (start, index) order — the order the scheduler keeps for timed jobs — and
/// holds it for its effective weight × timeBase. Workers never wait while such a job exists.
///
/// Why: the lower bound max(work / P, critical path) ignores the start times, and a schedule
/// whose levels cannot be split evenly over P workers cannot reach it at all. This run is
/// the end any scheduler keeping the start times and that order reaches without overhead,
/// so "measured / ideal" is the scheduler's own share of a miss.
/// With `deadlines`, a job starting after schedule.nodeDeadline() counts as expired (it
/// still runs, so its successors keep their times). O(n log n) in the nodes and edges.
IdealRunResult idealRun(const TestChainGraph& graph, const LevelSchedule& schedule,
                        WeightPolicy policy, std::size_t workers, Duration timeBase,
                        bool deadlines = false);

}  // namespace pullsched::testchain
