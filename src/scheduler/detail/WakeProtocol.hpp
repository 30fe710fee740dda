#pragma once
// The sleep/wake protocol: which worker wakes whom, when a worker may park, and the
// tender (the one worker that sleeps towards the next timed head). It owns the atomics
// that say who sleeps and who is being woken; the queues stay with the scheduler, which
// passes what it saw in them as arguments. The decisions that depend only on what was
// read are static and pure, so they can be tested without threads (unit_wake_protocol).
// docs/scheduler.md, "The wake protocol", tells the same story in prose.
//
// Words used here and in the scheduler:
//   park      an OS wait on idleSignal_ with no time limit (or the safety net's)
//   tender    the worker whose timed sleep (on tenderSignal_) ends shortly before the
//             time queue's head is due; at most one at a time, recorded in tendTarget_
//   groom     the token holder's pass over the time queue (GroomingToken); not "tend"
//   wake in flight  a parked worker was notified and has not looked for work yet

#include <atomic>
#include <cstdint>
#include <optional>

#include "detail/ParkSafetyNet.hpp"
#include "detail/WakeSignal.hpp"
#include "pullsched/scheduler/Time.hpp"

namespace pullsched::detail {

class WakeProtocol {
  public:
    /// Start times travel as ns since the epoch; this one means "none".
    static constexpr std::int64_t kNone = INT64_MAX;
    static std::int64_t ticks(TimePoint t) noexcept { return t.time_since_epoch().count(); }

    /// `workers`: how many workers share the protocol (bounds the idle spinners).
    /// `wakesHelpers`: rule E applies (see wakeForDueWork).
    explicit WakeProtocol(unsigned workers, bool wakesHelpers = false) noexcept;

    // ------------------------------------------------------------ pure decisions

    /// What a worker about to wait saw in the queues, read after it announced its wait
    /// (prepareWait): either it sees what a poster published, or the poster sees it
    /// waiting (both sides sequentially consistent).
    struct QueuesSeen {
        bool untimed = false;   ///< an untimed job in the shared FIFO or an own queue
        bool due = false;       ///< a due timed job in the due queue
        bool entrance = false;  ///< a timed job posted and not groomed in yet
        bool stopping = false;  ///< shutdown told the workers to halt
    };

    /// Whether there is anything a worker must do instead of waiting. Conditions 1-4 of
    /// the park guard (mayPark); the tender checks these alone before its timed sleep.
    /// What they share: a waker that published before this worker announced its wait saw
    /// no waiter, or a spinner, or a wake in flight, and woke nobody; this look is the
    /// only one that will see its work.
    static bool workSeen(const QueuesSeen& q) noexcept {
        // Condition 1: an untimed job is queued (a post, a release, a batch moved). Its
        // waker may have left it to a spinner (rule A) or to the worker a wake is in
        // flight to (rule B), and that may be this worker, on its way to sleep.
        // Condition 2: a due timed job waits in the due queue. A groomer that moved
        // several runs one and wakes one sleeper for the rest, under the same rules.
        // Condition 3: a timed job sits in the entrance. Only grooming tells whether it is
        // due; its poster may have woken a sleeper or the tender to groom it in: us.
        // Condition 4: the scheduler is stopping. shutdown() notifies every sleeper once;
        // a worker that announced its wait after that notification must not sleep.
        return q.untimed || q.due || q.entrance || q.stopping;
    }

    /// Condition 5 of the park guard: a head is queued and no worker sleeps towards it.
    /// The tender hands its duty over by notifying a parked worker; a worker that is not
    /// parked yet (still spinning) would miss that notification, so it checks this after
    /// announcing itself. `nextHead` and `tendTarget` in ticks, kNone for none.
    static bool headUntended(std::int64_t nextHead, std::int64_t tendTarget) noexcept {
        return nextHead != kNone && tendTarget == kNone;
    }

    /// The park guard: a worker that announced its wait may sleep only if none of the
    /// five conditions holds. The idle spin polls the same guard (any condition ends the
    /// spin as "work found"), and the park after it checks once more after announcing.
    static bool mayPark(const QueuesSeen& q, std::int64_t nextHead,
                        std::int64_t tendTarget) noexcept {
        return !workSeen(q) && !headUntended(nextHead, tendTarget);
    }

    /// A worker that groomed and found `head` next may become the tender: no worker
    /// sleeps towards an earlier or equal head already.
    static bool mayTend(std::optional<TimePoint> head, std::int64_t tendTarget) noexcept {
        return head && (tendTarget == kNone || ticks(*head) < tendTarget);
    }

