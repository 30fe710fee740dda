#include <stdexcept>

#include "detail/SchedulerCore.hpp"

// Waiting for some jobs (Scheduler::wait): until they are final, the caller helps run
// queued untimed jobs as drain() does (helpUntil), then sleeps on jobEndSignal_. A job
// is marked `waited` under its successor lock, the lock its finalisation stores the final
// state under, so either the waiter sees the state final or the finalisation sees the
// mark and notifies: no wake-up is lost, and jobs nobody waits for pay one byte load.

namespace pullsched::detail {

namespace {

[[noreturn]] void throwWaitInsideJob() {
    throw std::logic_error(
        "pullsched: wait() called from inside a job of the same scheduler for a job "
        "that is not final (the worker would block on work that may need it); wait "
        "outside the jobs, or name the job as a predecessor");
}

bool allFinal(std::span<JobRecord* const> jobs) noexcept {
    for (const JobRecord* job : jobs)
        if (!isFinal(job->state.load(std::memory_order_acquire))) return false;
    return true;
}

bool allFinalOf(const void* jobs) noexcept {
    return allFinal(*static_cast<const std::span<JobRecord* const>*>(jobs));
}

}  // namespace

/// From inside a job of this scheduler (on a worker, or on a thread helping in drain()),
/// a wait for jobs that are not final is refused: the worker would block, and the jobs
/// it waits for may need it (one worker; or every worker waiting). A job's predecessors
/// are final when it runs, so waiting for them (get() on their values) works there.
bool SchedulerCore::waitUntil(std::span<JobRecord* const> jobs, TimePoint steadyDeadline) {
    if (allFinal(jobs)) return true;
    const WaiterInside inside(waitersInside_);
    if (insideJobOfThis()) throwWaitInsideJob();
    for (JobRecord* job : jobs) {
        std::lock_guard lock(job->succLock);
        if (!job->closed) job->waited = true;
    }
    return waitUntilDone({&allFinalOf, &jobs}, steadyDeadline);
}

bool SchedulerCore::waitUntilDone(HelpStop done, TimePoint steadyDeadline) {
    spread_.posterWaits();
    const bool help = helpingAllowed();
    while (true) {
        if (help && helpUntil(steadyDeadline, done)) continue;
        if (help && helpersWakeable_) {  // as drain() does
            if (const auto final = helperSleep(jobEndSignal_, done, steadyDeadline)) return *final;
            continue;
        }
        const WakeSignal::Key key = jobEndSignal_.prepareWait();
        if (done.done(done.context)) {
            jobEndSignal_.cancelWait();
            return true;
        }
        if (SteadyClock::now() >= steadyDeadline) {
            jobEndSignal_.cancelWait();
            return false;
        }
        jobEndSignal_.wait(key, steadyDeadline);
    }
}

namespace {
bool groupDone(const void* group) noexcept {
    return static_cast<const GroupState*>(group)->pending() == 0;
}
}  // namespace

/// A group's waiters announce themselves before they look (both sequentially consistent,
/// as its jobs' ends are counted), so a job that ends meanwhile sees them (endInGroup).
bool SchedulerCore::waitGroupUntil(GroupState& group, TimePoint steadyDeadline) {
    if (group.pending() == 0) return true;
    const WaiterInside inside(waitersInside_);
    if (insideJobOfThis()) throwWaitInsideJob();
    group.waiters.fetch_add(1, std::memory_order_seq_cst);
    struct Leave {
        GroupState& g;
        ~Leave() { g.waiters.fetch_sub(1, std::memory_order_relaxed); }
    } leave{group};
    return waitUntilDone({&groupDone, &group}, steadyDeadline);
}

}  // namespace pullsched::detail
