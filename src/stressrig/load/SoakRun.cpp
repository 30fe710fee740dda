#include "load/SoakRun.hpp"

#include <algorithm>
#include <thread>

#include "analysis/LatenessMisses.hpp"
#include "analysis/PercentileSupport.hpp"
#include "load/OpenLoadDriver.hpp"
#include "load/SchedulerFactory.hpp"
#include "measure/LatencyRecorder.hpp"
#include "measure/ProcessSampler.hpp"

namespace pullsched::rig {

using namespace std::chrono_literals;

SoakRunResult runSoak(
    const SoakRunConfig& cfg, const testchain::ComputationalLoad& load, const StopRequest* stop,
    const std::function<void(const SoakRow&, std::size_t, std::size_t)>& onInterval) {
    SoakRunResult res;
    const std::size_t intervals = static_cast<std::size_t>(
        (cfg.duration.count() + cfg.interval.count() - 1) / cfg.interval.count());
    res.plannedIntervals = intervals;
    res.rows.reserve(intervals);

    LatencyRecorder recorder(cfg.workers);
    pullsched::Scheduler sched(schedulerConfig(cfg.workers, cfg.placement, &recorder, 1 << 14));
    OpenPlayConfig pc;
    pc.jobLoad = cfg.jobLoad;
    pc.warmup = cfg.warmup;
    pc.deadlineWindow = cfg.deadlineWindow;
    OpenLoadDriver driver(sched, load, pc, stop);

    LatencyHistogram hist;  // one interval's lateness, reused
    const pullsched::TimePoint origin = sched.now() + 2ms;
    std::size_t harvested = 0;
    auto prevSnap = ProcessSampler::snapshot();
    auto prevTicks = MachineCpuTicks::read();
    auto prevStats = sched.stats();
    std::uint64_t prevPosted = 0;
    // The end of interval k (0-based). The sum saturates like every time sum of the rig;
    // the product cannot overflow: validate() allows at most 10^6 intervals of at most 1 h.
    const auto intervalEnd = [&](std::size_t k) {
        return saturatingAdd(origin, cfg.interval * static_cast<Duration::rep>(k + 1));
    };
    auto harvest = [&](pullsched::TimePoint now) {
        if (harvested >= intervals || now < intervalEnd(harvested)) return;
        recorder.harvest(hist);
        const auto snap = ProcessSampler::snapshot();
        const auto ticks = MachineCpuTicks::read();
        const auto st = sched.stats();
        const double secs = std::chrono::duration<double>(snap.wall - prevSnap.wall).count();
        SoakRow r;
        r.i.tSeconds = std::chrono::duration<double>((harvested + 1) * cfg.interval).count();
        r.i.throughput =
            secs > 0 ? static_cast<double>(st.completed - prevStats.completed) / secs : kMissing;
        const auto us = [&](double p) {
            return percentileSupported(p, hist.count())
                       ? static_cast<double>(hist.percentile(p)) / 1e3
                       : kMissing;
        };
        r.i.latenessP99Us = us(99);
        r.i.rssBytes = snap.rssBytes ? static_cast<double>(snap.rssBytes) : kMissing;
        r.i.cpuPercent = secs > 0 ? ProcessSampler::cpuPercent(prevSnap, snap) : kMissing;
        r.i.stealPercent = MachineCpuTicks::stealPercent(prevTicks, ticks);
        r.i.backlog = static_cast<double>(driver.backlog());
        r.p50Us = us(50);
        r.maxUs = hist.count() ? static_cast<double>(hist.max()) / 1e3 : kMissing;
        r.jobs = driver.posted() - prevPosted;
        r.measured = hist.count();
        r.drops = st.expired - prevStats.expired;
        r.late = latenessMisses(hist, cfg.lateLimit.count());
        res.lateness.merge(hist);
        res.rows.push_back(r);
        hist.reset();
        prevSnap = snap;
        prevTicks = ticks;
        prevStats = st;
        prevPosted = driver.posted();
        ++harvested;
        if (onInterval) onInterval(r, harvested, intervals);
    };

    for (std::size_t k = 0; k < intervals && !driver.stopped(); ++k) {
        const Duration base = k * cfg.interval;
        const Duration len = std::min(cfg.interval, cfg.duration - base);
        ArrivalConfig a = cfg.arrivals;
        a.seed += k;
        driver.play(makeTimetable(a, len), base, origin, harvest);
    }
    res.interrupted = driver.stopped();
    while (!res.interrupted && harvested < intervals) {
        const auto due = intervalEnd(harvested);
        const auto now = sched.now();
        if (now < due && stop)
            res.interrupted = stop->sleepFor(due - now);
        else if (now < due)
            std::this_thread::sleep_for(due - now);
        harvest(sched.now());
    }
    res.drained = driver.drain(
        res.interrupted
            ? Duration{200ms}
            : std::max<Duration>(saturatingAdd(cfg.deadlineWindow, cfg.deadlineWindow), 2s));
    if (!res.drained) sched.shutdown(pullsched::ShutdownMode::Cancel);
    const auto total = sched.stats();
    res.posted = driver.posted();
    res.measured = driver.measured();
    res.completed = total.completed;
    res.expired = total.expired;
    res.failed = total.failed;
    res.cancelled = total.cancelled;
    res.generatorCpu = driver.generatorCpu();
    return res;
}

}  // namespace pullsched::rig