    /// Whether a worker that wants to tend `target` takes the duty from whoever tends
    /// `tended` now (the CAS in claimTender repeats this test on the value it saw).
    static bool takesOverTending(std::int64_t tended, std::int64_t target) noexcept {
        return tended == kNone || target < tended;
    }

    /// Whom a timed post wakes once its job is in the entrance.
    enum class TimedPostWake : std::uint8_t {
        DueWork,       ///< it is due already: wake as for any due work (wakeForDueWork)
        ParkedToTend,  ///< nobody tends a head: one parked worker grooms, then tends
        Tender,        ///< the tender sleeps towards a later head: it must look at this one
        Nobody,        ///< the tender's head comes first; it will groom this job in then
    };
    static TimedPostWake onTimedPost(bool due, std::int64_t start,
                                     std::int64_t tendTarget) noexcept {
        if (due) return TimedPostWake::DueWork;
        if (tendTarget == kNone) return TimedPostWake::ParkedToTend;
        if (start < tendTarget) return TimedPostWake::Tender;
        return TimedPostWake::Nobody;
    }

    /// A worker that moved due jobs out of the time queue runs one itself; if a later
    /// head remains and nobody tends it, a parked worker takes that duty.
    static bool handsTendingOver(bool headQueued, std::int64_t tendTarget) noexcept {
        return headQueued && tendTarget == kNone;
    }

    /// What the tender wakes when its sleep ran out and it is about to spin towards its
    /// head (the Spin decision), so the wake-up's syscall happens before the start
    /// instead of between grooming the due job and running it.
    enum class HeadHandOver : std::uint8_t {
        Nobody,
        /// The head leads to a fan-out: a second worker should be awake (spinning) when
        /// the successors come. Steered off the waker's CPU (see CpuSpread).
        FanOut,
        /// Another head waits behind this one: the woken worker tends it once this one is
        /// taken. Not steered: unsteered did better (lateness of 2000 pending timed jobs,
        /// p50 0.42-0.46 us against 0.54-0.80 steered).
        NextHead,
    };
    static HeadHandOver beforeHead(bool sleptToHead, bool headFansOut, bool moreQueued) noexcept {
        if (!sleptToHead) return HeadHandOver::Nobody;
        if (headFansOut) return HeadHandOver::FanOut;
        if (moreQueued) return HeadHandOver::NextHead;
        return HeadHandOver::Nobody;
    }

    /// How a worker's wait ended, for the next round of its loop.
    struct WaitEnd {
        /// It came out of a park (or its idle spin found work): it may have consumed the
        /// wake in flight, so if it finds work and more remains, it wakes the next sleeper.
        bool woken = false;
        /// The wait ended by the safety net, not a notification or the head: with no job
        /// run since, the next wait skips the idle spin and takes a longer net.
        bool quiet = false;
        /// The tender's sleep ran out (neither notified nor cut short by the net): it is
        /// about to spin towards the head it tended (see beforeHead).
        bool sleptToHead = false;
    };

    /// The end of the tender's sleep: `notified`, whether the net ended before the head
    /// (`netFirst`), and whether the clock passed the net's end (`pastNetEnd`).
    static WaitEnd tenderSleepEnd(bool notified, bool netFirst, bool pastNetEnd) noexcept {
        return {false, netFirst && !notified && pastNetEnd, !notified && !netFirst};
    }

    // ------------------------------------------------------------ the wakers' side

    /// Whom wakeForDueWork woke.
    enum class Woke : std::uint8_t { Nobody, Parked, Tender, Helper };

