#include "load/OpenLoadDriver.hpp"

#include <time.h>

#include <algorithm>
#include <thread>

#include "measure/LatencyRecorder.hpp"

namespace pullsched::rig {

OpenLoadDriver::OpenLoadDriver(pullsched::Scheduler& scheduler,
                               const testchain::ComputationalLoad& load, OpenPlayConfig config,
                               const StopRequest* stop)
    : sched_(scheduler), load_(load), cfg_(config), stop_(stop) {}

Duration OpenLoadDriver::threadCpuTime() noexcept {
    timespec ts{};
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return Duration{0};
    return std::chrono::seconds{ts.tv_sec} + Duration{ts.tv_nsec};
}

void OpenLoadDriver::updateBacklog(std::uint64_t notYetDue) noexcept {
    const auto depth = static_cast<std::int64_t>(sched_.queueDepth());
    backlog_.store(std::max<std::int64_t>(0, depth - static_cast<std::int64_t>(notYetDue)),
                   std::memory_order_relaxed);
}

pullsched::TimePoint jobDeadline(pullsched::TimePoint start, Duration window) noexcept {
    return window > Duration{0} ? saturatingAdd(start, window) : pullsched::kNoDeadline;
}

void OpenLoadDriver::play(const ArrivalTimetable& tt, Duration base, pullsched::TimePoint origin,
                          const Tick& tick) {
    const Duration cpu0 = threadCpuTime();
    const auto& offsets = tt.offsets();
    const std::size_t n = offsets.size();
    const Duration jobLoad = cfg_.jobLoad;
    const testchain::ComputationalLoad* load = &load_;
    std::size_t next = 0, due = 0;
    while (n > 0) {
        if (stopRequested()) {
            stopped_ = true;
            break;
        }
        const pullsched::TimePoint now = sched_.now();
        const pullsched::TimePoint horizon = saturatingAdd(now, cfg_.postAhead);
        for (; next < n; ++next) {
            const Duration at = saturatingAdd(base, offsets[next]);
            const pullsched::TimePoint start = saturatingAdd(origin, at);
            if (start > horizon) break;
            const bool measured = at >= cfg_.warmup;
            pullsched::JobOptions o;
            o.start = start;
            o.deadline = jobDeadline(start, cfg_.deadlineWindow);
            o.tag = (measured ? kMeasuredTag : 0) | (posted_ & 0xFFFFFFFFFFull);
            if (start < now) ++postedLate_;
            sched_.postDetached([load, jobLoad] { load->invoke(jobLoad); }, o);
            ++posted_;
            if (measured) ++measured_;
        }
        while (due < next && saturatingAdd(origin, saturatingAdd(base, offsets[due])) <= now)
            ++due;
        updateBacklog(next - due);
        if (tick) tick(now);
        if (next == n && due == n) break;
        // Sleep until the next batch is worth posting, at most one poll period.
        pullsched::TimePoint wakeAt = saturatingAdd(now, cfg_.pollPeriod);
        const auto arrival = [&](std::size_t i) {
            return saturatingAdd(origin, saturatingAdd(base, offsets[i]));
        };
        if (next < n)
            wakeAt = std::min(wakeAt, saturatingAdd(arrival(next), -cfg_.postAhead / 2));
        else
            wakeAt = std::min(wakeAt, arrival(n - 1));
        if (wakeAt > now) std::this_thread::sleep_for(wakeAt - now);
    }
    generatorCpu_ += threadCpuTime() - cpu0;
}

bool OpenLoadDriver::drain(Duration limit, const Tick& tick) {
    const Duration cpu0 = threadCpuTime();
    // Duration::max() means "until drained", not a wrap into the past.
    const auto until = saturatingAdd(pullsched::SteadyClock::now(), limit);
    bool done = false;
    while (true) {
        updateBacklog(0);
        if (tick) tick(sched_.now());
        if (done || stopRequested()) break;
        const auto now = pullsched::SteadyClock::now();
        if (now >= until) break;
        done = sched_.drainFor(std::min<Duration>(cfg_.pollPeriod * 5, until - now));
    }
    generatorCpu_ += threadCpuTime() - cpu0;
    return done;
}

}  // namespace pullsched::rig
