#include <thread>

#include "detail/SchedulerCore.hpp"

// Cancelling one job that has not started (Scheduler::cancel). The job may be anywhere:
// behind its closed gate, or queued (the time queue, a ready queue, a continuation). It
// is never taken out of a queue: the time queue's (start, sequence) order and its
// grooming-token protocol stay as they are, and no queue needs a remove operation.
//
// Exactly one of cancel() and the thread that takes the job from its queue (to run or
// expire it, or shutdown() to cancel it) wins the job's `claimed` flag (claimQueued).
// Before it claims, cancel() takes a reference for the queue entry: when it wins, it
// finalises the job at once (counted Cancelled, dependents cancelled, waiters woken) and
// the entry stays behind as a tombstone, which whoever pops it drops with that reference.
// A cancelled timed job thus holds its record until its start time passes.

namespace pullsched::detail {

bool SchedulerCore::cancel(JobRecord* job) {
    const JobState seen = job->state.load(std::memory_order_acquire);
    if (seen == JobState::Running || isFinal(seen)) return false;
    addRef(job);  // for the queue entry, should the job be queued
    if (job->claimed.exchange(true, std::memory_order_acq_rel)) {
        releaseRef(job);  // a worker took it first (or another cancel() did)
        return false;
    }
    // Still behind its gate? Hold it shut and finalise the job now; its predecessors
    // still list it, so the record lives on (our reference) until the last of them
    // notified it: that one finds it doomed and final, and drops the reference.
    if (job->gate.fetch_add(1, std::memory_order_acq_rel) > 0) {
        job->doomed.store(true, std::memory_order_relaxed);
        finalize(job, JobState::Cancelled, nullptr);
        if (job->gate.fetch_sub(1, std::memory_order_acq_rel) == 1) releaseRef(job);
        return true;
    }
    job->gate.fetch_sub(1, std::memory_order_relaxed);  // it had opened: nobody else counts
    // Its gate opened: the opener marks it Scheduled as it queues it (its next step), or
    // cancels it as doomed. Wait for that, so that no store overwrites the final state.
    JobState now;
    while ((now = job->state.load(std::memory_order_acquire)) == JobState::Waiting)
        std::this_thread::yield();
    if (isFinal(now)) {
        releaseRef(job);  // doomed by a predecessor and finalised: it did not run either
        return true;
    }
    finalize(job, JobState::Cancelled, nullptr);  // the queue entry keeps our reference
    return true;
}

}  // namespace pullsched::detail
