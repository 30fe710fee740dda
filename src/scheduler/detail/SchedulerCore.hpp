#pragma once
// The scheduler's machinery behind the public Scheduler facade: queues, grooming token,
// load controller, the workers' pull loop, and the accounting of every job's end.
// docs/design.md walks through a job's path in prose.

#include <atomic>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "detail/Backoff.hpp"
#include "detail/CpuSpread.hpp"
#include "detail/DueQueue.hpp"
#include "detail/EntranceQueue.hpp"
#include "detail/GroomingToken.hpp"
#include "detail/JobPool.hpp"
#include "detail/LoadController.hpp"
#include "detail/ParkSafetyNet.hpp"
#include "detail/ReadyQueue.hpp"
#include "detail/TimeQueue.hpp"
#include "detail/Trace.hpp"
#include "detail/WakeSignal.hpp"
#include "detail/WorkForce.hpp"
#include "detail/WorkerCounters.hpp"
#include "pullsched/scheduler/Config.hpp"
#include "pullsched/scheduler/JobHandle.hpp"
#include "pullsched/scheduler/JobOptions.hpp"
#include "pullsched/scheduler/Statistics.hpp"

namespace pullsched::detail {

class SchedulerCore {
  public:
    /// Throws std::system_error when a worker thread cannot be started, after stopping
    /// and joining those that did. `starter` is for tests (see WorkForce::ThreadStarter).
    explicit SchedulerCore(const SchedulerConfig& cfg, WorkForce::ThreadStarter starter = {});
    ~SchedulerCore();
    SchedulerCore(const SchedulerCore&) = delete;
    SchedulerCore& operator=(const SchedulerCore&) = delete;

    /// A fresh record for a job with these options (validated), holding the scheduler's
    /// reference and the poster's gate guard. Throws std::logic_error once shutdown began
    /// (except on this scheduler's own workers, whose posts shutdown still finalises).
    /// Every acquire() is followed by exactly one submit() or abandon() on the same thread.
    JobRecord* acquire(const JobOptions& opts);
    /// Undo acquire() when filling the record failed before submit().
    void abandon(JobRecord* rec) noexcept;
    /// Wire predecessors and open the poster's guard. `preds` were validated by the caller.
    void submit(JobRecord* rec, std::span<const JobHandle> preds);

    void drain();
    bool drainUntil(TimePoint steadyDeadline);
    ShutdownReport shutdown(ShutdownMode mode);
    void wake();

    Statistics stats() const;
    std::uint64_t queueDepth() const noexcept;
    TimePoint now() const noexcept { return clock_->now(); }
    unsigned workerCount() const noexcept { return static_cast<unsigned>(workers_.size()); }
    bool writeTraceDump(std::ostream& out) const;
    /// Never the same for two schedulers of one process (see JobRecord::owner).
    std::uint64_t id() const noexcept { return id_; }
    bool owns(const JobRecord* rec) const noexcept { return rec->owner == id_; }

