#include "backends/StreamSoak.hpp"

#include <algorithm>

#include "backends/IntervalHarvester.hpp"
#include "backends/StreamPlayer.hpp"
#include "backends/StreamRunSupport.hpp"

namespace pullsched::rig {

using namespace std::chrono_literals;

SoakRunResult runSoak(
    StreamRunner& backend, const SoakRunConfig& cfg, const testchain::ComputationalLoad& load,
    const StopRequest* stop,
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

    backend.start(cfg.workers, cfg.placement);
    LatencyRecorder recorder(cfg.workers);
    StreamPlayConfig pc = StreamPlayConfig::of(cfg.jobLoad, cfg.warmup, cfg.deadlineWindow);
    pc.tracedArrivals = cfg.tracedArrivals;
    StreamPlayer player(backend, load, pc, recorder, stop);
    const StopsRunner stopsRunner(backend);
    const pullsched::TimePoint origin = pullsched::SteadyClock::now() + 2ms;
    IntervalHarvester harvest(plan, player, recorder, origin, res.rows, res.lateness, onInterval);

    for (std::size_t k = 0; k < intervals && !player.stopped(); ++k) {
        const Duration base = k * cfg.interval;
        ArrivalConfig a = cfg.arrivals;
        a.seed += k;
        player.play(makeTimetable(a, base, std::min(cfg.duration, base + cfg.interval)).offsets(),
                    base, origin, [&](pullsched::TimePoint now) { harvest(now); });
    }
    res.interrupted = player.stopped() || harvest.closeRemaining(stop);
    res.drained = player.drain(
        res.interrupted
            ? Duration{200ms}
            : std::max<Duration>(saturatingAdd(cfg.deadlineWindow, cfg.deadlineWindow), 2s));
    backend.stop();
    // A job that started after the last interval closed (late, on a busy machine) recorded
    // its lateness after that interval's harvest: the run's histogram still takes it.
    recorder.harvest(res.lateness);
    player.takeCounts(res);
    res.generatorCpu = player.generatorCpu();
    res.traced = player.tracedJobs();
    return res;
}

}  // namespace pullsched::rig
