#include "analysis/IdealBreakingPoint.hpp"

#include <array>

#include "pullsched/testchain/IdealRun.hpp"
#include "pullsched/testchain/LevelSchedule.hpp"

namespace pullsched::rig {

IdealBreakingPoint IdealBreakingPoint::search(const testchain::TestChainGraph& graph,
                                              testchain::WeightPolicy policy, unsigned concurrency,
                                              Duration timeBase, Duration jobUnit,
                                              Duration lifeWindow,
                                              const BreakThresholds& thresholds,
                                              BreakingPointSearch::Limits limits) {
    using namespace testchain;
    auto toMs = [](Duration d) { return std::chrono::duration<double, std::milli>(d).count(); };
    BreakingPointSearch search(limits);
    while (const std::optional<double> s = search.next()) {
        LevelSchedule schedule(graph, policy);
        schedule.adapt(*s, concurrency, timeBase);
        schedule.lifeWindow(lifeWindow);
        const IdealRunResult run =
            idealRun(graph, schedule, policy, concurrency, jobUnit, lifeWindow > Duration::zero());
        const std::array<ProbeRun, 1> one{
            ProbeRun{toMs(run.end), toMs(schedule.expectedEnd()), run.expired > 0}};
        search.record(ProbeStatistics::of(*s, one, thresholds).broken);
    }
    IdealBreakingPoint r;
    r.stress = search.converged() ? search.estimate() : kMissing;
    r.low = search.low();
    r.high = search.high();
    r.probes = search.probes();
    return r;
}

}  // namespace pullsched::rig
