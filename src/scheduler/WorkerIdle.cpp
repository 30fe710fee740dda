#include <algorithm>
#include <thread>

#include "detail/SchedulerCore.hpp"
#include "detail/SpinLimits.hpp"
#include "pullsched/scheduler/Observer.hpp"
#include "pullsched/scheduler/detail/CpuRelax.hpp"

// A worker with nothing to run: what it does after grooming found nothing due (spin
// towards a near head, sleep towards a far one as the tender, or park), and its backoff
// when the grooming token was taken. Whom it may wake and when it may park are the
// WakeProtocol's decisions; this file carries them out with the clock, the observer and
// the counters.

namespace pullsched::detail {

namespace {

/// Pauses per spin round of a contended worker's backoff, between yields: about 1 us
/// (see kPauseRounds), short next to the grooming pass it waits for. A guess, not measured.
constexpr int kBackoffPauses = 32;

}  // namespace

/// Nothing was taken and the grooming pass moved nothing: decide from the head's distance
/// (LoadController) and from whether another worker tends it (WakeProtocol::mayTend), and
/// wait accordingly. `sleptToHead`: this worker's last wait was the tender's sleep and it
/// ran out (see WakeProtocol::beforeHead); `quiet`: see WakeProtocol::WaitEnd.
SchedulerCore::WaitEnd SchedulerCore::waitForWork(const GroomResult& g, bool sleptToHead,
                                                  bool quiet, Worker& w) {
    const TimePoint t = now();
    const bool mayTend = WakeProtocol::mayTend(g.head, wake_.tendTarget());
    const WorkerAction action = loadController_.decide(g.head, t, mayTend);
    PULLSCHED_TRACE_POINT(w.trace, t, Decision,
                          static_cast<int>(loadController_.classify(g.head, t)));
    switch (action.kind) {
        case WorkerAction::Kind::Dispatch:
            break;
        case WorkerAction::Kind::Spin:
            // The woken worker, if any, spins towards the same head and tends the next
            // one once this one is taken.
            handOverBeforeHead(g, sleptToHead, w);
            spinUntil(action.until, w);
            break;
        case WorkerAction::Kind::TendNext:
            return sleepTowardsHead(*g.head, action.until, quiet, w);
        case WorkerAction::Kind::Park:
            return park(quiet, w);
    }
    return {false, quiet, false};
}

void SchedulerCore::backoff(Worker& w) {
    const BackoffStep step = w.backoff.onContention();
    if (step.sleep > Duration::zero()) {
        WorkerCounters::bump(w.counters.backoffSleeps);
        WorkerCounters::bump(w.counters.backoffSleepNs,
                             static_cast<std::uint64_t>(step.sleep.count()));
        observe(w, [&](Observer& o) { o.onSleep(w.index, SleepKind::Backoff, step.sleep); });
        PULLSCHED_TRACE_POINT(w.trace, now(), Backoff, step.sleep.count());
        std::this_thread::sleep_for(step.sleep);
        return;
    }
    PULLSCHED_TRACE_POINT(w.trace, now(), Backoff, 0);
    for (unsigned round = 0; round < step.spinRounds; ++round) {
        for (int i = 0; i < kBackoffPauses; ++i)
            cpuRelax();
        std::this_thread::yield();
    }
    if (step.spinRounds == 0) std::this_thread::yield();
}

/// The queues as the park guard reads them (WakeProtocol::workSeen, conditions 1-4).
WakeProtocol::QueuesSeen SchedulerCore::queuesSeen() const noexcept {
    return {untimedQueued(), !due_.empty(), !entrance_.empty(),
            stopping_.load(std::memory_order_seq_cst)};
}

void SchedulerCore::spinUntil(TimePoint until, Worker& w) {
    // Bounded by time on both clocks: an injected clock that stands still must not
    // trap the worker.
    const Duration span = saturatingSub(until, now());
    const TimePoint realEnd =
        saturatingAdd(SteadyClock::now(), std::min(span, cfg_.horizons.idleWait));
    PULLSCHED_TRACE_POINT(w.trace, now(), Sleep, 0);
    (void)w;
    while (now() < until && SteadyClock::now() < realEnd) {
        if (untimedQueued() || !due_.empty() || stopping_.load(std::memory_order_relaxed)) return;
        cpuRelax();
    }
}

/// The tender's sleep: claim the duty for `head` (else another worker tends an earlier
/// head, and this one parks), announce the sleep, check conditions 1-4 of the park guard
/// (condition 5 is about this worker itself), and sleep until `until`, or shorter if this
/// worker carries the safety net.
SchedulerCore::WaitEnd SchedulerCore::sleepTowardsHead(TimePoint head, TimePoint until, bool quiet,
                                                       Worker& w) {
    const std::int64_t target = WakeProtocol::ticks(head);
    if (!wake_.claimTender(target)) return park(quiet, w);

    WaitEnd end{false, quiet, false};
    const WakeSignal::Key key = wake_.announceTenderSleep();
    if (!WakeProtocol::workSeen(queuesSeen())) {
        WorkerCounters::bump(w.counters.parks);
        // The tender takes part in the safety net like a parked worker (else a holder
        // that became the tender left the parked ones without one): holding it, it
        // sleeps no longer than the net's period, however far the head.
        const TimePoint headEnd = toSteady(until);
        TimePoint sleepEnd = headEnd;
        const bool net = wake_.safetyNet().take(w.index);
        if (net)
            sleepEnd =
                std::min(sleepEnd, SteadyClock::now() + w.safetyNet.next(quiet, allFinished()));
        const bool netFirst = sleepEnd < headEnd;
        observe(w, [&](Observer& o) {
            o.onSleep(w.index, SleepKind::TendNext,
                      netFirst ? sleepEnd - SteadyClock::now() : saturatingSub(until, now()));
        });
        PULLSCHED_TRACE_POINT(w.trace, now(), Sleep, saturatingSub(until, now()).count());
        const bool notified = wake_.tenderSleep(key, sleepEnd);
        end = WakeProtocol::tenderSleepEnd(notified, netFirst, SteadyClock::now() >= sleepEnd);
        wake_.safetyNet().giveBack(w.index);
    } else {
        wake_.cancelTenderSleep();
    }
    wake_.tenderSleepEnded(target);
    return end;
}

/// Watch for work a little before parking, so a stream of posts does not pay a futex wake
/// per job, but never at the cost of a thread that would make the work. Only half of the
/// workers (at least one) spin at a time (WakeProtocol::startSpin); the others park at
/// once. A spin first pauses (cheap on an idle core), then yields, and stops as soon as a
/// yield comes back late: another runnable thread (a poster, on a machine with more
/// runnable threads than cores) had this core, and it needs it more than we do.
/// Returns whether work (or an untended head) showed up. Not after a quiet wait (see
/// WakeProtocol::WaitEnd): an idle scheduler parks again at once.
bool SchedulerCore::idleSpin(bool quiet) {
    if (quiet || cfg_.idleSpin <= Duration::zero()) return false;
    if (!wake_.startSpin()) return false;
    bool found = false;
    const TimePoint spinEnd = saturatingAdd(SteadyClock::now(), cfg_.idleSpin);
    for (unsigned round = 0;; ++round) {
        if (!wake_.mayParkNow(queuesSeen())) {
            found = true;
            break;
        }
        if (round < kPauseRounds) {
            cpuRelax();
            continue;
        }
        const TimePoint before = SteadyClock::now();
        if (before >= spinEnd) break;
        std::this_thread::yield();
        if (SteadyClock::now() - before > kYieldPreempted) break;  // somebody needed the core
    }
    wake_.endSpin();  // before park() re-checks for work
    return found;
}

/// Spin, then park until notified (or until the safety net's period, for the one waiting
/// worker that carries it). The park guard (WakeProtocol::mayPark) runs after the worker
/// announced itself, so a waker either sees it parked or it sees the waker's work.
SchedulerCore::WaitEnd SchedulerCore::park(bool quiet, Worker& w) {
    // Like a woken worker: it passes a wake on if it finds more than one job.
    if (idleSpin(quiet)) return {true, quiet, false};
    const WakeSignal::Key key = wake_.announcePark();
    if (!wake_.mayParkNow(queuesSeen())) {
        wake_.cancelPark();
        return parkEnded(quiet, w);
    }
    WorkerCounters::bump(w.counters.parks);
    spread_.parking(w.index);
    observe(w, [&](Observer& o) { o.onWorkerIdle(w.index); });
    PULLSCHED_TRACE_POINT(w.trace, now(), Park, 0);
    // Quiet: the safety net ran out. Judged by the clock, not by wait()'s answer: the
    // epoch also moves when another worker is notified, and that is no activity here.
    // Without the net (another waiting worker has it: parked, or the tender) the wait
    // ends only when notified.
    const bool net = wake_.safetyNet().take(w.index);
    const Duration period = net ? w.safetyNet.next(quiet, allFinished()) : Duration::max();
    const TimePoint netEnd = net ? SteadyClock::now() + period : kNoDeadline;
    observe(w, [&](Observer& o) { o.onSleep(w.index, SleepKind::Park, period); });
    wake_.park(key, netEnd);
    const WaitEnd end = parkEnded(net && SteadyClock::now() >= netEnd, w);
    PULLSCHED_TRACE_POINT(w.trace, now(), Wake, 0);
    observe(w, [&](Observer& o) { o.onWorkerActive(w.index); });
    wake_.safetyNet().giveBack(w.index);  // after the observer: it never sees two nets at once
    return end;
}

/// This worker stopped waiting on the park (woken, timed out or cancelled) and is about to
/// look for work: a wake in flight, if it was meant for it, has arrived, and it is now a
/// woken worker (see WakeProtocol::WaitEnd).
SchedulerCore::WaitEnd SchedulerCore::parkEnded(bool quiet, Worker& w) noexcept {
    spread_.unparked(w.index);
    wake_.parkEnded();
    return {true, quiet, false};
}

TimePoint SchedulerCore::toSteady(TimePoint schedulerTime) const noexcept {
    if (clock_ == &steadyClock_) return schedulerTime;
    const Duration d = std::clamp<Duration>(saturatingSub(schedulerTime, now()), Duration::zero(),
                                            cfg_.horizons.idleWait);
    return saturatingAdd(SteadyClock::now(), d);
}

}  // namespace pullsched::detail
