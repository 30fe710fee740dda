#include "detail/SchedulerCore.hpp"

// The scheduler's side of the WakeProtocol: it decides whom to wake; this file notifies
// them, steers the woken worker off the waker's CPU and counts the wake-ups.

namespace pullsched::detail {

namespace {

/// A woken worker that has not started after this is taken to be queued behind its waker
/// on the same CPU (see spreadCheck). An argument from measurement: a wake-up takes tens
/// of microseconds on this kind of VM, and such a queued worker was measured starting up
/// to 3 ms late while another CPU idled (commit b26a8b2); 200 us is well past the first
/// and well short of the second.
constexpr Duration kWakeOverdue = std::chrono::microseconds(200);

}  // namespace

/// Due work was published (see WakeProtocol::wakeForDueWork for whom that wakes). A wake
/// sent to a parked worker is watched when the workers are spread (see spreadCheck).
void SchedulerCore::wakeForDueWork(Worker* w) {
    using Woke = WakeProtocol::Woke;
    switch (wake_.wakeForDueWork([&] { return wakeParked(w); }, [&] { return wakeHelpers(w); })) {
        case Woke::Parked:
            if (w && spread_.enabled()) {  // see spreadCheck
                w->wokeAt = SteadyClock::now();
                w->wokeSeq = wake_.countWatchedWake();
            }
            break;
        case Woke::Tender:
        case Woke::Helper:
            bump(w, &WorkerCounters::wakeups);
            break;
        case Woke::Nobody:
            break;
    }
}

/// Rule E: threads helping in drain() sleep on drainSignal_, in wait() on jobEndSignal_.
/// Both are notified; one that is not helping looks, finds itself not done, and sleeps on.
/// The helper is steered off the waker's CPU first (see CpuSpread::helperParking).
bool SchedulerCore::wakeHelpers(Worker* w) {
    if (const unsigned steered = spread_.steerHelper(w ? w->index : CpuSpread::kOutside))
        bump(w, &WorkerCounters::spreadSteers, steered);
    const bool drainers = drainSignal_.notifyAll();
    const bool waiters = jobEndSignal_.notifyAll();
    return drainers || waiters;
}

/// Wake one parked worker, steered off the waker's CPU first (see CpuSpread). Returns
/// whether anybody was waiting.
bool SchedulerCore::wakeParked(Worker* w) {
    if (const unsigned steered = spread_.steerParked(w ? w->index : CpuSpread::kOutside))
        bump(w, &WorkerCounters::spreadSteers, steered);
    if (!wake_.notifyParked()) return false;
    bump(w, &WorkerCounters::wakeups);
    return true;
}

/// Wake the tender, unless a wake is on its way to it already (see
/// WakeProtocol::notifyTender).
void SchedulerCore::notifyTender(Worker* w) {
    if (wake_.notifyTender()) bump(w, &WorkerCounters::wakeups);
}

/// A worker that was woken took a job: if more work is waiting, wake the next sleeper.
void SchedulerCore::passWakeOn(Worker& w) {
    if (!due_.empty() || untimedQueued()) wakeForDueWork(&w);
}

/// The tender's sleep ran out and it is about to spin towards its head: wake whom
/// WakeProtocol::beforeHead says, now rather than when the head is due.
void SchedulerCore::handOverBeforeHead(const GroomResult& g, bool sleptToHead, Worker& w) {
    using HandOver = WakeProtocol::HeadHandOver;
    switch (WakeProtocol::beforeHead(sleptToHead, g.headFansOut, g.more)) {
        case HandOver::FanOut:
            // No worker parked: a helping caller with a CPU of its own (rule E) watches
            // the head instead, so the jobs it releases do not wait for a wake-up.
            if (!wakeParked(&w) && helpersWakeable_) wakeHelpers(&w);
            break;
        case HandOver::NextHead:
            if (wake_.notifyParked()) WorkerCounters::bump(w.counters.wakeups);
            break;
        case HandOver::Nobody:
            break;
    }
}

/// Every CpuSpread::kCheckPeriod jobs: keep busy workers on different CPUs. A worker whose
/// wake is still in flight kWakeOverdue after it was sent also leaves its CPU: the woken
/// worker may be queued behind it there.
void SchedulerCore::spreadCheck(Worker& w) {
    if (!spread_.enabled()) return;
    const TimePoint now = SteadyClock::now();
    bool overdue = false;
    if (w.wokeAt != TimePoint{}) {
        // Still in flight, and still ours: no later wake was sent (by anybody) since.
        if (!wake_.watchedWakeInFlight(w.wokeSeq)) {
            w.wokeAt = TimePoint{};
        } else if (now - w.wokeAt > kWakeOverdue) {
            overdue = true;
            w.wokeAt = TimePoint{};
        }
    }
    if (spread_.check(w.index, now, overdue)) WorkerCounters::bump(w.counters.spreadMoves);
}

}  // namespace pullsched::detail
