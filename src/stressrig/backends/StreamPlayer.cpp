#include "backends/StreamPlayer.hpp"

#include <time.h>

#include <algorithm>
#include <functional>
#include <string>
#include <thread>
#include <unordered_map>

namespace pullsched::rig {

using pullsched::SteadyClock;
using pullsched::TimePoint;

pullsched::TimePoint jobDeadline(pullsched::TimePoint start, Duration window) noexcept {
    return window > Duration{0} ? saturatingAdd(start, window) : pullsched::kNoDeadline;
}

Duration threadCpuTime() noexcept {
    timespec ts{};
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return Duration{0};
    return std::chrono::seconds{ts.tv_sec} + Duration{ts.tv_nsec};
}

StreamPlayer::StreamPlayer(StreamRunner& runner, const testchain::ComputationalLoad& load,
                           StreamPlayConfig config, LatencyRecorder& lateness,
                           const StopRequest* stop, std::size_t checkedArrivals)
    : runner_(runner), load_(load), cfg_(config), lateness_(lateness), stop_(stop) {
    // A load without the exactly-once check still counts the runs of its traced arrivals:
    // only an arrival's first run writes its trace slot.
    tracedSlots_ = checkedArrivals > 0 ? std::min(checkedArrivals, config.tracedArrivals)
                                       : config.tracedArrivals;
    countedSlots_ = std::max(checkedArrivals, tracedSlots_);
    executionSlots_ = checkedArrivals;
    if (countedSlots_ > 0) {
        executions_ = std::make_unique<std::atomic<std::uint32_t>[]>(countedSlots_);
        for (std::size_t i = 0; i < countedSlots_; ++i)
            executions_[i].store(0, std::memory_order_relaxed);
    }
    if (tracedSlots_ > 0) traced_ = std::make_unique<TracedRun[]>(tracedSlots_);
    spanUntil_.store(TimePoint::max().time_since_epoch().count(), std::memory_order_relaxed);
}

void StreamPlayer::measureSpan(TimePoint from, TimePoint until) noexcept {
    spanFrom_.store(from.time_since_epoch().count(), std::memory_order_relaxed);
    spanUntil_.store(until.time_since_epoch().count(), std::memory_order_relaxed);
}

void StreamPlayer::endSpanAt(TimePoint until) noexcept {
    spanUntil_.store(until.time_since_epoch().count(), std::memory_order_relaxed);
}

void StreamPlayer::submit(TimePoint start, bool measured, std::function<void()> then) {
    // The arrival's index: closed users submit from their jobs at once, so it is taken here.
    const std::uint64_t index = posted_.fetch_add(1, std::memory_order_relaxed);
    if (measured) measured_.fetch_add(1, std::memory_order_relaxed);
    const TimePoint deadline = jobDeadline(start, cfg_.deadlineWindow);
    // An open load's job carries no continuation: its closure stays small on the hot path.
    if (!then) {
        runner_.submit(start, deadline,
                       [this, start, measured, index] { runJob(start, measured, index); });
        return;
    }
    runner_.submit(start, deadline, [this, start, measured, index, then = std::move(then)] {
        runJob(start, measured, index);
        then();
    });
}

void StreamPlayer::runJob(TimePoint start, bool measured, std::uint64_t index) {
    const TimePoint begun = SteadyClock::now();
    started_.fetch_add(1, std::memory_order_relaxed);
    if (measured) lateness_.record(begun - start);
    const bool firstRun =
        index < countedSlots_ && executions_[index].fetch_add(1, std::memory_order_relaxed) == 0;
    load_.invoke(cfg_.jobLoad);
    // published to the reader by completed_'s release below
    if (firstRun && index < tracedSlots_)
        traced_[index] = {start, begun, SteadyClock::now(),
                          std::hash<std::thread::id>{}(std::this_thread::get_id())};
    // Throughput is completions stamped by the job itself: a thread reading a counter at the
    // span's ends sees them late on a busy machine.
    const auto ended = SteadyClock::now().time_since_epoch().count();
    if (ended >= spanFrom_.load(std::memory_order_relaxed) &&
        ended < spanUntil_.load(std::memory_order_relaxed))
        inSpan_.fetch_add(1, std::memory_order_relaxed);
    completed_.fetch_add(1, std::memory_order_release);
}

void StreamPlayer::submitOne(TimePoint start, bool measured, std::function<void()> then) {
    submit(start, measured, std::move(then));
}

void StreamPlayer::updateBacklog(std::uint64_t due) noexcept {
    const std::uint64_t begun =
        started_.load(std::memory_order_relaxed) + runner_.expired() + runner_.skipped();
    backlog_.store(static_cast<std::int64_t>(due > begun ? due - begun : 0),
                   std::memory_order_relaxed);
}

void StreamPlayer::refreshBacklog() noexcept {
    updateBacklog(posted());
}

void StreamPlayer::play(const std::vector<Duration>& offsets, Duration base, TimePoint origin,
                        const Tick& tick) {
    const Duration cpu0 = threadCpuTime();
    const std::size_t n = offsets.size();
    const bool native = runner_.arrivalTimes() == StartTimes::Native;
    const Duration ahead = native ? cfg_.postAhead : Duration{0};
    const auto arrival = [&](std::size_t i) {
        return saturatingAdd(origin, saturatingAdd(base, offsets[i]));
    };
    const std::uint64_t before = posted();  // arrival before + i is offsets[i]
    std::size_t next = 0, due = 0;
    while (n > 0) {
        if (stopRequested()) {
            stopped_ = true;
            break;
        }
        const TimePoint now = SteadyClock::now();
        for (; next < n && arrival(next) <= saturatingAdd(now, ahead); ++next) {
            const TimePoint start = arrival(next);
            // A native backend should have had it ahead; the others get it when it is due.
            if (native && start < now) ++postedLate_;
            submit(start, saturatingAdd(base, offsets[next]) >= cfg_.warmup, {});
        }
        while (due < next && arrival(due) <= now)
            ++due;
        updateBacklog(before + due);
        if (tick) tick(now);
        if (next == n && due == n) break;
        TimePoint wakeAt = saturatingAdd(now, cfg_.pollPeriod);
        if (next < n)
            wakeAt = std::min(wakeAt, saturatingAdd(arrival(next), -ahead / 2));
        else
            wakeAt = std::min(wakeAt, arrival(n - 1));
        if (wakeAt > now) std::this_thread::sleep_until(wakeAt);
    }
    generatorCpu_ += threadCpuTime() - cpu0;
}

bool StreamPlayer::drain(Duration limit, const Tick& tick) {
    const Duration cpu0 = threadCpuTime();
    // Duration::max() means "until drained", not a wrap into the past.
    const TimePoint until = saturatingAdd(SteadyClock::now(), limit);
    bool done = false;
    while (true) {
        refreshBacklog();
        if (tick) tick(SteadyClock::now());
        if (done || stopRequested()) break;
        const TimePoint now = SteadyClock::now();
        if (now >= until) break;
        done = runner_.drain(std::min<Duration>(cfg_.pollPeriod * 5, until - now), stop_);
    }
    generatorCpu_ += threadCpuTime() - cpu0;
    return done;
}

std::uint64_t StreamPlayer::missedArrivals() const {
    std::uint64_t never = 0;
    const std::size_t n = std::min<std::size_t>(executionSlots_, posted());
    for (std::size_t i = 0; i < n; ++i)
        never += executions_[i].load(std::memory_order_relaxed) == 0;
    const std::uint64_t explained = runner_.expired() + runner_.skipped();
    return never > explained ? never - explained : 0;
}

std::uint64_t StreamPlayer::repeatedArrivals() const {
    std::uint64_t twice = 0;
    const std::size_t n = std::min<std::size_t>(executionSlots_, posted());
    for (std::size_t i = 0; i < n; ++i)
        twice += executions_[i].load(std::memory_order_relaxed) > 1;
    return twice;
}

std::vector<MeasuredJob> StreamPlayer::tracedJobs() const {
    std::vector<MeasuredJob> jobs;
    const std::size_t n = std::min<std::size_t>(tracedSlots_, posted());
    for (std::size_t i = 0; i < n; ++i)
        if (traced_[i].begun != TimePoint{}) {
            MeasuredJob j;
            j.id = i;
            j.name = "arrival " + std::to_string(i);
            j.scheduledStart = traced_[i].intended;
            j.actualStart = traced_[i].begun;
            j.end = traced_[i].ended;
            jobs.push_back(std::move(j));
        }
    std::sort(jobs.begin(), jobs.end(), [](const MeasuredJob& a, const MeasuredJob& b) {
        return a.actualStart < b.actualStart;
    });
    std::unordered_map<std::size_t, unsigned> lanes;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        const std::size_t thread = traced_[jobs[i].id].thread;
        jobs[i].worker =
            lanes.try_emplace(thread, static_cast<unsigned>(lanes.size())).first->second;
    }
    return jobs;
}

}  // namespace pullsched::rig