    /// Due work was published: wake a parked worker or, if none is parked, the tender,
    /// which may sleep towards a head far ahead and would not look again before it.
    /// `wakeParked()` notifies one parked worker (steering it first) and returns whether
    /// one was waiting. Rules, in order:
    ///   A. a spinner exists: nobody (it sees the work before it parks and passes the
    ///      wake on; waking a sleeper now would only preempt the thread that posts);
    ///   B. a wake is in flight: nobody (its worker wakes the next one if work remains,
    ///      so a burst of releases costs one futex wake, not one per job);
    ///   C. somebody is parked: wake one, marking the wake in flight;
    ///   D. else, a tender sleeps: wake it (unless a wake is on its way to it already);
    ///   E. else, if the scheduler has fewer workers than the process has CPUs (so a
    ///      helper adds a CPU's worth of work instead of taking a worker's core), a thread
    ///      that helps in drain() or wait() and sleeps: wake it (`wakeHelpers()` notifies
    ///      the signals they sleep on and returns whether anybody waited), unless a wake is
    ///      on its way to one already. Last: a worker woken instead passes the wake on,
    ///      and with every worker awake the work is already spread. With as many workers
    ///      as CPUs the helper is not woken: measured (scheduler_bench Exec, 2 workers on
    ///      2 CPUs), the third thread it adds made a 64-job graph 12-14 -> 20-26 us.
    /// The caller published before; the fence orders its publication before our reads,
    /// against the sleeper's announcement (prepareWait) before its reads.
    template <class WakeParked, class WakeHelpers>
    Woke wakeForDueWork(WakeParked&& wakeParked, WakeHelpers&& wakeHelpers) {
        std::atomic_thread_fence(std::memory_order_seq_cst);
        if (spinners_.load(std::memory_order_seq_cst) > 0) return Woke::Nobody;  // A
        if (wakeInFlight_.load(std::memory_order_seq_cst)) return Woke::Nobody;  // B
        if (idleSignal_.hasWaiters()) {                                          // C
            if (wakeInFlight_.exchange(true, std::memory_order_seq_cst)) return Woke::Nobody;
            if (wakeParked()) return Woke::Parked;
            wakeInFlight_.store(false, std::memory_order_seq_cst);  // it left before we woke it
        }
        if (tendTarget_.load(std::memory_order_seq_cst) != kNone && notifyTender())  // D
            return Woke::Tender;
        if (wakesHelpers_ && helpersAsleep_.load(std::memory_order_seq_cst) > 0 &&  // E
            !helperWakeInFlight_.exchange(true, std::memory_order_seq_cst)) {
            if (wakeHelpers()) return Woke::Helper;
            helperWakeInFlight_.store(false, std::memory_order_seq_cst);  // it left already
        }
        return Woke::Nobody;
    }

    /// Notify one parked worker. Returns whether one was waiting.
    bool notifyParked() { return idleSignal_.notifyOne(); }

    /// Wake the tender, unless a wake is on its way to it already: a woken thread leaves
    /// the waiter count only when it runs, so without this every release in that window
    /// issued another FUTEX_WAKE (4.5 syscalls per run of the 64-job burst, on the
    /// releasing worker's path). Returns whether this call woke it.
    bool notifyTender();

    /// The (injected) clock moved: whoever watches the time queue must look again, which
    /// is the tender or, if none sleeps, one parked worker (it grooms, and wakes others
    /// for what came due). Waking every sleeper cost the caller a FUTEX_WAKE per signal.
    void clockMoved();
    /// Shutdown: every sleeper looks (and sees stopping).
    void wakeEverybody();

    /// Wakes sent to parked workers that a waker watches (CpuSpread's overdue check):
    /// count one and return its number.
    std::uint32_t countWatchedWake() noexcept {
        return wakeSeq_.fetch_add(1, std::memory_order_relaxed) + 1;
    }
    /// The watched wake `seq` is still in flight: not yet arrived, and no later one sent.
    bool watchedWakeInFlight(std::uint32_t seq) const noexcept {
        return wakeInFlight_.load(std::memory_order_relaxed) &&
               wakeSeq_.load(std::memory_order_relaxed) == seq;
    }

    // ------------------------------------------------------------ the sleepers' side

    std::int64_t tendTarget() const noexcept { return tendTarget_.load(std::memory_order_acquire); }
    /// The head the last grooming pass left (none: the time queue was empty then).
    std::optional<TimePoint> nextHead() const noexcept {
        const std::int64_t head = nextHead_.load(std::memory_order_acquire);
        if (head == kNone) return std::nullopt;
        return TimePoint(Duration(head));
    }
    /// The head after a grooming pass (none: the time queue is empty), for condition 5.
    void publishHead(std::optional<TimePoint> head) noexcept {
        nextHead_.store(head ? ticks(*head) : kNone, std::memory_order_seq_cst);
    }
    /// The park guard with conditions 1-4 as the caller read the queues (after it
    /// announced its wait or stopped spinning) and condition 5 as read now, after them.
    bool mayParkNow(const QueuesSeen& q) const noexcept {
        return mayPark(q, nextHead_.load(std::memory_order_seq_cst),
                       tendTarget_.load(std::memory_order_seq_cst));
    }
    /// A waker read the tender's target after it published (see onTimedPost).
    std::int64_t tendTargetAfterPublish() const noexcept {
        std::atomic_thread_fence(std::memory_order_seq_cst);
        return tendTarget_.load(std::memory_order_seq_cst);
    }

