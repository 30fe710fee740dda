#include <algorithm>
#include <vector>

#include "detail/SchedulerCore.hpp"

// Accounting and observation: when every posted job ended (drain()), the statistics, the
// queue depth and the trace dump.

namespace pullsched::detail {

/// Jobs whose finalisation ended, over every worker and the outside threads (acquire:
/// their final states and releases are visible).
std::uint64_t SchedulerCore::finishedCount() const noexcept {
    std::uint64_t n = 0;
    auto add = [&n](const WorkerCounters& c) { n += c.ended.load(std::memory_order_acquire); };
    for (const auto& w : workers_)
        add(w->counters);
    add(external_);
    for (const HelperCounters& h : helperCounters_)
        add(h.counters);
    return n;
}

/// Jobs posted: seq_ and the untimed posts the workers' jobs made (see submit()).
std::uint64_t SchedulerCore::submittedCount() const noexcept {
    std::uint64_t n = seq_.load(std::memory_order_acquire);
    for (const auto& w : workers_)
        n += w->counters.posted.load(std::memory_order_acquire);
    return n;
}

/// Every job posted so far is final. The finished count is read first: a job is counted
/// as posted before it can finish (on a worker's line: before it is queued, and its end
/// is published with release after that), so a later read of the posted counts is never
/// smaller, and equality means none of the jobs posted up to that read is still open.
bool SchedulerCore::allFinished() const noexcept {
    const std::uint64_t finished = finishedCount();
    return finished == submittedCount();
}

/// Wake drain() if it waits and nothing is left. Called by a worker that finished jobs
/// when it runs out of work, and after a finalisation on another thread: a per-job shared
/// counter of open jobs would cost the poster and every worker a contended atomic per job.
/// drain() announces itself before it counts, this runs after the counting stores (both
/// sequentially consistent), so either drain() sees the last job final or we see drain().
void SchedulerCore::notifyDrainIfDone() noexcept {
    if (drainSignal_.hasWaiters() && allFinished()) drainSignal_.notifyAll();
}

void SchedulerCore::bump(Worker* w, WorkerCounters::Counter WorkerCounters::*c,
                         std::uint64_t by) noexcept {
    if (w) {
        WorkerCounters::bump(w->counters.*c, by);
    } else {
        WorkerCounters::add(external_.*c, by);
    }
}

void SchedulerCore::noteQueueDepth() noexcept {
    const std::uint64_t depth = queueDepth();
    std::uint64_t seen = maxQueueDepth_.load(std::memory_order_relaxed);
    while (depth > seen &&
           !maxQueueDepth_.compare_exchange_weak(seen, depth, std::memory_order_relaxed)) {
    }
}

std::uint64_t SchedulerCore::queueDepth() const noexcept {
    auto depth = static_cast<std::uint64_t>(
        std::max<std::int64_t>(0, queued_.load(std::memory_order_relaxed)));
    depth += helperPosted_.size();
    for (const auto& w : workers_)
        depth += w->own.size() + w->posted.size();
    return depth;
}

Statistics SchedulerCore::stats() const {
    Statistics s;
    auto add = [&s](const WorkerCounters& c) {
        auto v = [](const WorkerCounters::Counter& x) { return x.load(std::memory_order_acquire); };
        s.completed += v(c.completed);
        s.failed += v(c.failed);
        s.expired += v(c.expired);
        s.cancelled += v(c.cancelled);
        s.dispatches += v(c.dispatches);
        s.continuations += v(c.continuations);
        s.tokenAcquisitions += v(c.tokenAcquisitions);
        s.tokenContention += v(c.tokenContention);
        s.backoffSleeps += v(c.backoffSleeps);
        s.backoffSleepTime += Duration(static_cast<Duration::rep>(v(c.backoffSleepNs)));
        s.parks += v(c.parks);
        s.wakeups += v(c.wakeups);
        s.steals += v(c.steals);
        s.spreadMoves += v(c.spreadMoves);
        s.spreadSteers += v(c.spreadSteers);
        s.observerExceptions += v(c.observerExceptions);
    };
    // Ended first, then outcomes, then submitted (see allFinished): a job is counted in its
    // outcome before it ends, so pending = submitted - ended never undercounts, and a job
    // finishing meanwhile shows as both pending and done rather than as neither.
    const std::uint64_t ended = finishedCount();
    for (const auto& w : workers_)
        add(w->counters);
    add(external_);
    for (const HelperCounters& h : helperCounters_)
        add(h.counters);
    s.submitted = submittedCount();
    s.pending = s.submitted - ended;
    s.tokenHolderWaits = tokenHolderWaits_.load(std::memory_order_relaxed);
    s.queueDepth = queueDepth();
    s.maxQueueDepth = std::max(maxQueueDepth_.load(std::memory_order_relaxed), s.queueDepth);
    s.jobRecords = pool_->capacity();
    return s;
}

bool SchedulerCore::writeTraceDump(std::ostream& out) const {
#if PULLSCHED_TRACE
    std::vector<const TraceBuffer*> buffers;
    for (const auto& w : workers_)
        buffers.push_back(&w->trace);
    ::pullsched::detail::writeTraceDump(out, buffers);
    return true;
#else
    (void)out;
    return false;
#endif
}

}  // namespace pullsched::detail
