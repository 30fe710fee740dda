#include <thread>
#include <utility>

#include "detail/FanOutLookAhead.hpp"
#include "detail/SchedulerCore.hpp"
#include "pullsched/scheduler/Observer.hpp"
#include "pullsched/scheduler/detail/CpuRelax.hpp"

// The time queue's side: grooming (the grooming token's holder sorts the entrance into
// the time queue and hands what is due to the due queue) and taking a due job.

namespace pullsched::detail {

namespace {

/// Pauses before a worker waiting for a hand-out yields (see awaitHandOuts): a hand-out is
/// a due-queue push and a counter, a few hundred nanoseconds, so 64 pauses (~2 us here)
/// cover it unless the groomer was preempted, and then yielding lets it run. An argument,
/// as for SpinLock's 64; not measured.
constexpr unsigned kHandOutPauses = 64;

}  // namespace

/// The smallest due timed job, unless one with a smaller key may still be on its way:
/// posted (in the entrance, which grooming sorts in first) or in a grooming pass's hands.
/// `groomedSinceLook`: this worker emptied the entrance after it last looked for work, so
/// what is there now was posted meanwhile and may wait (else a stream of posts could
/// keep every worker grooming and none taking).
JobRecord* SchedulerCore::takeDue(bool groomedSinceLook) {
    if (due_.empty()) return nullptr;
    if (!groomedSinceLook && !entrance_.empty()) return nullptr;
    awaitHandOuts();
    JobRecord* job = nullptr;
    if (!due_.pop(job)) return nullptr;
    queued_.fetch_sub(1, std::memory_order_relaxed);
    return job;
}

/// Wait (this thread holds no token) for grooming passes to finish their hand-out: a few
/// microseconds, unless the groomer was preempted.
void SchedulerCore::awaitHandOuts() const noexcept {
    for (unsigned spins = 0; handOutsInTransit_.load(std::memory_order_seq_cst) != 0; ++spins) {
        if (spins < kHandOutPauses) {
            cpuRelax();
        } else {
            std::this_thread::yield();
        }
    }
}

/// One grooming pass, if the token is free: sort the entrance into the time queue, take
/// what is due off it (expired jobs apart), note the head, then drop the token and hand
/// the due jobs out (handOutDue). `askFanOut`: the caller's tender sleep ran out, so it
/// wants to know whether the head leads to a fan-out (see WakeProtocol::beforeHead).
SchedulerCore::GroomResult SchedulerCore::groom(Worker& w, bool askFanOut) {
    GroomResult r;
    if (!token_.tryAcquire()) {
        WorkerCounters::bump(w.counters.tokenContention);
        observe(w, [&](Observer& o) { o.onTokenContended(w.index); });
        PULLSCHED_TRACE_POINT(w.trace, now(), TokenContended, w.backoff.level());
        r.contended = true;
        return r;
    }
    // Announced before anything leaves the entrance; see handOutsInTransit_.
    handOutsInTransit_.fetch_add(1, std::memory_order_seq_cst);
    WorkerCounters::bump(w.counters.tokenAcquisitions);
    observe(w, [&](Observer& o) { o.onTokenAcquired(w.index); });

    JobRecord* rec = nullptr;
    while (entrance_.pop(rec))
        timeQueue_.push({rec->start, rec->seq, rec});

    // Collect the due entries in key order; they are handed out after the token is
    // dropped, because the due queue's lock may make us wait.
    const TimePoint t = now();
    PULLSCHED_TRACE_POINT(w.trace, t, TokenAcquired, timeQueue_.size());
    JobRecord* expired = nullptr;
    JobRecord* dueList = nullptr;
    JobRecord** dueTail = &dueList;
    while (timeQueue_.headDue(t)) {
        rec = timeQueue_.pop().payload;
        if (rec->deadline < t) {
            queued_.fetch_sub(1, std::memory_order_relaxed);
            rec->link = std::exchange(expired, rec);
            continue;
        }
        *dueTail = rec;
        dueTail = &rec->link;
        ++r.moved;
    }
    if (!timeQueue_.empty()) r.head = timeQueue_.head().start;
    r.more = timeQueue_.size() > 1;
    // The look-ahead takes job locks, so it runs after the token is dropped; the
    // reference keeps the head's record (a tombstone, or a job about to run) alive.
    JobRecord* lookFrom = nullptr;
    if (askFanOut && r.head) addRef(lookFrom = timeQueue_.head().payload);
    wake_.publishHead(r.head);
    std::int64_t periods = 0;  // duty cycles since the last one ran (many, when idle)
    if (t >= nextDutyCycle_) {
        // Duty cycle: the periodic upkeep the reference ran as an internal job.
        periods = 1 + saturatingSub(t, nextDutyCycle_) / cfg_.dutyCycle;
        nextDutyCycle_ = saturatingAdd(t, cfg_.dutyCycle);
        noteQueueDepth();
    }
    PULLSCHED_TRACE_POINT(w.trace, t, TokenDropped, r.moved);
    token_.release();
    handOutDue(dueList, expired, periods, t, r, w);
    if (lookFrom) r.headFansOut = fansOutAhead(lookFrom);  // after the hand-out others wait for
    return r;
}

/// The second half of a grooming pass, without the token: the due jobs go to the due
/// queue, the record pool is trimmed for the `periods` duty cycles that passed, the
/// expired jobs are finalised, and sleepers are woken for what this worker will not run
/// itself.
void SchedulerCore::handOutDue(JobRecord* dueList, JobRecord* expired, std::int64_t periods,
                               TimePoint t, const GroomResult& r, Worker& w) {
    if (dueList) due_.pushList(dueList);
    handOutsInTransit_.fetch_sub(1, std::memory_order_seq_cst);
    // Without the token: freeing a burst's records takes a while.
    if (periods > 0) pool_->trim(static_cast<std::size_t>(periods));
    while (expired) {
        JobRecord* e = std::exchange(expired, expired->link);
        e->link = nullptr;
        if (!claimQueued(e)) continue;  // cancelled while queued, and already final
        // A cancelled group's job ends Cancelled, whether or not its deadline passed.
        if (groupCancelled(e)) {
            finalize(e, JobState::Cancelled, &w);
            continue;
        }
        PULLSCHED_TRACE_POINT(w.trace, t, Expired, e->tag);
        (void)t;
        finalize(e, JobState::Expired, &w);
    }
    if (r.moved == 0) return;
    noteQueueDepth();
    // This worker takes one itself; one sleeper is woken for the rest, and it wakes the
    // next if work remains (see wakeForDueWork).
    if (r.moved > 1) wakeForDueWork(&w);
    // This worker is about to run a job; if a later head remains and nobody tends it,
    // hand that duty to a parked worker.
    if (WakeProtocol::handsTendingOver(r.head.has_value(), wake_.tendTarget()) &&
        wake_.notifyParked())
        WorkerCounters::bump(w.counters.wakeups);
}

}  // namespace pullsched::detail