    /// Join the idle spinners, if fewer than half the workers (at least one) spin now.
    bool startSpin() noexcept {
        if (spinners_.fetch_add(1, std::memory_order_relaxed) < maxSpinners_) return true;
        spinners_.fetch_sub(1, std::memory_order_relaxed);
        return false;
    }
    /// Leave them, before the park guard looks again (rule A relies on it).
    void endSpin() noexcept { spinners_.fetch_sub(1, std::memory_order_seq_cst); }

    WakeSignal::Key announcePark() noexcept { return idleSignal_.prepareWait(); }
    void cancelPark() noexcept { idleSignal_.cancelWait(); }
    bool park(WakeSignal::Key key, TimePoint until) { return idleSignal_.wait(key, until); }
    /// A parked (or announced) worker stopped waiting and is about to look for work: a
    /// wake in flight, if it was meant for it, has arrived. Cleared after the wait and
    /// before the look, both sequentially consistent: either the worker sees the work
    /// that a waker published, or the waker sees the flag clear and wakes somebody itself.
    void parkEnded() noexcept { wakeInFlight_.store(false, std::memory_order_seq_cst); }

    /// Become the tender of `target` (ticks), unless a worker tends an earlier or equal
    /// head already; then the caller parks instead.
    bool claimTender(std::int64_t target) noexcept;
    WakeSignal::Key announceTenderSleep() noexcept { return tenderSignal_.prepareWait(); }
    void cancelTenderSleep() noexcept { tenderSignal_.cancelWait(); }
    bool tenderSleep(WakeSignal::Key key, TimePoint until) {
        return tenderSignal_.wait(key, until);
    }
    /// The tender looks for work again: a wake on its way has arrived (as parkEnded), and
    /// the duty goes back unless an earlier head's tender took it meanwhile.
    void tenderSleepEnded(std::int64_t target) noexcept;

    /// The one waiting worker whose wait has a time limit (see SafetyNetHolder).
    SafetyNetHolder& safetyNet() noexcept { return netHolder_; }

    // ------------------------------------------------------------ helping waiters

    /// A thread that helps in drain() or wait() is about to sleep: announced before it
    /// prepares its wait and looks at the queues a last time (helperWorkSeen), so a waker
    /// that published before that look sees it under rule E.
    void announceHelperSleep() noexcept { helpersAsleep_.fetch_add(1, std::memory_order_seq_cst); }
    /// Its sleep ended (notified, timed out, or not begun): a wake on its way has arrived.
    void helperSleepEnded() noexcept {
        helperWakeInFlight_.store(false, std::memory_order_seq_cst);
        helpersAsleep_.fetch_sub(1, std::memory_order_seq_cst);
    }

  private:
    /// Start time the tender sleeps towards; kNone if nobody tends.
    alignas(64) std::atomic<std::int64_t> tendTarget_{kNone};
    /// Start of the time queue's head after the last grooming pass; kNone if empty.
    std::atomic<std::int64_t> nextHead_{kNone};

    /// A parked worker was notified and has not looked for work yet (rule B).
    alignas(64) std::atomic<bool> wakeInFlight_{false};
    /// Watched wakes sent (see countWatchedWake).
    std::atomic<std::uint32_t> wakeSeq_{0};
    /// The tender was notified and has not looked for work yet (see notifyTender).
    std::atomic<bool> tenderWakeInFlight_{false};
    /// Threads helping in drain() or wait() that sleep, and whether one was notified and
    /// has not looked yet (rule E; as wakeInFlight_, one futex wake per burst).
    std::atomic<unsigned> helpersAsleep_{0};
    std::atomic<bool> helperWakeInFlight_{false};
    const bool wakesHelpers_;

    /// Workers in their idle spin, and how many may be at once: half, at least one, so
    /// the other half parks at once and never competes with a poster for a core.
    alignas(64) std::atomic<unsigned> spinners_{0};
    const unsigned maxSpinners_;
    WakeSignal idleSignal_;      ///< parked workers
    SafetyNetHolder netHolder_;  ///< the one waiting worker whose wait has a time limit
    WakeSignal tenderSignal_;    ///< the tender's timed sleep
};

}  // namespace pullsched::detail