  private:
    struct Worker {
        Worker(unsigned idx, const SchedulerConfig& cfg, TokenAwareLock::Witness witness,
               JobPool* pool);
        WorkerCounters counters;
        Backoff backoff;
        JobRecord* local = nullptr;  ///< next untimed job for this worker, bypassing the queues
        bool localIsContinuation = false;
        /// Jobs pushed onto `own` by the finalisation under way (see release()).
        std::uint32_t ownPushes = 0;
        /// Jobs run; every CpuSpread::kCheckPeriod-th looks where the workers run.
        std::uint32_t ran = 0;
        /// When it last woke a parked worker (steady clock; zero: no wake watched), and
        /// wakeSeq_ after that wake.
        TimePoint wokeAt{};
        std::uint32_t wokeSeq = 0;
        /// Jobs taken; every kFairnessPeriod-th take first moves a batch from the shared
        /// ready queue to the back of the own queue (see takeUntimed).
        std::uint32_t takes = 0;
        /// The last park (or tend sleep) ended by the safety net, not a notification or the
        /// head, and no job ran since: park again at once instead of spinning first, with a
        /// longer net (keeps an idle scheduler at ~0 CPU).
        bool quiet = false;
        ParkSafetyNet safetyNet;
        /// Finished a job since it last ran out of work (see notifyDrainIfDone).
        bool finishedSinceCheck = false;
        /// Groomed since it last looked for work (see takeDue).
        bool groomed = false;
        /// Just came out of a park that may have consumed the wake in flight: if it finds
        /// work and more remains, it wakes the next sleeper (see wakeInFlight_).
        bool woken = false;
        /// Its tend-next sleep ran out: it is about to spin towards the head it tended.
        bool tendSleepEnded = false;
        unsigned index;
        /// Free records: what this worker finishes and posts, without touching the pool.
        RecordCache cache;
        /// Untimed jobs this worker released beyond its continuation, FIFO. The owner pushes
        /// and pops without contention; idle workers steal from it (see takeUntimed). On
        /// cache lines of its own: idle workers poll its size, and the fields above are
        /// written on every job (sharing a line, each job would cost the owner a miss).
        alignas(64) ReadyQueue own;
#if PULLSCHED_TRACE
        TraceBuffer trace;
#endif
    };

    struct GroomResult {
        bool contended = false;
        std::size_t moved = 0;          ///< due entries handed to the due queue
        std::optional<TimePoint> head;  ///< next start still queued, if any
        bool more = false;              ///< another start queued behind the head
        bool headFansOut = false;       ///< the head leads to a fan-out (asked by a tender)
    };

    void workerLoop(Worker& w);
    JobRecord* takeDue(bool groomedSinceLook);
    void awaitHandOuts() const noexcept;
    GroomResult groom(Worker& w);
    static bool fansOutAhead(JobRecord* head);
    void run(JobRecord* job, Worker& w);
    void finalize(JobRecord* job, JobState outcome, Worker* w);
    [[gnu::always_inline]] inline void release(JobRecord* job, Worker* w);
    void pushReady(JobRecord* job, Worker* w);
    [[gnu::always_inline]] inline JobRecord* takeUntimed(Worker& w);
    JobRecord* takeShared(Worker& w);
    void admitShared(Worker& w);
    std::size_t popSharedBatch(JobRecord** out, std::size_t max);
    [[gnu::noinline]] JobRecord* steal(Worker& w);
    bool untimedQueued() const noexcept;
    void pushTimed(JobRecord* job, Worker* w);
    void wakeForDueWork(Worker* w);
    bool wakeParked(Worker* w);
    void passWakeOn(Worker& w);
    void spreadCheck(Worker& w);
    void notifyTender(Worker* w);
    std::uint64_t finishedCount() const noexcept;
    bool allFinished() const noexcept;
    void notifyDrainIfDone() noexcept;
    void backoff(Worker& w);
    void spinUntil(TimePoint until, Worker& w);
    void tendNext(TimePoint head, TimePoint until, Worker& w);
    bool idleSpin(Worker& w);
    void park(Worker& w);
    void endWait(Worker& w) noexcept;
    bool workVisible() const noexcept;
    bool untendedHead() const noexcept;
    TimePoint toSteady(TimePoint schedulerTime) const noexcept;
    WorkerCounters& countersOf(Worker* w) noexcept {
        return w ? w->counters : external_;
    }
    void bump(Worker* w, WorkerCounters::Counter WorkerCounters::*c, std::uint64_t by = 1) noexcept;
    void noteQueueDepth() noexcept;
    /// Call the observer, if any; what it throws is counted and dropped.
    template <class Call>
    void observe(Worker& w, Call&& call) noexcept {
        if (!observer_) return;
        try {
            call(*observer_);
        } catch (...) {
            WorkerCounters::bump(w.counters.observerExceptions);
        }
    }
    /// True on a worker thread of this scheduler (where drain() would wait for itself).
    bool onOwnWorker() const noexcept;
    void endOutsidePost() noexcept;

