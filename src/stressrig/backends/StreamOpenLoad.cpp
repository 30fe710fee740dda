#include "backends/StreamOpenLoad.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <memory>
#include <thread>

#include "analysis/SampleStatistics.hpp"
#include "load/OpenLoadDriver.hpp"
#include "load/StreamIntervals.hpp"
#include "measure/ProcessSampler.hpp"

namespace pullsched::rig {

using pullsched::SteadyClock;
using pullsched::TimePoint;

namespace {

/// What the jobs write: one slot per arrival, each written only by that arrival's job;
/// read after the backend reported every job ended (acquire), so no slot is shared.
struct StreamLedger {
    explicit StreamLedger(std::size_t n)
        : executions(std::make_unique<std::atomic<std::uint32_t>[]>(n)), startNs(n), endNs(n) {
        for (std::size_t i = 0; i < n; ++i)
            executions[i].store(0, std::memory_order_relaxed);
    }
    std::unique_ptr<std::atomic<std::uint32_t>[]> executions;
    std::vector<std::int64_t> startNs, endNs;  ///< since the origin
};

std::int64_t since(TimePoint origin, TimePoint t) {
    return std::chrono::duration_cast<Duration>(t - origin).count();
}

/// Hands every arrival to the backend: a Native backend `ahead` of its intended start,
/// the others when it is due. Returns early (r.interrupted) on a stop request.
void postArrivals(StreamRunner& backend, const std::vector<Duration>& offsets,
                  const StreamRunConfig& cfg, const testchain::ComputationalLoad& load,
                  const StopRequest* stop, TimePoint origin, StreamLedger& ledger,
                  LoadRunResult& r) {
    const std::size_t n = offsets.size();
    const Duration warmup = std::min(cfg.warmup, cfg.duration);
    const bool native = backend.arrivalTimes() == StartTimes::Native;
    const Duration ahead = native ? cfg.postAhead : Duration{0};
    const auto arrival = [&](std::size_t i) { return saturatingAdd(origin, offsets[i]); };
    const Duration jobLoad = cfg.jobLoad;
    std::size_t next = 0;
    while (next < n) {
        if (stop && stop->requested()) {
            r.interrupted = true;
            return;
        }
        const TimePoint now = SteadyClock::now();
        for (; next < n && arrival(next) <= saturatingAdd(now, ahead); ++next) {
            const TimePoint intended = arrival(next);
            if (native && intended < now) ++r.postedLate;
            backend.submit(intended, [&ledger, &load, i = next, origin, jobLoad] {
                ledger.startNs[i] = since(origin, SteadyClock::now());
                ledger.executions[i].fetch_add(1, std::memory_order_relaxed);
                load.invoke(jobLoad);
                ledger.endNs[i] = since(origin, SteadyClock::now());
            });
            ++r.posted;
            if (offsets[next] >= warmup) ++r.measured;
        }
        if (next == n) return;
        // A backend the rig holds the start for is handed its next job when it is due.
        const TimePoint wakeAt =
            std::min(saturatingAdd(now, cfg.pollPeriod),
                     saturatingAdd(arrival(next), native ? -ahead / 2 : Duration{0}));
        if (wakeAt > now) std::this_thread::sleep_until(wakeAt);
    }
}

/// Every arrival's executions and lateness, and the completions inside the measured span
/// [origin + warm-up, measuredEnd] for the achieved rate.
void tally(const std::vector<Duration>& offsets, Duration warmup, TimePoint origin,
           TimePoint measuredEnd, const StreamLedger& ledger, StreamRunResult& out) {
    LoadRunResult& r = out.load;
    r.span = std::max(Duration{0}, saturatingSub(measuredEnd, saturatingAdd(origin, warmup)));
    const std::int64_t spanFrom = warmup.count(), spanTo = since(origin, measuredEnd);
    std::uint64_t endedInSpan = 0;
    out.executions.resize(r.posted);
    out.latenessNs.assign(r.posted, 0);
    for (std::size_t i = 0; i < r.posted; ++i) {
        const std::uint32_t e = ledger.executions[i].load(std::memory_order_relaxed);
        out.executions[i] = e;
        if (e == 0) {
            if (!r.interrupted) ++out.missed;
            continue;
        }
        if (e > 1) ++out.repeated;
        ++r.completed;
        out.latenessNs[i] = ledger.startNs[i] - offsets[i].count();
        if (offsets[i] >= warmup) r.lateness.record(Duration{out.latenessNs[i]});
        if (ledger.endNs[i] >= spanFrom && ledger.endNs[i] <= spanTo) ++endedInSpan;
    }
    r.achievedRate = r.span > Duration{0} ? static_cast<double>(endedInSpan) /
                                                std::chrono::duration<double>(r.span).count()
                                          : kMissing;
}

}  // namespace

StreamRunResult playStream(StreamRunner& backend, const std::vector<Duration>& offsets,
                           const StreamRunConfig& cfg, const testchain::ComputationalLoad& load,
                           const StopRequest* stop) {
    StreamRunResult out;
    out.backend = std::string(backend.name());
    out.arrivalTimes = backend.arrivalTimes();
    LoadRunResult& r = out.load;
    r.method = "open";
    r.offeredRate = cfg.arrivals.meanRate(Duration{0}, cfg.duration);
    StreamLedger ledger(offsets.size());

    backend.start(cfg.workers, cfg.placement);
    const auto s0 = ProcessSampler::snapshot();
    const Duration cpu0 = OpenLoadDriver::threadCpuTime();
    const TimePoint origin = SteadyClock::now() + std::chrono::milliseconds{2};
    const TimePoint end = saturatingAdd(origin, cfg.duration);
    postArrivals(backend, offsets, cfg, load, stop, origin, ledger, r);
    const Duration generatorCpu = OpenLoadDriver::threadCpuTime() - cpu0;
    // The measured span ends with the timetable (or where a stop cut it short).
    while (!r.interrupted && SteadyClock::now() < end) {
        if (stop && stop->requested()) {
            r.interrupted = true;
            break;
        }
        std::this_thread::sleep_for(
            std::min<Duration>(cfg.pollPeriod, saturatingSub(end, SteadyClock::now())));
    }
    const TimePoint measuredEnd = std::min(SteadyClock::now(), end);
    r.drained = backend.drain(
        r.interrupted ? Duration{std::chrono::milliseconds{200}} : cfg.drainLimit, stop);
    const std::uint64_t endedBeforeStop = backend.ended();
    backend.stop();  // skips what has not started; every job has ended after it
    const auto s1 = ProcessSampler::snapshot();
    r.wall = std::chrono::duration_cast<Duration>(s1.wall - s0.wall);
    r.cpuPercent = ProcessSampler::cpuPercent(s0, s1);
    r.generatorCpuPercent = 100.0 * std::chrono::duration<double>(generatorCpu).count() /
                            std::max(1e-9, std::chrono::duration<double>(r.wall).count());
    r.cancelled = r.posted - std::min<std::uint64_t>(r.posted, endedBeforeStop);
    tally(offsets, std::min(cfg.warmup, cfg.duration), origin, measuredEnd, ledger, out);
    if (cfg.interval > Duration{0}) {
        std::vector<StreamJobTimes> jobs(r.posted);
        for (std::size_t i = 0; i < r.posted; ++i)
            jobs[i] = {offsets[i].count(), ledger.startNs[i], ledger.endNs[i],
                       out.executions[i] > 0};
        r.intervals = streamIntervals(jobs, cfg);
    }
    return out;
}

StreamRunResult runStreamOpenLoad(StreamRunner& backend, const StreamRunConfig& cfg,
                                  const testchain::ComputationalLoad& load,
                                  const StopRequest* stop) {
    const ArrivalTimetable tt = makeTimetable(cfg.arrivals, cfg.duration);
    return playStream(backend, tt.offsets(), cfg, load, stop);
}

}  // namespace pullsched::rig
