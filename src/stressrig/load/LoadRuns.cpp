#include "load/LoadRuns.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <thread>

#include "analysis/LoadTestAnalysis.hpp"
#include "load/IntervalHarvester.hpp"
#include "load/OpenLoadDriver.hpp"
#include "load/SchedulerFactory.hpp"
#include "measure/LatencyRecorder.hpp"
#include "pullsched/scheduler/Scheduler.hpp"

namespace pullsched::rig {

using namespace std::chrono_literals;
using pullsched::TimePoint;

namespace {

/// Pool large enough for a few seconds of posting ahead without growing mid-measurement.
constexpr std::size_t kLoadTestPool = 1 << 14;

Duration samplerInterval(Duration run) {
    return std::clamp<Duration>(run / 100, Duration{10ms}, Duration{1s});
}

void finishResources(LoadRunResult& r, const ProcessSnapshot& s0, const ProcessSnapshot& s1,
                     ProcessSampler& sampler) {
    sampler.stop();
    r.samples = sampler.samples();
    r.cpuPercent = ProcessSampler::cpuPercent(s0, s1);
    r.wall = std::chrono::duration_cast<Duration>(s1.wall - s0.wall);
    for (const auto& s : r.samples) {
        r.rssMaxBytes = std::max(r.rssMaxBytes, s.rssBytes);
        if (s.queueDepth > 0)
            r.maxBacklog = std::max(r.maxBacklog, static_cast<std::uint64_t>(s.queueDepth));
    }
}

double rateOver(std::uint64_t jobs, Duration span) {
    const double s = std::chrono::duration<double>(span).count();
    return s > 0 ? static_cast<double>(jobs) / s : kMissing;
}

/// Sleeps until `t` unless a stop is requested first; true if it was.
bool sleepUntil(TimePoint t, const StopRequest* stop) {
    const auto now = pullsched::SteadyClock::now();
    if (t <= now) return stop && stop->requested();
    if (!stop) {
        std::this_thread::sleep_until(t);
        return false;
    }
    return stop->sleepFor(t - now);
}

}  // namespace

ArrivalTimetable makeTimetable(const ArrivalConfig& a, Duration duration) {
    return makeTimetable(a, Duration{0}, duration);
}

ArrivalTimetable makeTimetable(const ArrivalConfig& a, Duration from, Duration to) {
    const bool poisson = a.arrival == "poisson";
    if (a.profile)
        return poisson ? ArrivalTimetable::stagedPoisson(*a.profile, from, to, a.seed)
                       : ArrivalTimetable::staged(*a.profile, from, to);
    if (poisson) return ArrivalTimetable::poisson(a.rate, to - from, a.seed);
    return ArrivalTimetable::constant(a.rate, to - from);
}

LoadRunResult runOpenLoad(const OpenRunConfig& cfg, const testchain::ComputationalLoad& load,
                          const StopRequest* stop) {
    LoadRunResult r;
    r.method = "open";
    const ArrivalTimetable tt = makeTimetable(cfg.arrivals, cfg.duration);
    r.offeredRate = tt.rate();

    LatencyRecorder recorder(cfg.workers);
    pullsched::Scheduler sched(
        schedulerConfig(cfg.workers, cfg.placement, &recorder, kLoadTestPool));

    OpenPlayConfig pc;
    pc.jobLoad = cfg.jobLoad;
    pc.warmup = std::min(cfg.warmup, cfg.duration);
    pc.deadlineWindow = cfg.deadlineWindow;
    OpenLoadDriver driver(sched, load, pc, stop);

    ProcessSampler sampler(samplerInterval(cfg.duration), [&driver] { return driver.backlog(); });
    const auto s0 = ProcessSampler::snapshot();
    sampler.start();
    const TimePoint origin = sched.now() + 2ms;
    const TimePoint warmEnd = saturatingAdd(origin, pc.warmup);
    const TimePoint end = saturatingAdd(origin, cfg.duration);
    std::optional<std::uint64_t> completedAtWarmup;
    if (pc.warmup == Duration{0}) completedAtWarmup = 0;
    IntervalPlan plan{&cfg.arrivals, cfg.duration, cfg.interval, cfg.lateLimit};
    LatencyHistogram intervalLateness;
    std::optional<IntervalHarvester> harvest;
    if (cfg.interval > Duration{0})
        harvest.emplace(plan, sched, driver, recorder, origin, r.intervals, intervalLateness);
    driver.play(tt, Duration{0}, origin, [&](TimePoint now) {
        if (!completedAtWarmup && now >= warmEnd) completedAtWarmup = sched.stats().completed;
        if (harvest) (*harvest)(now);
    });
    r.interrupted =
        driver.stopped() || (harvest && harvest->closeRemaining(stop)) || sleepUntil(end, stop);
    const TimePoint measuredEnd = std::min(sched.now(), end);
    const auto atEnd = sched.stats();
    r.drained =
        driver.drain(r.interrupted ? Duration{200ms}
                                   : std::max<Duration>(
                                         saturatingAdd(pc.deadlineWindow, pc.deadlineWindow), 2s));
    if (!r.drained) sched.shutdown(pullsched::ShutdownMode::Cancel);
    const auto s1 = ProcessSampler::snapshot();
    finishResources(r, s0, s1, sampler);

    const auto st = sched.stats();
    r.posted = driver.posted();
    r.measured = driver.measured();
    r.postedLate = driver.postedLate();
    r.completed = st.completed;
    r.expired = st.expired;
    r.failed = st.failed;
    r.cancelled = st.cancelled;
    r.span = std::max(Duration{0}, saturatingSub(measuredEnd, warmEnd));
    if (completedAtWarmup) r.completedInSpan = atEnd.completed - *completedAtWarmup;
    r.achievedRate = completedAtWarmup ? rateOver(r.completedInSpan, r.span) : kMissing;
    // the intervals took their share of the recorder's lateness as they closed
    recorder.harvest(r.lateness);
    r.lateness.merge(intervalLateness);
    r.generatorCpuPercent = 100.0 * std::chrono::duration<double>(driver.generatorCpu()).count() /
                            std::max(1e-9, std::chrono::duration<double>(r.wall).count());
    return r;
}

namespace {

/// Closed users: each job posts its user's next one when it is done.
struct ClosedState {
    pullsched::Scheduler* sched = nullptr;
    const testchain::ComputationalLoad* load = nullptr;
    Duration jobLoad{0};
    Duration think{0};
    TimePoint measureFrom{}, stopAt{};
    std::atomic<bool> stopping{false};
    /// End of the measured span: stopAt, or earlier when a stop request cut the run short.
    std::atomic<TimePoint::rep> measureUntil{0};
    struct alignas(64) User {
        std::uint64_t posted = 0, measured = 0;
        std::uint64_t completedInSpan = 0;  ///< jobs of this user that ended inside the span
    };
    std::vector<User> users;

