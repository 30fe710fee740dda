#pragma once
// The breaking point of a scheduler that costs nothing: where the schedule stops holding
// because of the graph and its start times alone.

#include "analysis/BreakingPointProbe.hpp"
#include "analysis/BreakingPointSearch.hpp"
#include "pullsched/scheduler/Time.hpp"
#include "pullsched/testchain/TestChainGraph.hpp"
#include "pullsched/testchain/WeightPolicy.hpp"

namespace pullsched::rig {

/// The measured search's twin with each probe one simulated ideal run (testchain's
/// idealRun: no overhead, jobs taken in start order on `concurrency` workers), judged by
/// the same thresholds: a probe is broken when that one run fails. The theoretical limit
/// (the stress at which the schedule ends at max(work / P, critical path)) can lie beyond
/// what any scheduler keeping the start times reaches; this one cannot, so measured /
/// ideal is the scheduler's own share of the shortfall.
struct IdealBreakingPoint {
    double stress = kMissing;  ///< midpoint of the bracket; missing unless it converged
    double low = 0;            ///< highest holding stress
    double high = kMissing;    ///< lowest broken stress
    std::size_t probes = 0;

    /// The schedules are adapted with `timeBase` as the measured search's are; a weight
    /// unit of a simulated job takes `jobUnit` (timeBase for jobs as planned, or what the
    /// jobs were measured to take). lifeWindow 0: no deadlines.
    static IdealBreakingPoint search(const testchain::TestChainGraph& graph,
                                     testchain::WeightPolicy policy, unsigned concurrency,
                                     Duration timeBase, Duration jobUnit, Duration lifeWindow,
                                     const BreakThresholds& thresholds,
                                     BreakingPointSearch::Limits limits = {});
};

}  // namespace pullsched::rig
