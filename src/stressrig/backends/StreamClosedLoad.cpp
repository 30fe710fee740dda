#include "backends/StreamClosedLoad.hpp"

#include <algorithm>
#include <atomic>
#include <stdexcept>

#include "analysis/LoadTestAnalysis.hpp"
#include "backends/StreamPlayer.hpp"
#include "backends/StreamRunSupport.hpp"

namespace pullsched::rig {

using namespace std::chrono_literals;
using pullsched::SteadyClock;
using pullsched::TimePoint;

namespace {

/// Closed users: each job submits its user's next one when it is done.
struct ClosedUsers {
    StreamPlayer* player = nullptr;
    Duration think{0};
    TimePoint measureFrom{}, stopAt{};
    std::atomic<bool> stopping{false};

    void submit() {
        const TimePoint now = SteadyClock::now();
        if (now >= stopAt || stopping.load(std::memory_order_relaxed)) return;
        // latency counts from the actual submission (after thinking)
        player->submitOne(saturatingAdd(now, think), now >= measureFrom, [this] { submit(); });
    }
};

}  // namespace

LoadRunResult runClosedLoad(StreamRunner& backend, const ClosedRunConfig& cfg,
                            const testchain::ComputationalLoad& load, const StopRequest* stop) {
    if (cfg.think > Duration{0} && backend.arrivalTimes() != StartTimes::Native)
        throw std::invalid_argument(std::string(backend.name()) +
                                    ": a think time needs a native timed start");
    LoadRunResult r;
    r.method = "closed";
    backend.start(cfg.workers, cfg.placement);
    LatencyRecorder recorder(cfg.workers);
    StreamPlayConfig pc = StreamPlayConfig::of(cfg.jobLoad, Duration{0}, Duration{0});
    pc.tracedArrivals = cfg.tracedArrivals;
    StreamPlayer player(backend, load, pc, recorder, stop);
    const StopsRunner stopsRunner(backend);

    ClosedUsers users;
    users.player = &player;
    users.think = cfg.think;
    ProcessSampler sampler(samplerInterval(cfg.duration), [&player] {
        player.refreshBacklog();
        return player.backlog();
    });
    const auto s0 = ProcessSampler::snapshot();
    sampler.start();
    const Duration warm = std::min(cfg.warmup, cfg.duration);
    const TimePoint origin = SteadyClock::now();
    users.measureFrom = saturatingAdd(origin, warm);
    users.stopAt = saturatingAdd(origin, cfg.duration);
    player.measureSpan(users.measureFrom, users.stopAt);
    for (unsigned u = 0; u < std::max(1u, cfg.users); ++u)
        users.submit();
    r.interrupted = sleepUntil(users.stopAt, stop);
    const TimePoint measuredEnd = std::min(SteadyClock::now(), users.stopAt);
    player.endSpanAt(measuredEnd);
    users.stopping.store(true, std::memory_order_relaxed);
    // The users' last jobs may still think for up to --think: a stop must not wait for them.
    while (!player.drain(50ms)) {
        if (stop && stop->requested()) {
            r.interrupted = true;
            r.drained = false;
            break;
        }
    }
    // The sampler's probe reads the runner: it stops first.
    const auto s1 = ProcessSampler::snapshot();
    finishResources(r, s0, s1, sampler);
    backend.stop();

    player.takeCounts(r);
    r.traced = player.tracedJobs();
    r.completedInSpan = player.completedInSpan();
    r.span = std::max(Duration{0}, saturatingSub(measuredEnd, users.measureFrom));
    // Completions, not submissions: a user submits at the start of the span without any
    // of its jobs finishing in it (jobs of 7 s in a 50 ms span made "80/s" of submissions).
    const loadtest::WindowThroughput thr = loadtest::windowThroughput(
        r.completedInSpan, r.span, saturatingAdd(cfg.jobLoad, cfg.think));
    r.achievedRate = thr.perSecond;
    r.spanTooShort = thr.tooShort;
    r.offeredRate = r.achievedRate;  // a closed load offers what the system lets it
    recorder.harvest(r.lateness);
    return r;
}

}  // namespace pullsched::rig