    void submit(unsigned u) {
        const TimePoint now = sched->now();
        if (now >= stopAt || stopping.load(std::memory_order_relaxed)) return;
        const bool m = now >= measureFrom;
        ++users[u].posted;
        if (m) ++users[u].measured;
        pullsched::JobOptions o;
        // latency counts from the actual submission (after thinking)
        o.start = saturatingAdd(now, think);
        o.tag = (m ? kMeasuredTag : 0) | u;
        sched->postDetached(
            [this, u] {
                load->invoke(jobLoad);
                // Throughput is completions, stamped by the job itself: the main thread
                // reading a counter at the span's ends sees them late on a busy machine.
                const TimePoint done = sched->now();
                const TimePoint until{
                    TimePoint::duration{measureUntil.load(std::memory_order_relaxed)}};
                if (done >= measureFrom && done < until) ++users[u].completedInSpan;
                submit(u);
            },
            o);
    }
};

}  // namespace

LoadRunResult runClosedLoad(const ClosedRunConfig& cfg, const testchain::ComputationalLoad& load,
                            const StopRequest* stop) {
    LoadRunResult r;
    r.method = "closed";
    LatencyRecorder recorder(cfg.workers);
    pullsched::Scheduler sched(schedulerConfig(cfg.workers, cfg.placement, &recorder));

    ClosedState st;
    st.sched = &sched;
    st.load = &load;
    st.jobLoad = cfg.jobLoad;
    st.think = cfg.think;
    st.users.resize(std::max(1u, cfg.users));

    ProcessSampler sampler(samplerInterval(cfg.duration),
                           [&sched] { return static_cast<std::int64_t>(sched.queueDepth()); });
    const auto s0 = ProcessSampler::snapshot();
    sampler.start();
    const Duration warm = std::min(cfg.warmup, cfg.duration);
    const TimePoint origin = sched.now();
    st.measureFrom = saturatingAdd(origin, warm);
    st.stopAt = saturatingAdd(origin, cfg.duration);
    st.measureUntil.store(st.stopAt.time_since_epoch().count(), std::memory_order_relaxed);
    for (unsigned u = 0; u < st.users.size(); ++u)
        st.submit(u);
    r.interrupted = sleepUntil(st.stopAt, stop);
    const TimePoint measuredEnd = std::min(sched.now(), st.stopAt);
    st.measureUntil.store(measuredEnd.time_since_epoch().count(), std::memory_order_relaxed);
    st.stopping.store(true, std::memory_order_relaxed);
    // The users' last jobs may still think for up to --think: a stop must not wait for them.
    while (!sched.drainFor(50ms)) {
        if (stop && stop->requested()) {
            r.interrupted = true;
            r.drained = false;
            sched.shutdown(pullsched::ShutdownMode::Cancel);
            break;
        }
    }
    const auto s1 = ProcessSampler::snapshot();
    finishResources(r, s0, s1, sampler);

    const auto stats = sched.stats();
    for (const auto& u : st.users) {
        r.posted += u.posted;
        r.measured += u.measured;
        r.completedInSpan += u.completedInSpan;
    }
    r.completed = stats.completed;
    r.expired = stats.expired;
    r.failed = stats.failed;
    r.cancelled = stats.cancelled;
    r.span = std::max(Duration{0}, saturatingSub(measuredEnd, st.measureFrom));
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

StepResult runRateStep(const RateStepConfig& cfg, const testchain::ComputationalLoad& load,
                       const StopRequest* stop) {
    StepResult r;
    const ArrivalTimetable tt = makeTimetable(cfg.arrivals, cfg.hold);
    LatencyRecorder recorder(cfg.workers);
    pullsched::Scheduler sched(
        schedulerConfig(cfg.workers, cfg.placement, &recorder, kLoadTestPool));
    OpenPlayConfig pc;
    pc.jobLoad = cfg.jobLoad;
    pc.warmup = cfg.warm;
    pc.deadlineWindow = cfg.deadlineWindow;
    OpenLoadDriver driver(sched, load, pc, stop);

    const TimePoint origin = sched.now() + 2ms;
    const TimePoint warmEnd = saturatingAdd(origin, cfg.warm);
    std::optional<std::uint64_t> completedAtWarm;
    std::optional<ProcessSnapshot> s0;
    if (cfg.warm <= Duration{0}) {
        completedAtWarm = 0;
        s0 = ProcessSampler::snapshot();
    }
    driver.play(tt, Duration{0}, origin, [&](TimePoint now) {
        if (!completedAtWarm && now >= warmEnd) {
            completedAtWarm = sched.stats().completed;
            s0 = ProcessSampler::snapshot();
            r.m.backlogStart = static_cast<double>(driver.backlog());
        }
    });
    r.interrupted = driver.stopped() || sleepUntil(saturatingAdd(origin, cfg.hold), stop);
    if (!completedAtWarm) {  // a hold shorter than one poll: measure from here
        completedAtWarm = sched.stats().completed;
        s0 = ProcessSampler::snapshot();
    }
    const std::uint64_t completedAtEnd = sched.stats().completed;
    const auto s1 = ProcessSampler::snapshot();
    driver.drain(Duration{0});  // refreshes the backlog reading only
    r.m.backlogEnd = static_cast<double>(driver.backlog());
    const auto d0 = pullsched::SteadyClock::now();
    const bool drained = driver.drain(r.interrupted ? Duration{200ms} : cfg.drainLimit);
    r.drainTime = pullsched::SteadyClock::now() - d0;
    r.m.drained = drained;
    r.m.backlogAfterDrain = static_cast<double>(driver.backlog());
    if (!drained) sched.shutdown(pullsched::ShutdownMode::Cancel);

    const auto st = sched.stats();
    r.m.offeredRate = tt.rate();
    r.m.achievedRate = rateOver(completedAtEnd - *completedAtWarm,
                                std::chrono::duration_cast<Duration>(s1.wall - s0->wall));
    r.m.jobs = tt.size();
    r.m.drops = st.expired;
    r.m.failures = st.failed;
    r.cpuPercent = ProcessSampler::cpuPercent(*s0, s1);
    r.rssBytes = s1.rssBytes;
    r.measured = driver.measured();
    r.postedLate = driver.postedLate();
    recorder.harvest(r.lateness);
    r.m.latenessSamples = r.lateness.count();
    if (r.lateness.count() > 0) r.m.latenessP99 = Duration{r.lateness.percentile(99)};
    return r;
}

}  // namespace pullsched::rig
