#pragma once
// The scheduler's machinery behind the public Scheduler facade: queues, grooming token,
// load controller, the workers' pull loop, and the accounting of every job's end.
// docs/scheduler.md, "A job's path", walks through it in prose. The member functions live
// in one file per concern (the groups below name theirs); the sleep/wake protocol is a
// class of its own (WakeProtocol), and so are the queues, the load controller and
// CpuSpread.

#include <array>
#include <atomic>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "detail/Backoff.hpp"
#include "detail/BatchState.hpp"
#include "detail/CpuSpread.hpp"
#include "detail/DueQueue.hpp"
#include "detail/EntranceQueue.hpp"
#include "detail/GroomingToken.hpp"
#include "detail/GroupState.hpp"
#include "detail/JobPool.hpp"
#include "detail/LoadController.hpp"
#include "detail/ParkSafetyNet.hpp"
#include "detail/ReadyQueue.hpp"
#include "detail/TimeQueue.hpp"
#include "detail/Trace.hpp"
#include "detail/WakeProtocol.hpp"
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

    // Coroutines (Resumption.cpp, docs/coroutines.md).
    /// From inside the running job `job` (a coroutine's slice, about to suspend): when the
    /// slice returns, run the job again once every job in `after` is final, not before
    /// `start`, instead of finalising it. `after` (validated by the caller) must live
    /// until then. Throws std::logic_error outside a job of this scheduler, or for a
    /// second request in one slice.
    void requestResume(JobRecord* job, std::span<const JobHandle> after, TimePoint start);

    // Batches (BatchPosting.cpp): see PostBatch and BatchState.
    std::unique_ptr<BatchState> openBatch(std::size_t expectedJobs);
    /// A record for a batch job, appended to the batch (not counted, not announced).
    JobRecord* acquireBatched(BatchState& batch, const JobOptions& opts);
    /// Count, wire and publish the batch's jobs; throws as acquire() does after shutdown.
    void submitBatch(BatchState& batch);
    /// The batch's jobs end Cancelled without ever having been submitted or counted.
    void discardBatch(BatchState& batch) noexcept;
    /// A closed batch's state, kept for the next one.
    void recycleBatch(std::unique_ptr<BatchState> batch) noexcept {
        batchStock_.give(std::move(batch));
    }

    /// When a helper may stop before the queues are empty: wait() stops once its jobs
    /// are final. No `done`: drain()'s helper, which runs until nothing is queued.
    struct HelpStop {
        bool (*done)(const void* context) = nullptr;
        const void* context = nullptr;
    };
    /// Block until every job in `jobs` (this scheduler's) is final, helping as drain()
    /// does; false if the steady deadline passed first (see Waiting.cpp).
    bool waitUntil(std::span<JobRecord* const> jobs, TimePoint steadyDeadline);
    /// The waiting loop behind waitUntil and waitGroupUntil: help, then sleep on
    /// jobEndSignal_ until `done` (whose ends that signal announces) holds.
    bool waitUntilDone(HelpStop done, TimePoint steadyDeadline);
    /// Cancel a job that has not started; true if this call did (see Cancellation.cpp).
    bool cancel(JobRecord* job);

    void drain();
    /// `help`: run queued untimed jobs on this thread while waiting (helpWhileWaiting).
    bool drainUntil(TimePoint steadyDeadline, bool help = true);
    ShutdownReport shutdown(ShutdownMode mode);
    void wake();

    Statistics stats() const;
    std::uint64_t queueDepth() const noexcept;
    TimePoint now() const noexcept { return clock_->now(); }
    unsigned workerCount() const noexcept { return static_cast<unsigned>(workers_.size()); }
    /// Which of this scheduler's threads runs the calling job (see Scheduler::threadIndex).
    std::optional<unsigned> threadIndex() const noexcept {
        if (tlWorker_.core != this) return std::nullopt;
        if (tlWorker_.worker) return tlWorker_.worker->index;
        if (tlWorker_.helperSlot < 0) return std::nullopt;
        return workerCount() + static_cast<unsigned>(tlWorker_.helperSlot);
    }
    unsigned threadSlots() const noexcept {
        return workerCount() + static_cast<unsigned>(helperCounters_.size());
    }
    bool writeTraceDump(std::ostream& out) const;
    /// Never the same for two schedulers of one process (see GroupState::owner).
    std::uint64_t id() const noexcept { return id_; }
    bool owns(const JobRecord* rec) const noexcept { return rec->pool == pool_.get(); }
    const JobPool* pool() const noexcept { return pool_.get(); }

    // Groups of jobs (JobGroups.cpp).
    GroupState* makeGroup();
    bool waitGroupUntil(GroupState& group, TimePoint steadyDeadline);

  private:
    /// `allowedCpus`: the process's CPUs, read once (a system call) for both of their uses.
    SchedulerCore(const SchedulerConfig& cfg, WorkForce::ThreadStarter starter,
                  const std::vector<int>& allowedCpus);

    /// What a coroutine's slice asked for (requestResume), kept until the slice returned.
    struct Resumption {
        JobRecord* job = nullptr;  ///< none: no request
        std::span<const JobHandle> after;
        TimePoint start = kAsap;
    };

    /// One worker thread's state. Only the fields that live longer than one step of its
    /// loop are here; what one step tells the next (whether it groomed, how its wait
    /// ended) travels as arguments and return values (see workerLoop).
    struct Worker {
        Worker(unsigned idx, const SchedulerConfig& cfg, TokenAwareLock::Witness witness,
               JobPool* pool);
        WorkerCounters counters;
        Backoff backoff;
        /// The continuation: the next untimed job for this worker, bypassing the queues
        /// (the first job a finalisation on this worker released).
        JobRecord* local = nullptr;
        /// Jobs run; every CpuSpread::kCheckPeriod-th looks where the workers run.
        std::uint32_t ran = 0;
        /// When it last woke a parked worker (steady clock; zero: no wake watched), and
        /// that wake's number (see spreadCheck).
        TimePoint wokeAt{};
        std::uint32_t wokeSeq = 0;
        /// Jobs taken; every kFairnessPeriod-th take first moves a batch from the shared
        /// ready queue to the back of the own queue and takes from there (see takeUntimed).
        std::uint32_t takes = 0;
        /// Pushes onto `posted` since this worker's last finalisation. A post from a job
        /// comes through the public post(), which has no worker to return this to, so it
        /// lives here; finalize() takes it over as its own-queue push count, so that the
        /// first push (posted or released) checks for a sleeper to wake and the end of the
        /// job checks once more (see release()).
        std::uint32_t postedPushes = 0;
        ParkSafetyNet safetyNet;
        unsigned index;
        /// Free records: what this worker finishes and posts, without touching the pool.
        RecordCache cache;
        /// Untimed jobs this worker released beyond its continuation, FIFO. The owner pushes
        /// and pops without contention; idle workers steal from it (see takeUntimed). On
        /// cache lines of its own: idle workers poll its size, and the fields above are
        /// written on every job (sharing a line, each job would cost the owner a miss).
        alignas(64) ReadyQueue own;
        /// Untimed jobs posted from this worker's jobs. Its owner takes the newest first
        /// (depth first: recursive spawning holds about depth x branching jobs per worker,
        /// not a whole level of the tree); idle workers steal the oldest half, the biggest
        /// pieces of a recursion. On lines of its own, like `own`.
        alignas(64) ReadyQueue posted;
        /// A request of the coroutine slice running on this worker to run again later.
        /// On a line of its own, after the rest: the fields written on every job keep
        /// their lines, and run() reads it once per job from a line only this worker writes.
        alignas(64) Resumption resume;
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
    using WaitEnd = WakeProtocol::WaitEnd;

    // Construction, posting, drain() and shutdown() are in SchedulerCore.cpp.
    // The pull loop and a job's path (JobPath.cpp).
    void workerLoop(Worker& w);
    void run(JobRecord* job, Worker& w);
    /// `own`: with no worker, a counter block only the calling thread writes (a helping
    /// thread's, see HelperCounters), counted without locked instructions.
    void finalize(JobRecord* job, JobState outcome, Worker* w, WorkerCounters* own = nullptr);
    [[gnu::always_inline]] inline void release(JobRecord* job, Worker* w, std::uint32_t& ownPushes);
    /// release() for a job whose gate opened in submit(): an untimed post from a job on
    /// this scheduler's worker goes to that worker's `posted` queue, any other to release().
    void releasePosted(JobRecord* job);
    /// Count a predecessor in `rec`'s gate per handle (the caller set the gate), wiring `rec`
    /// under each one that has not ended; returns how many had ended (their counts are the
    /// caller's to take off). One that ended without completing dooms `rec`, unless it is
    /// `resuming`.
    static std::int32_t wirePredecessors(JobRecord* rec, std::span<const JobHandle> preds);
    /// The slice of `job` that asked for `r` returned: count it, and put the job back
    /// behind its gate for its resumption (Resumption.cpp). `own` as for finalize().
    void rearm(JobRecord* job, const Resumption& r, Worker* w, WorkerCounters* own);
    [[gnu::always_inline]] inline JobRecord* takeUntimed(Worker& w);
    void pushReady(JobRecord* job, Worker* w);
    void pushTimed(JobRecord* job, Worker* w);
    /// Whom a timed job (or the earliest of several) posted into the entrance wakes.
    void wakeForTimedPost(bool due, std::int64_t start, Worker* w);
    /// Batch steps (BatchPosting.cpp).
    void countBatch(BatchState& batch);
    void wireBatch(BatchState& batch);
    void openBatchGates(BatchState& batch);
    void publishBatch(BatchState& batch);

    // Untimed queues: the shared FIFO and the workers' own queues (UntimedQueues.cpp).
    JobRecord* takeShared(Worker& w);
    void admitShared(Worker& w);
    std::size_t popSharedBatch(JobRecord** out, std::size_t max);
    [[gnu::noinline]] JobRecord* steal(Worker& w);
    bool untimedQueued() const noexcept;

    // The time queue: grooming and the due queue (Grooming.cpp).
    JobRecord* takeDue(bool groomedSinceLook);
    void awaitHandOuts() const noexcept;
    GroomResult groom(Worker& w, bool askFanOut);
    void handOutDue(JobRecord* dueList, JobRecord* expired, std::int64_t periods, TimePoint t,
                    const GroomResult& r, Worker& w);

    // Waking others: the scheduler's side of the WakeProtocol (Waking.cpp).
    void wakeForDueWork(Worker* w);
    bool wakeParked(Worker* w);
    bool wakeHelpers(Worker* w);
    void passWakeOn(Worker& w);
    void notifyTender(Worker* w);
    void handOverBeforeHead(const GroomResult& g, bool sleptToHead, Worker& w);
    void spreadCheck(Worker& w);

    // A worker with nothing to run (WorkerIdle.cpp).
    WaitEnd waitForWork(const GroomResult& g, bool sleptToHead, bool quiet, Worker& w);
    void backoff(Worker& w);
    void spinUntil(TimePoint until, Worker& w);
    WaitEnd sleepTowardsHead(TimePoint head, TimePoint until, bool quiet, Worker& w);
    bool idleSpin(bool quiet);
    WaitEnd park(bool quiet, Worker& w);
    WaitEnd parkEnded(bool quiet, Worker& w) noexcept;
    WakeProtocol::QueuesSeen queuesSeen() const noexcept;
    TimePoint toSteady(TimePoint schedulerTime) const noexcept;

    // A thread in drain() that runs jobs while it waits (HelpingWait.cpp).
    bool helpUntil(TimePoint steadyDeadline, HelpStop stop = HelpStop{nullptr, nullptr});
    bool helpingAllowed() const noexcept;
    JobRecord* takeForHelper();
    JobRecord* stealForHelper();
    bool helperWorkSeen() const noexcept;
    /// What a helper with a CPU of its own saw while it watched before sleeping.
    enum class HelperWatch { Done, DeadlinePassed, Work, Nothing };
    HelperWatch helperWatch(HelpStop done, TimePoint steadyDeadline);
    /// Where rule E applies (helpersWakeable_), a helper's sleep on `signal` until notified
    /// or `steadyDeadline`, unless `done` holds, the deadline passed, or work for it
    /// appeared after it announced itself. Returns true once done, false once the deadline
    /// passed, nothing when the helper should look for work again. Elsewhere a helper
    /// sleeps as a non-helping waiter does: its extra look at the queues read lines the
    /// workers write (a drain() of 16 jobs paid ~30 ns per job for it).
    std::optional<bool> helperSleep(WakeSignal& signal, HelpStop done, TimePoint steadyDeadline);
    void runOnCaller(JobRecord* job, WorkerCounters* own);

    /// Take a queued job for running or expiring (see Cancellation.cpp). False: cancel()
    /// won it and finalised it already; the queue's reference it held is dropped here.
    /// Without a handle nobody can cancel a job, so then it costs two loads, no RMW.
    bool claimQueued(JobRecord* job) noexcept {
        if (soleReference(job) && !job->claimed.load(std::memory_order_relaxed)) return true;
        if (!job->claimed.exchange(true, std::memory_order_acq_rel)) return true;
        releaseRef(job);
        return false;
    }

    /// A job of a cancelled group is cancelled instead of run (JobGroup::cancel).
    static bool groupCancelled(const JobRecord* job) noexcept {
        return job->group && job->group->cancelled.load(std::memory_order_relaxed);
    }
    /// The group's share of finalize(): count the end, wake its waiters, let go of it.
    void endInGroup(JobRecord* job, JobState outcome) noexcept;

    // Accounting and observation (Accounting.cpp).
    std::uint64_t finishedCount() const noexcept;
    std::uint64_t submittedCount() const noexcept;
    bool allFinished() const noexcept;
    /// allFinished() as a HelpStop (drain()'s sleep).
    static bool allFinishedOf(const void* core) noexcept {
        return static_cast<const SchedulerCore*>(core)->allFinished();
    }
    void notifyDrainIfDone() noexcept;
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
    /// True while the innermost job on this thread is this scheduler's (a worker's loop,
    /// or a thread helping in drain() or wait() running one): where its posts count as a
    /// job's and go to that thread's queues.
    bool onOwnWorker() const noexcept {
        return tlWorker_.core == this;
    }
    /// True while any job on this thread's stack is this scheduler's, however many other
    /// schedulers' waits it helps in above it: where drain(), shutdown() and wait() would
    /// wait for a job below them on the same stack.
    bool insideJobOfThis() const noexcept {
        for (const WorkerOf* of = &tlWorker_; of; of = of->outer)
            if (of->core == this) return true;
        return false;
    }
    /// The worker of this scheduler that runs on the calling thread, if any.
    Worker* callingWorker() const noexcept {
        return tlWorker_.core == this ? tlWorker_.worker : nullptr;
    }
    /// Make the calling thread this scheduler's worker `w` (as its loop starts), or no
    /// scheduler's (nullptr, as it ends).
    void markWorkerThread(Worker* w) const noexcept {
        tlWorker_ = {w ? this : nullptr, w};
    }
    void endOutsidePost() noexcept;

    /// The scheduler whose worker loop runs on this thread, and which worker: lets drain()
    /// and shutdown() refuse to wait for themselves, lets shutdown() tell a job's post
    /// (accepted, then finalised by shutdown) from another thread's (refused), and sends a
    /// job's untimed posts to its worker's `posted` queue.
    struct WorkerOf {
        const SchedulerCore* core = nullptr;
        Worker* worker = nullptr;  ///< none: a thread in drain() running a job (helpUntil)
        /// That thread's pushes onto helperPosted_ during the job (see Worker::postedPushes).
        std::uint32_t helperPushes = 0;
        /// That thread's continuation (see Worker::local): it runs next, there.
        JobRecord* helperLocal = nullptr;
        /// What the thread was before it began running this scheduler's job while helping
        /// (saved on runOnCaller's stack): a thread remembers every scheduler it is inside
        /// of, a stack, not a slot (see insideJobOfThis).
        const WorkerOf* outer = nullptr;
        /// That thread's helperCounters_ block, which numbers it among the helpers (-1: none).
        int helperSlot = -1;
        /// A request of the coroutine slice that thread runs to run again later.
        Resumption resume{};
    };
    static thread_local WorkerOf tlWorker_;

    const SchedulerConfig cfg_;
    const std::uint64_t id_;
    SteadyClockSource steadyClock_;
    const ClockSource* clock_;
    Observer* observer_;
    LoadController loadController_;
    /// Rule E applies (fewer workers than CPUs, helping allowed): decided once here, and
    /// passed to the WakeProtocol (whom a waker wakes) and to CpuSpread (steering the
    /// helper); drain() and wait() read it to choose the helper's sleep.
    const bool helpersWakeable_;

    PoolOwner pool_;  ///< retired, not deleted: handles may outlive the scheduler
    GroomingToken token_;
    /// Times the token holder had to wait for a queue lock; the design says never.
    std::atomic<std::uint64_t> tokenHolderWaits_{0};
    EntranceQueue entrance_;  ///< timed jobs whose gate opened, from any thread
    ReadyQueue ready_;        ///< untimed jobs whose gate opened, FIFO, popped by any worker
    /// Untimed jobs posted from jobs that threads in drain() run (see helpUntil): taken
    /// newest first by those threads, stolen oldest first by the workers, as a worker's
    /// `posted` queue is. Shared by every thread in drain() at once.
    alignas(64) ReadyQueue helperPosted_;
    DueQueue due_;  ///< due timed jobs by (start, seq), popped by any worker
    /// Grooming passes between taking the token and putting what they collected into due_.
    /// While one is under way, a due job with a smaller key may be in its hands, so workers
    /// wait for it before taking a timed job.
    alignas(64) std::atomic<std::uint32_t> handOutsInTransit_{0};
    TimeQueue<JobRecord*> timeQueue_;  ///< guarded by token_
    TimePoint nextDutyCycle_{};        ///< guarded by token_

    /// Who sleeps, who is being woken, and who tends the next head.
    WakeProtocol wake_;
    WakeSignal drainSignal_;   ///< threads in drain()
    WakeSignal jobEndSignal_;  ///< threads in wait(): a job marked `waited` ended

    // Written per post, each on its own line (the workers read stopping_ on every loop:
    // sharing a line with a per-job counter cost them a miss per job).
    /// Jobs posted, except untimed ones posted on a worker (WorkerCounters::posted):
    /// submitted = seq_ + the workers' posted; open = submitted - finished.
    alignas(64) std::atomic<std::uint64_t> seq_{0};
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
    /// Counter blocks for threads that help in drain() or wait(), one per helping thread
    /// while it helps (taken in helpUntil, given back after): its jobs are counted as a
    /// worker's are, by one writer, instead of with a fetch_add on external_ each (three
    /// locked instructions per job on a chain the caller runs). Four: more threads waiting
    /// at once than that fall back to external_.
    struct HelperCounters {
        std::atomic<bool> taken{false};
        WorkerCounters counters;
    };
    std::array<HelperCounters, 4> helperCounters_;
    HelperCounters* takeHelperCounters() noexcept;
    std::vector<std::unique_ptr<Worker>> workers_;
    WorkForce workForce_;

    /// Threads inside drain(), wait() or a group's wait(): the destructor lets them leave
    /// before it frees what they sleep on (see ~SchedulerCore).
    std::atomic<std::uint32_t> waitersInside_{0};
    /// Counts a thread in for the scope of its wait; its leaving is its last touch of the core.
    struct WaiterInside {
        std::atomic<std::uint32_t>& count;
        explicit WaiterInside(std::atomic<std::uint32_t>& c) noexcept : count(c) {
            count.fetch_add(1, std::memory_order_seq_cst);
        }
        ~WaiterInside() { count.fetch_sub(1, std::memory_order_release); }
        WaiterInside(const WaiterInside&) = delete;
        WaiterInside& operator=(const WaiterInside&) = delete;
    };

    std::mutex shutdownMutex_;
    std::optional<ShutdownReport> shutdownReport_;

    /// Last, so that the members above keep their places on the cache lines, and so that
    /// it goes first: its records return to the pool before the pool is retired.
    BatchStock batchStock_;
};

}  // namespace pullsched::detail
