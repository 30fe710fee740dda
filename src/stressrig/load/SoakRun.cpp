#include "load/SoakRun.hpp"

#include <algorithm>

#include "load/IntervalHarvester.hpp"
#include "load/OpenLoadDriver.hpp"
#include "load/SchedulerFactory.hpp"
#include "measure/LatencyRecorder.hpp"
#include "measure/ProcessSampler.hpp"

namespace pullsched::rig {

using namespace std::chrono_literals;

namespace {

/// The scheduler's final counts and the driver's totals into the result.
void takeTotals(const pullsched::Scheduler& sched, const OpenLoadDriver& driver,
                SoakRunResult& res) {
    const auto total = sched.stats();
    res.posted = driver.posted();
    res.measured = driver.measured();
    res.completed = total.completed;
    res.expired = total.expired;
    res.failed = total.failed;
    res.cancelled = total.cancelled;
    res.generatorCpu = driver.generatorCpu();
}

}  // namespace

SoakRunResult runSoak(
    const SoakRunConfig& cfg, const testchain::ComputationalLoad& load, const StopRequest* stop,
    const std::function<void(const IntervalRow&, std::size_t, std::size_t)>& onInterval) {
    SoakRunResult res;
    IntervalPlan plan;
    plan.arrivals = &cfg.arrivals;
    plan.duration = cfg.duration;
    plan.interval = cfg.interval;
    plan.lateLimit = cfg.lateLimit;
    const std::size_t intervals = plan.intervals();
    res.plannedIntervals = intervals;
    res.rows.reserve(intervals);

    LatencyRecorder recorder(cfg.workers);
    pullsched::Scheduler sched(schedulerConfig(cfg.workers, cfg.placement, &recorder, 1 << 14));
    OpenPlayConfig pc;
    pc.jobLoad = cfg.jobLoad;
    pc.warmup = cfg.warmup;
    pc.deadlineWindow = cfg.deadlineWindow;
    OpenLoadDriver driver(sched, load, pc, stop);
    const pullsched::TimePoint origin = sched.now() + 2ms;
    IntervalHarvester harvest(plan, sched, driver, recorder, origin, res.rows, res.lateness,
                              onInterval);

    for (std::size_t k = 0; k < intervals && !driver.stopped(); ++k) {
        const Duration base = k * cfg.interval;
        ArrivalConfig a = cfg.arrivals;
        a.seed += k;
        driver.play(makeTimetable(a, base, std::min(cfg.duration, base + cfg.interval)), base,
                    origin, [&](pullsched::TimePoint now) { harvest(now); });
    }
    res.interrupted = driver.stopped() || harvest.closeRemaining(stop);
    res.drained = driver.drain(
        res.interrupted
            ? Duration{200ms}
            : std::max<Duration>(saturatingAdd(cfg.deadlineWindow, cfg.deadlineWindow), 2s));
    if (!res.drained) sched.shutdown(pullsched::ShutdownMode::Cancel);
    takeTotals(sched, driver, res);
    return res;
}

}  // namespace pullsched::rig
