#include <atomic>
#include <stdexcept>
#include <utility>

#include "detail/SchedulerCore.hpp"

// A coroutine's job between two slices (Scheduler::spawn, docs/coroutines.md). A slice
// that suspends asks, from inside the job, to run again once some jobs are final or at a
// time (requestResume); the request waits on the thread until the slice returned, so that
// nothing can resume the coroutine while its thread is still inside it. Then, instead of
// finalising the job, rearm() counts the slice as a job that completed, counts the
// resumption as a job posted, and puts the same record back behind its gate, wired to the
// awaited jobs as a post is to its predecessors. The record, and so the spawn's handle,
// stays pending until the coroutine's last slice; no thread waits meanwhile.

namespace pullsched::detail {

void SchedulerCore::requestResume(JobRecord* job, std::span<const JobHandle> after,
                                  TimePoint start) {
    Resumption* slot = nullptr;
    if (Worker* w = callingWorker()) {
        slot = &w->resume;
    } else if (onOwnWorker()) {
        slot = &tlWorker_.resume;  // a thread helping in drain() or wait() runs the slice
    } else {
        throw std::logic_error(
            "pullsched: a Task suspended outside a job of its scheduler (a Task runs only "
            "as a job: spawn it, or co_await it from a Task)");
    }
    if (slot->job)
        throw std::logic_error("pullsched: a Task suspended twice in one slice of its job");
    *slot = Resumption{job, after, start};
}

/// The order of the steps is the design's:
/// 1. The resumption is counted as posted before the slice is counted as ended, so that
///    drain() and a group's wait() never see the coroutine's count drop to zero while it is
///    suspended (they read the ended counts first, see allFinished).
/// 2. The record gets a closed gate (the guard plus one count per awaited job) and is
///    wired to the awaited jobs; `resuming` keeps their outcomes from dooming it (the
///    coroutine reads them from its handles).
/// 3. Only then is `claimed` cleared and the state set back to Waiting: from here on a
///    cancel() may win the job (until now it was Running, and cancel() returned false). The
///    awaited handles live in the coroutine's frame, which a winning cancel() destroys, so
///    they are not read after this.
/// 4. The guard drops, as a predecessor's notification would: at zero the job is queued,
///    or, if a cancel() won meanwhile and finalised it, the reference it left is dropped.
void SchedulerCore::rearm(JobRecord* job, const Resumption& r, Worker* w, WorkerCounters* own) {
    job->start = r.start;
    job->deadline = kNoDeadline;  // the spawn's deadline was for its start: no slice expires
    if (w && r.start == kAsap) {
        WorkerCounters::bump(w->counters.posted);  // as submit() counts an untimed post
    } else {
        // The timed order's key too. Atomic: handles to the job may check its batch bit.
        std::atomic_ref<std::uint64_t>(job->seq).store(seq_.fetch_add(1, std::memory_order_relaxed),
                                                       std::memory_order_relaxed);
    }
    if (GroupState* g = job->group) {
        g->submitted.fetch_add(1, std::memory_order_seq_cst);
        (void)g->noteEnd(JobState::Completed);  // nobody to wake: the resumption is pending
    }
    WorkerCounters& c = w ? w->counters : own ? *own : external_;
    if (w || own) {
        WorkerCounters::bump(c.completed);
        WorkerCounters::publish(c.ended);
    } else {
        WorkerCounters::add(c.completed);
        WorkerCounters::add(c.ended, 1, std::memory_order_release);
    }

    job->resuming = true;
    auto settle = static_cast<std::int32_t>(1 + r.after.size());
    job->gate.store(settle, std::memory_order_relaxed);
    settle = 1 + wirePredecessors(job, r.after);
    job->claimed.store(false, std::memory_order_relaxed);
    // Released after `claimed`: a cancel() that reads Waiting wins the job.
    job->state.store(JobState::Waiting, std::memory_order_release);
    if (job->gate.fetch_sub(settle, std::memory_order_acq_rel) == settle) {
        if (job->doomed.load(std::memory_order_relaxed)) {
            releaseRef(job);  // cancel()ed meanwhile (only cancel() dooms it): its last hold
        } else {
            releasePosted(job);  // every awaited job had ended already, or a timed resumption
        }
    }
    // The wake check finalize() makes after a job's last push (see release()).
    if (w && std::exchange(w->postedPushes, 0) > 1) wakeForDueWork(w);
}

}  // namespace pullsched::detail