    const SchedulerConfig cfg_;
    const std::uint64_t id_;
    SteadyClockSource steadyClock_;
    const ClockSource* clock_;
    Observer* observer_;
    LoadController loadController_;

    PoolOwner pool_;  ///< retired, not deleted: handles may outlive the scheduler
    GroomingToken token_;
    /// Times the token holder had to wait for a queue lock; the design says never.
    std::atomic<std::uint64_t> tokenHolderWaits_{0};
    EntranceQueue entrance_;  ///< timed jobs whose gate opened, from any thread
    ReadyQueue ready_;        ///< untimed jobs whose gate opened, FIFO, popped by any worker
    DueQueue due_;            ///< due timed jobs by (start, seq), popped by any worker
    /// Grooming passes between taking the token and putting what they collected into due_.
    /// While one is under way, a due job with a smaller key may be in its hands, so workers
    /// wait for it before taking a timed job.
    alignas(64) std::atomic<std::uint32_t> handOutsInTransit_{0};
    TimeQueue<JobRecord*> timeQueue_;  ///< guarded by token_
    TimePoint nextDutyCycle_{};        ///< guarded by token_

    /// Start time (ns since epoch) the tend-next worker sleeps towards; kNoTender if none.
    static constexpr std::int64_t kNoTender = INT64_MAX;
    std::atomic<std::int64_t> tendTarget_{kNoTender};
    /// Start of the time queue's head after the last grooming (ns since epoch); kNoTender
    /// if the queue was empty. Lets a worker about to park see a head that nobody tends.
    std::atomic<std::int64_t> nextHead_{kNoTender};

    /// A parked worker was notified and has not looked for work yet. While set, releases
    /// wake nobody: that worker wakes the next one if work remains when it takes a job, so
    /// a burst of releases costs one futex wake, not one per job.
    alignas(64) std::atomic<bool> wakeInFlight_{false};
    /// Wakes sent by wakeForDueWork, so a waker can tell its wake from a later one.
    std::atomic<std::uint32_t> wakeSeq_{0};
    /// The tend-next worker was notified and has not looked for work yet (see notifyTender).
    std::atomic<bool> tenderWakeInFlight_{false};
    /// Workers in their idle spin, and how many may be at once (see idleSpin).
    alignas(64) std::atomic<unsigned> spinners_{0};
    const unsigned maxSpinners_;
    WakeSignal idleSignal_;      ///< parked workers
    SafetyNetHolder netHolder_;  ///< the one waiting worker whose wait has a time limit
    WakeSignal tenderSignal_;    ///< the tend-next worker's timed sleep
    WakeSignal drainSignal_;     ///< threads in drain()

    // Written per post, each on its own line (the workers read stopping_ on every loop:
    // sharing a line with a per-job counter cost them a miss per job).
    alignas(64) std::atomic<std::uint64_t> seq_{0};  ///< = submitted; open = seq_ - finished
    /// In entrance/time/due/ready queues; the workers' own queues count themselves.
    alignas(64) std::atomic<std::int64_t> queued_{0};
    std::atomic<std::uint64_t> maxQueueDepth_{0};
    alignas(64) std::atomic<bool> stopping_{false};  ///< workers halt
    /// shutdown() began: posts from other threads than the workers are refused.
    alignas(64) std::atomic<bool> closed_{false};  // own line: every outside post touches it
    /// Posts from outside the workers between acquire() and the end of submit()/abandon().
    /// shutdown() waits for them, so none queues a job after the queues were emptied.
    std::atomic<std::int64_t> outsidePosts_{0};

    /// Busy workers on different CPUs (see CpuSpread); disabled when pinned.
    CpuSpread spread_;
    WorkerCounters external_;  ///< events on non-worker threads (fetch_add)
    std::vector<std::unique_ptr<Worker>> workers_;
    WorkForce workForce_;

    std::mutex shutdownMutex_;
    std::optional<ShutdownReport> shutdownReport_;
};

}  // namespace pullsched::detail
