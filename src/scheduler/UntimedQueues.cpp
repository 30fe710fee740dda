#include <array>

#include "detail/SchedulerCore.hpp"
#include "pullsched/scheduler/detail/CpuRelax.hpp"

// The untimed queues: the shared FIFO (posts from outside the workers) and the workers'
// own queues (what a worker's jobs released), with batch moves between them and steals.

namespace pullsched::detail {

namespace {

/// At most this many jobs move in one steal (half of the victim's queue, at least one),
/// and in one batch from the shared FIFO. Measured as a whole, not per value: a thief that
/// took one job per scan paid the scan per job (Isolated10k: ~45 % of the jobs stolen);
/// batches of the oldest half up to 32 cut the workers' instructions 8-10 %
/// (docs/decisions.md, "One wake check per finalised job, ... steals in batches"). 32
/// itself is an argument: 256 bytes of pointers on the stack, and half a queue is rarely
/// larger while a poster streams (kSharedFull is 16). No other cap was measured.
constexpr std::size_t kStealBatch = 32;
/// How an idle worker lets the shared FIFO fill while a poster streams (see takeShared):
/// measured (commit b9e623f, docs/decisions.md, "The shared FIFO taken in batches"):
/// a look every 0.3 us, at most 8 looks (2.4 us), done at 16 queued jobs (two cache
/// lines of the ring). Measured on 10 000 isolated posts (ns/job, post and drain): 310
/// taking each job at once; 360-440 taking batches without looking; 145-160 looking every
/// 0.3 us up to 8 jobs, 140 every 0.6 us, 128-139 every 0.3 us up to 16.
constexpr Duration kSharedLook = std::chrono::nanoseconds(300);
constexpr unsigned kSharedLooks = 8;
constexpr std::size_t kSharedFull = 16;

}  // namespace

/// Untimed jobs from the shared FIFO (posts from other threads and from jobs), for a
/// worker with nothing else to do. A thread that posts a stream of them writes the FIFO's
/// lines while an idle worker that takes each job at once reads them: every post then
/// cost the poster cache misses on lines the worker had just touched (10 000 isolated
/// posts: ~300 ns per post with a worker taking, 60 ns without). So the worker lets the
/// FIFO fill while it is still growing: it looks again every kSharedLook, until
/// kSharedFull jobs are queued, the count stood still for one look (the poster paused, or
/// posted one job), or kSharedLooks looks passed; then it takes a batch, half of what is
/// there and at most kStealBatch, onto its own queue, where the other workers steal. A
/// lone post waits one look (0.3 us) longer than before; a stream is taken in batches.
JobRecord* SchedulerCore::takeShared(Worker& w) {
    std::size_t seen = ready_.size();
    if (seen == 0) return nullptr;
    for (unsigned look = 0; look < kSharedLooks && seen < kSharedFull; ++look) {
        const TimePoint until = SteadyClock::now() + kSharedLook;
        while (SteadyClock::now() < until)
            cpuRelax();
        const std::size_t now = ready_.size();
        if (now == seen) break;
        seen = now;
    }
    std::array<JobRecord*, kStealBatch> batch;
    const std::size_t got = popSharedBatch(batch.data(), batch.size());
    if (got == 0) return nullptr;
    if (got > 1) w.own.pushAll(batch.data() + 1, got - 1);
    return batch[0];
}

/// A batch from the shared FIFO to the back of this worker's own queue (see takeUntimed).
void SchedulerCore::admitShared(Worker& w) {
    std::array<JobRecord*, kStealBatch> batch;
    if (const std::size_t got = popSharedBatch(batch.data(), batch.size()))
        w.own.pushAll(batch.data(), got);
}

/// The oldest half of the shared FIFO (at most `max`), taken off queued_: own queues
/// count themselves (see queueDepth).
std::size_t SchedulerCore::popSharedBatch(JobRecord** out, std::size_t max) {
    const std::size_t got = ready_.popHalf(out, max);
    if (got > 0) queued_.fetch_sub(got, std::memory_order_relaxed);
    return got;
}

/// Steal from another worker, trying each once: the oldest half of the jobs in its own
/// queue, else in its `posted` queue (at most kStealBatch) in one lock. The first runs
/// now, the rest go onto this worker's queue of the same kind (empty: it steals only
/// then; the rest of a stolen recursion is taken newest first, like this worker's own
/// posts), so a worker that lives on steals pays one steal scan per batch instead of one
/// per job. The batch is copied out before this worker's lock is taken, so two workers
/// stealing from each other cannot deadlock.
JobRecord* SchedulerCore::steal(Worker& w) {
    std::array<JobRecord*, kStealBatch> batch;
    const std::size_t n = workers_.size();
    for (std::size_t i = 1; i < n; ++i) {
        Worker& victim = *workers_[(w.index + i) % n];
        for (ReadyQueue Worker::*queue : {&Worker::own, &Worker::posted}) {
            const std::size_t got = (victim.*queue).popHalf(batch.data(), batch.size());
            if (got == 0) continue;
            if (got > 1) (w.*queue).pushAll(batch.data() + 1, got - 1);
            WorkerCounters::bump(w.counters.steals, got);
            return batch[0];
        }
    }
    // What jobs run by threads in drain() posted: like a victim's `posted` queue.
    if (const std::size_t got = helperPosted_.popHalf(batch.data(), batch.size())) {
        if (got > 1) w.posted.pushAll(batch.data() + 1, got - 1);
        WorkerCounters::bump(w.counters.steals, got);
        return batch[0];
    }
    return nullptr;
}

/// A helping thread's steal: the oldest half (at most kStealBatch) of the first worker's
/// queue that has jobs (own queue first, then its jobs' posts), in one lock. The first runs
/// now, the rest go onto helperPosted_, which the helpers take next and idle workers steal.
/// One job per lock, as the helper took before, made a gate's fan-out a lock ping-pong:
/// the worker pushing each released job, the helper popping each (a timed gate before
/// 10 000 isolated jobs, 1 worker + the caller: ~100 ns per job against a batch's ~22).
JobRecord* SchedulerCore::stealForHelper() {
    std::array<JobRecord*, kStealBatch> batch;
    for (const auto& w : workers_) {
        for (ReadyQueue Worker::*queue : {&Worker::own, &Worker::posted}) {
            const std::size_t got = ((*w).*queue).popHalf(batch.data(), batch.size());
            if (got == 0) continue;
            if (got > 1) helperPosted_.pushAll(batch.data() + 1, got - 1);
            return batch[0];
        }
    }
    return nullptr;
}

/// Some untimed job is queued (shared FIFO, any worker's queues, or the helpers' posts).
bool SchedulerCore::untimedQueued() const noexcept {
    if (!ready_.empty() || !helperPosted_.empty()) return true;
    for (const auto& other : workers_)
        if (!other->own.empty() || !other->posted.empty()) return true;
    return false;
}

}  // namespace pullsched::detail
