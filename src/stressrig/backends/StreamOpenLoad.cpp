#include "backends/StreamOpenLoad.hpp"

#include <algorithm>
#include <optional>

#include "backends/IntervalHarvester.hpp"
#include "backends/StreamPlayer.hpp"
#include "backends/StreamRunSupport.hpp"

namespace pullsched::rig {

using namespace std::chrono_literals;
using pullsched::SteadyClock;
using pullsched::TimePoint;

StreamRunResult playOpenLoad(StreamRunner& backend, const std::vector<Duration>& offsets,
                             const OpenLoadConfig& cfg, const testchain::ComputationalLoad& load,
                             const StopRequest* stop) {
    StreamRunResult out;
    out.backend = std::string(backend.name());
    out.arrivalTimes = backend.arrivalTimes();
    LoadRunResult& r = out.load;
    r.method = "open";
    r.offeredRate = cfg.arrivals.meanRate(Duration{0}, cfg.duration);

    backend.start(cfg.workers, cfg.placement);
    LatencyRecorder recorder(cfg.workers);
    StreamPlayConfig pc =
        StreamPlayConfig::of(cfg.jobLoad, std::min(cfg.warmup, cfg.duration), cfg.deadlineWindow);
    pc.tracedArrivals = cfg.tracedArrivals;
    StreamPlayer player(backend, load, pc, recorder, stop, offsets.size());
    const StopsRunner stopsRunner(backend);

    ProcessSampler sampler(samplerInterval(cfg.duration), [&player] { return player.backlog(); });
    const auto s0 = ProcessSampler::snapshot();
    sampler.start();
    const TimePoint origin = SteadyClock::now() + 2ms;
    const TimePoint warmEnd = saturatingAdd(origin, pc.warmup);
    const TimePoint end = saturatingAdd(origin, cfg.duration);
    player.measureSpan(warmEnd, end);
    IntervalPlan plan{&cfg.arrivals, cfg.duration, cfg.interval, cfg.lateLimit};
    LatencyHistogram intervalLateness;
    std::optional<IntervalHarvester> harvest;
    if (cfg.interval > Duration{0})
        harvest.emplace(plan, player, recorder, origin, r.intervals, intervalLateness);
    player.play(offsets, Duration{0}, origin, [&](TimePoint now) {
        if (harvest) (*harvest)(now);
    });
    r.interrupted =
        player.stopped() || (harvest && harvest->closeRemaining(stop)) || sleepUntil(end, stop);
    const TimePoint measuredEnd = std::min(SteadyClock::now(), end);
    player.endSpanAt(measuredEnd);
    const Duration deadlinesClear = saturatingAdd(cfg.deadlineWindow, cfg.deadlineWindow);
    r.drained = player.drain(
        r.interrupted ? Duration{200ms} : std::max({cfg.drainLimit, deadlinesClear, Duration{2s}}));
    backend.stop();  // skips what has not started; every job has ended after it
    const auto s1 = ProcessSampler::snapshot();
    finishResources(r, s0, s1, sampler);

    player.takeCounts(r);
    r.postedLate = player.postedLate();
    r.missed = r.interrupted ? 0 : player.missedArrivals();
    r.repeated = player.repeatedArrivals();
    r.traced = player.tracedJobs();
    r.span = std::max(Duration{0}, saturatingSub(measuredEnd, warmEnd));
    r.completedInSpan = player.completedInSpan();
    r.achievedRate = rateOver(r.completedInSpan, r.span);
    // the intervals took their share of the recorder's lateness as they closed
    recorder.harvest(r.lateness);
    r.lateness.merge(intervalLateness);
    r.generatorCpuPercent = cpuShare(player.generatorCpu(), r.wall);
    return out;
}

StreamRunResult runOpenLoad(StreamRunner& backend, const OpenLoadConfig& cfg,
                            const testchain::ComputationalLoad& load, const StopRequest* stop) {
    const ArrivalTimetable tt = makeTimetable(cfg.arrivals, cfg.duration);
    return playOpenLoad(backend, tt.offsets(), cfg, load, stop);
}

}  // namespace pullsched::rig
