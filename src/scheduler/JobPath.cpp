#include <utility>

#include "detail/SchedulerCore.hpp"
#include "pullsched/scheduler/Observer.hpp"

// A job's path through the scheduler: queueing a job whose gate opened, a worker's pull
// loop, running a job and finalising it (which opens its successors' gates). Kept in one
// translation unit so that the per-job steps (takeUntimed, run, finalize, release) can be
// inlined into the loop.

namespace pullsched::detail {

namespace {

/// Every this many takes a worker looks at the shared ready queue before its own, and
/// takes its own queue's oldest job before the newest of its jobs' posts (see
/// takeUntimed). An argument, not a measurement: the look costs a lock and a batch move,
/// so it must be rare next to a job (~30-100 ns each here); 64 bounds how many own-queue
/// jobs a post from another thread may wait behind to about 64 job lengths per worker,
/// which the fairness test observes ("within a few dozen jobs"; docs/scheduler.md, "Taking
/// untimed work"). No other period was measured.
constexpr std::uint32_t kFairnessPeriod = 64;

}  // namespace

/// The gate opened and no predecessor failed: queue the job. Timed jobs always go
/// through the time-ordered queue, even when already due, so they leave in (start,
/// sequence) order. Untimed ones released by a worker run next on it (the continuation)
/// or go to its own queue, where other workers steal them; untimed ones released
/// elsewhere (a post from another thread) take the shared FIFO, except the first a thread
/// in drain() releases: its continuation (see runOnCaller). (Untimed posts from a job on
/// a worker take that worker's `posted` queue: releasePosted.)
///
/// The first push onto the worker's queues since its last finalisation (a release here,
/// or a post from the job it runs) checks for a sleeper to wake at once, so that a wide
/// fan-out is shared while it is still being released (10 000 releases take about a
/// millisecond); later pushes only count, and finalize() checks once more after the last
/// of them (see there).
/// The workers' queues are not counted in queued_ (a shared counter): queueDepth() adds
/// their sizes.
void SchedulerCore::release(JobRecord* job, Worker* w, std::uint32_t& ownPushes) {
    job->state.store(JobState::Scheduled, std::memory_order_relaxed);
    if (job->start != kAsap) {
        pushTimed(job, w);
    } else if (!w) {
        if (tlWorker_.core == this && !tlWorker_.worker && !tlWorker_.helperLocal) {
            tlWorker_.helperLocal = job;  // released by a job a thread in drain() ran
        } else {
            pushReady(job, w);
        }
    } else if (!w->local) {
        w->local = job;  // run it next on this worker: no queue round-trip
    } else {
        w->own.push(job);  // uncontended unless somebody steals right now
        if (ownPushes++ == 0) wakeForDueWork(w);
    }
}

void SchedulerCore::releasePosted(JobRecord* job) {
    if (Worker* w = callingWorker(); w && job->start == kAsap) {
        // Posted from a job (or an observer callback) on worker w: it stays with w, which
        // takes the newest first; idle workers steal the oldest (see takeUntimed, steal).
        job->state.store(JobState::Scheduled, std::memory_order_relaxed);
        w->posted.push(job);
        if (w->postedPushes++ == 0) wakeForDueWork(w);
        return;
    }
    if (onOwnWorker() && job->start == kAsap) {  // from a job a thread in drain() runs
        job->state.store(JobState::Scheduled, std::memory_order_relaxed);
        helperPosted_.push(job);
        if (tlWorker_.helperPushes++ == 0) wakeForDueWork(nullptr);
        return;
    }
    std::uint32_t ownPushes = 0;  // unused: no worker, no own queue
    release(job, nullptr, ownPushes);
}

void SchedulerCore::pushReady(JobRecord* job, Worker* w) {
    queued_.fetch_add(1, std::memory_order_relaxed);
    ready_.push(job);
    wakeForDueWork(w);
}

/// A timed job goes through the entrance to the time queue; whom it wakes to groom it in
/// is the WakeProtocol's decision (onTimedPost).
void SchedulerCore::pushTimed(JobRecord* job, Worker* w) {
    // Read the job before pushing it: once pushed, a worker may run and recycle it.
    const std::int64_t start = WakeProtocol::ticks(job->start);
    const bool due = job->start <= now();
    queued_.fetch_add(1, std::memory_order_relaxed);
    entrance_.push(job);
    wakeForTimedPost(due, start, w);
}

void SchedulerCore::wakeForTimedPost(bool due, std::int64_t start, Worker* w) {
    using Wake = WakeProtocol::TimedPostWake;
    switch (WakeProtocol::onTimedPost(due, start, wake_.tendTargetAfterPublish())) {
        case Wake::DueWork:
            wakeForDueWork(w);  // somebody must groom it in now
            break;
        case Wake::ParkedToTend:
            if (wake_.notifyParked()) bump(w, &WorkerCounters::wakeups);
            break;
        case Wake::Tender:
            notifyTender(w);
            break;
        case Wake::Nobody:
            break;
    }
}

// ---------------------------------------------------------------- the pull loop

/// Take a job and run it; with none, groom the time queue and, with nothing due, wait as
/// the LoadController and the WakeProtocol decide. What one round tells the next lives on
/// this stack: how the last wait ended (`last`, see WakeProtocol::WaitEnd) and whether this
/// worker groomed since it last looked for work (`groomed`, see takeDue).
void SchedulerCore::workerLoop(Worker& w) {
    markWorkerThread(&w);
    spread_.attach(w.index);
    RecordCache::bind(&w.cache);
    struct Unbind {  // the cache goes back to the pool with the thread, however it ends
        const SchedulerCore& core;
        Worker& w;
        ~Unbind() {
            RecordCache::bind(nullptr);
            w.cache.flush();
            core.markWorkerThread(nullptr);
        }
    } unbind{*this, w};
    // Whether this worker finished a job since it last asked: its own `ended` count moved.
    auto finishedSinceCheck = [&w, seen = std::uint64_t{0}]() mutable {
        const std::uint64_t ended = w.counters.ended.load(std::memory_order_relaxed);
        return std::exchange(seen, ended) != ended;
    };
    WaitEnd last;
    bool groomed = false;
    while (true) {
        if (stopping_.load(std::memory_order_relaxed)) {
            if (w.local) {  // handed back, so that shutdown cancels it
                queued_.fetch_add(1, std::memory_order_relaxed);
                ready_.push(std::exchange(w.local, nullptr));
            }
            break;
        }
        const bool groomedSinceLook = std::exchange(groomed, false);
        const bool woken = std::exchange(last.woken, false);
        JobRecord* job = std::exchange(w.local, nullptr);
        if (job) {
            WorkerCounters::bump(w.counters.continuations);
        } else if (!(job = takeUntimed(w))) {
            job = takeDue(groomedSinceLook);
        }
        if (job && woken) passWakeOn(w);
        if (job) {
            last.quiet = false;
            run(job, w);
            w.backoff.onSuccess();
            if (++w.ran % CpuSpread::kCheckPeriod == 0) spreadCheck(w);
            continue;
        }
        if (finishedSinceCheck()) {  // a busy spell ended
            notifyDrainIfDone();
            spread_.idle(w.index);
        }

        const GroomResult g = groom(w, last.sleptToHead);
        if (g.contended) {
            // Due work waits behind the holder's hand-out: take it then, no backoff.
            if (due_.empty()) backoff(w);
            continue;
        }
        w.backoff.onSuccess();
        groomed = true;
        if (g.moved > 0) continue;
        // Jobs that expired in this grooming pass were finalised here: they may have been
        // the last ones drain() waits for, and this worker is about to wait itself.
        if (finishedSinceCheck()) notifyDrainIfDone();
        last = waitForWork(g, std::exchange(last.sleptToHead, false), last.quiet, w);
    }
}

/// An untimed job: the newest its jobs posted (depth first), else the oldest of its own
/// queue, else the shared FIFO (see takeShared), else stolen from another worker (the
/// oldest there). Every kFairnessPeriod-th take first moves a batch from the shared FIFO
/// to the back of the own queue and takes the own queue's oldest job, so neither a worker
/// busy with its own releases nor one deep in a recursion its jobs post can starve posts
/// from other threads (or released jobs), and posts keep their order (they wait behind
/// the older jobs already moved).
JobRecord* SchedulerCore::takeUntimed(Worker& w) {
    JobRecord* job = nullptr;
    if (++w.takes % kFairnessPeriod == 0) {
        admitShared(w);
        if (w.own.pop(job)) return job;
    }
    if (w.posted.popNewest(job)) return job;  // the common cases, kept small
    if (w.own.pop(job)) return job;
    if ((job = takeShared(w))) return job;
    return steal(w);
}

void SchedulerCore::run(JobRecord* job, Worker& w) {
    if (!claimQueued(job)) return;  // cancelled while queued, and already final
    if (groupCancelled(job)) {
        finalize(job, JobState::Cancelled, &w);
        return;
    }
    const bool timed = observer_ || job->deadline != kNoDeadline;
    const TimePoint t = timed ? now() : TimePoint{};
    if (job->deadline != kNoDeadline && t > job->deadline) {
        PULLSCHED_TRACE_POINT(w.trace, t, Expired, job->tag);
        finalize(job, JobState::Expired, &w);
        return;
    }
    job->state.store(JobState::Running, std::memory_order_relaxed);
    WorkerCounters::bump(w.counters.dispatches);
    PULLSCHED_TRACE_POINT(w.trace, now(), Dispatch, job->tag);
    observe(w, [&](Observer& o) {
        o.onJobStart(w.index, {job->tag, job->start, job->deadline, t});
    });

    JobState outcome = JobState::Completed;
    try {
        job->task();
    } catch (...) {
        job->error = std::current_exception();  // published by the state store in finalize
        outcome = JobState::Failed;
    }
    observe(w, [&](Observer& o) {
        o.onJobEnd(w.index, {job->tag, job->start, job->deadline, now()});
    });
    if (w.resume.job) [[unlikely]] {  // a coroutine's slice suspended: it runs again later
        const Resumption r = std::exchange(w.resume, Resumption{});
        if (r.job == job && outcome == JobState::Completed) return rearm(job, r, &w, nullptr);
    }
    finalize(job, outcome, &w);
}

namespace {

/// Whether the one count left in `s`'s gate is this finalisation's: then a store takes it
/// off instead of a read-modify-write (every release in a chain whose handles are gone).
/// The gate counts the decrements still to come, and only cancel() adds to it, through a
/// handle; with the scheduler's the only reference to `s` there is no handle, so nobody
/// else touches the gate. The acquire loads see the handle's last use and the earlier
/// predecessors' doomed marks, as the read-modify-write would.
bool lastGateCount(const JobRecord* s) noexcept {
    return soleReference(s) && s->gate.load(std::memory_order_acquire) == 1;
}

}  // namespace

/// A job reached its final state: count it, close its successor list and notify the
/// successors' gates. Cancellation cascades through a work list, not recursion, so a
/// failed head of a 100k-job chain cannot overflow the stack.
void SchedulerCore::finalize(JobRecord* job, JobState outcome, Worker* w, WorkerCounters* own) {
    JobRecord* cascade = nullptr;
    // Jobs this finalisation pushed onto the worker's own queue, and the job's posts onto
    // its `posted` queue before it (see release()).
    std::uint32_t ownPushes = w ? std::exchange(w->postedPushes, 0) : 0;
    while (job) {
        job->task.releaseCallable();  // captured resources go now, not when the record is reused
        // Counted before the final state is stored: whoever sees the state final (a
        // handle) also sees the job counted in stats().
        WorkerCounters& c = w ? w->counters : own ? *own : external_;
        auto* counter = outcome == JobState::Completed ? &c.completed
                        : outcome == JobState::Failed  ? &c.failed
                        : outcome == JobState::Expired ? &c.expired
                                                       : &c.cancelled;
        if (w || own) {
            WorkerCounters::bump(*counter);
        } else {
            WorkerCounters::add(*counter);
        }
        bool waited = false;
        if (soleReference(job)) {
            // No handle: nobody else can name it as a predecessor or wait for it, so
            // nobody else takes its lock.
            job->state.store(outcome, std::memory_order_release);
            job->closed = true;
        } else {
            std::lock_guard lock(job->succLock);
            job->state.store(outcome, std::memory_order_release);
            job->closed = true;
            waited = job->waited;
        }
        if (waited) jobEndSignal_.notifyAll();  // wait() for this job (see Waiting.cpp)
        if (job->group) endInGroup(job, outcome);
        const bool ok = outcome == JobState::Completed;
        job->forEachSuccessor([&](JobRecord* s) {
            if (!ok && !s->resuming) s->doomed.store(true, std::memory_order_relaxed);
            const std::int32_t left = lastGateCount(s)
                                          ? (s->gate.store(0, std::memory_order_relaxed), 0)
                                          : s->gate.fetch_sub(1, std::memory_order_acq_rel) - 1;
            if (w) PULLSCHED_TRACE_POINT(w->trace, now(), GateNotify, left);
            if (left == 0) {
                if (s->doomed.load(std::memory_order_relaxed)) {
                    if (isFinal(s->state.load(std::memory_order_acquire))) {
                        releaseRef(s);  // cancel()ed while it waited: its record's last hold
                        return;
                    }
                    s->link = std::exchange(cascade, s);  // alive: the scheduler's reference
                } else {
                    release(s, w, ownPushes);
                }
            }
            // s is not touched past this point: once its gate opened elsewhere, it may run
            // and end at any moment.
        });
        // One more wake check for what this job posted and released onto the worker's
        // queues after the first push (a fence and three loads, or a futex wake): per
        // batch, not per job. The jobs are already visible to thieves and spinners; this check
        // follows the last push, so a worker that parked meanwhile is not left asleep.
        if (w && std::exchange(ownPushes, 0) > 1) wakeForDueWork(w);
        JobRecord* done = job;
        job = nullptr;
        if (cascade) {
            job = std::exchange(cascade, cascade->link);
            job->link = nullptr;
            outcome = JobState::Cancelled;
        }
        releaseRef(done);  // the scheduler's reference
        // Ended last, with release: drain() takes "every posted job ended" to mean that
        // every final state is stored, every successor released and the scheduler's
        // reference dropped, so that a value whose handles are gone is destroyed by then
        // (see allFinished). A worker's loop also reads its own count to tell that a busy
        // spell ended.
        if (w || own) {
            WorkerCounters::publish(c.ended);
        } else {
            WorkerCounters::add(c.ended, 1, std::memory_order_release);
        }
    }
    // A worker checks when it runs out of work, a helping thread when it stops helping.
    if (!w && !own) notifyDrainIfDone();
}

}  // namespace pullsched::detail
