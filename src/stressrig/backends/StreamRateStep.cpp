#include "backends/StreamRateStep.hpp"

#include <optional>

#include "backends/StreamPlayer.hpp"
#include "backends/StreamRunSupport.hpp"

namespace pullsched::rig {

using namespace std::chrono_literals;
using pullsched::SteadyClock;
using pullsched::TimePoint;

StepResult runRateStep(StreamRunner& backend, const RateStepConfig& cfg,
                       const testchain::ComputationalLoad& load, const StopRequest* stop) {
    StepResult r;
    const ArrivalTimetable tt = makeTimetable(cfg.arrivals, cfg.hold);
    backend.start(cfg.workers, cfg.placement);
    LatencyRecorder recorder(cfg.workers);
    StreamPlayConfig pc = StreamPlayConfig::of(cfg.jobLoad, cfg.warm, cfg.deadlineWindow);
    pc.tracedArrivals = cfg.tracedArrivals;
    StreamPlayer player(backend, load, pc, recorder, stop);
    const StopsRunner stopsRunner(backend);

    const TimePoint origin = SteadyClock::now() + 2ms;
    const TimePoint warmEnd = saturatingAdd(origin, cfg.warm);
    const TimePoint holdEnd = saturatingAdd(origin, cfg.hold);
    player.measureSpan(warmEnd, holdEnd);
    std::optional<ProcessSnapshot> s0;
    if (cfg.warm <= Duration{0}) s0 = ProcessSampler::snapshot();
    player.play(tt.offsets(), Duration{0}, origin, [&](TimePoint now) {
        if (!s0 && now >= warmEnd) {
            s0 = ProcessSampler::snapshot();
            r.m.backlogStart = static_cast<double>(player.backlog());
        }
    });
    r.interrupted = player.stopped() || sleepUntil(holdEnd, stop);
    if (!s0) s0 = ProcessSampler::snapshot();  // a hold shorter than one poll: from here
    const auto s1 = ProcessSampler::snapshot();
    const TimePoint measuredEnd = std::min(SteadyClock::now(), holdEnd);
    player.endSpanAt(measuredEnd);
    player.refreshBacklog();
    r.m.backlogEnd = static_cast<double>(player.backlog());
    const auto d0 = SteadyClock::now();
    const bool drained = player.drain(r.interrupted ? Duration{200ms} : cfg.drainLimit);
    r.drainTime = SteadyClock::now() - d0;
    r.m.drained = drained;
    r.m.backlogAfterDrain = static_cast<double>(player.backlog());
    backend.stop();

    r.m.offeredRate = tt.rate();
    r.m.achievedRate = rateOver(player.completedInSpan(), saturatingSub(measuredEnd, warmEnd));
    r.m.jobs = tt.size();
    r.m.drops = backend.expired();
    r.m.failures = backend.failed();
    r.cpuPercent = ProcessSampler::cpuPercent(*s0, s1);
    r.rssBytes = s1.rssBytes;
    r.measured = player.measured();
    r.postedLate = player.postedLate();
    r.traced = player.tracedJobs();
    recorder.harvest(r.lateness);
    r.m.latenessSamples = r.lateness.count();
    if (r.lateness.count() > 0) r.m.latenessP99 = Duration{r.lateness.percentile(99)};
    return r;
}

}  // namespace pullsched::rig
