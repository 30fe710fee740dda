#include "load/SoakRun.hpp"

#include <algorithm>
#include <functional>
#include <thread>

#include "analysis/LatenessMisses.hpp"
#include "analysis/PercentileSupport.hpp"
#include "load/OpenLoadDriver.hpp"
#include "load/SchedulerFactory.hpp"
#include "measure/LatencyRecorder.hpp"
#include "measure/ProcessSampler.hpp"

namespace pullsched::rig {

using namespace std::chrono_literals;

namespace {

/// Closes each interval once its end has passed: the lateness of its jobs, throughput,
/// memory, CPU share, steal time and backlog as one row, each relative to the previous
/// interval's samples. Called by the driver between posts and after the last one.
class IntervalHarvester {
  public:
    using OnInterval = std::function<void(const SoakRow&, std::size_t, std::size_t)>;

    IntervalHarvester(const SoakRunConfig& cfg, pullsched::Scheduler& sched, OpenLoadDriver& driver,
                      LatencyRecorder& recorder, SoakRunResult& res, const OnInterval& onInterval)
        : cfg_(cfg),
          sched_(sched),
          driver_(driver),
          recorder_(recorder),
          res_(res),
          onInterval_(onInterval),
          origin_(sched.now() + 2ms),
          prevSnap_(ProcessSampler::snapshot()),
          prevTicks_(MachineCpuTicks::read()),
          prevStats_(sched.stats()) {}

    pullsched::TimePoint origin() const noexcept { return origin_; }
    bool done() const noexcept { return harvested_ >= res_.plannedIntervals; }

    /// The end of the next interval to close. The sum saturates like every time sum of the
    /// rig; the product cannot overflow: validate() allows at most 10^6 intervals of 1 h.
    pullsched::TimePoint nextEnd() const {
        return saturatingAdd(origin_, cfg_.interval * static_cast<Duration::rep>(harvested_ + 1));
    }

    void operator()(pullsched::TimePoint now) {
        if (done() || now < nextEnd()) return;
        recorder_.harvest(hist_);
        const auto snap = ProcessSampler::snapshot();
        const auto ticks = MachineCpuTicks::read();
        const auto st = sched_.stats();
        const SoakRow r = row(snap, ticks, st);
        res_.lateness.merge(hist_);
        res_.rows.push_back(r);
        hist_.reset();
        prevSnap_ = snap;
        prevTicks_ = ticks;
        prevStats_ = st;
        prevPosted_ = driver_.posted();
        ++harvested_;
        if (onInterval_) onInterval_(r, harvested_, res_.plannedIntervals);
    }

  private:
    SoakRow row(const ProcessSnapshot& snap, const MachineCpuTicks& ticks,
                const pullsched::Statistics& st) const {
        const double secs = std::chrono::duration<double>(snap.wall - prevSnap_.wall).count();
        const auto us = [&](double p) {
            return percentileSupported(p, hist_.count())
                       ? static_cast<double>(hist_.percentile(p)) / 1e3
                       : kMissing;
        };
        SoakRow r;
        r.i.tSeconds = std::chrono::duration<double>((harvested_ + 1) * cfg_.interval).count();
        r.i.throughput =
            secs > 0 ? static_cast<double>(st.completed - prevStats_.completed) / secs : kMissing;
        r.i.latenessP99Us = us(99);
        r.i.rssBytes = snap.rssBytes ? static_cast<double>(snap.rssBytes) : kMissing;
        r.i.cpuPercent = secs > 0 ? ProcessSampler::cpuPercent(prevSnap_, snap) : kMissing;
        r.i.stealPercent = MachineCpuTicks::stealPercent(prevTicks_, ticks);
        r.i.backlog = static_cast<double>(driver_.backlog());
        r.p50Us = us(50);
        r.maxUs = hist_.count() ? static_cast<double>(hist_.max()) / 1e3 : kMissing;
        r.jobs = driver_.posted() - prevPosted_;
        r.measured = hist_.count();
        r.drops = st.expired - prevStats_.expired;
        r.late = latenessMisses(hist_, cfg_.lateLimit.count());
        return r;
    }

    const SoakRunConfig& cfg_;
    pullsched::Scheduler& sched_;
    OpenLoadDriver& driver_;
    LatencyRecorder& recorder_;
    SoakRunResult& res_;
    const OnInterval& onInterval_;
    LatencyHistogram hist_;  // one interval's lateness, reused
    const pullsched::TimePoint origin_;
    std::size_t harvested_ = 0;
    ProcessSnapshot prevSnap_;
    MachineCpuTicks prevTicks_;
    pullsched::Statistics prevStats_;
    std::uint64_t prevPosted_ = 0;
};

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
    IntervalHarvester harvest(cfg, sched, driver, recorder, res, onInterval);

    for (std::size_t k = 0; k < intervals && !driver.stopped(); ++k) {
        const Duration base = k * cfg.interval;
        const Duration len = std::min(cfg.interval, cfg.duration - base);
        ArrivalConfig a = cfg.arrivals;
        a.seed += k;
        driver.play(makeTimetable(a, len), base, harvest.origin(),
                    [&](pullsched::TimePoint now) { harvest(now); });
    }
    res.interrupted = driver.stopped();
    while (!res.interrupted && !harvest.done()) {
        const auto due = harvest.nextEnd();
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
    takeTotals(sched, driver, res);
    return res;
}

}  // namespace pullsched::rig
