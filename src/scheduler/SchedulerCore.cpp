#include "detail/SchedulerCore.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

#include "detail/ThreadAffinity.hpp"
#include "pullsched/scheduler/Observer.hpp"
#include "pullsched/scheduler/detail/CpuRelax.hpp"

namespace pullsched::detail {

namespace {

std::int64_t ticks(TimePoint t) noexcept {
    return t.time_since_epoch().count();
}

/// Idle spin: pause rounds first (~2 us), then yields. A yield that returns later than
/// this ran another thread meanwhile (a yield with nobody else runnable takes ~1 us).
constexpr unsigned kPauseRounds = 64;
constexpr Duration kYieldPreempted = std::chrono::microseconds(20);
/// A woken worker that has not started after this is taken to be queued behind its waker.
constexpr Duration kWakeOverdue = std::chrono::microseconds(200);

/// Every this many takes a worker looks at the shared ready queue before its own.
constexpr std::uint32_t kFairnessPeriod = 64;

/// At most this many jobs move in one steal (half of the victim's queue, at least one).
constexpr std::size_t kStealBatch = 32;
/// How an idle worker lets the shared FIFO fill while a poster streams (see takeShared):
/// a look every 0.3 us, at most 8 looks (2.4 us), done at 16 queued jobs (two cache
/// lines of the ring). Measured on 10 000 isolated posts (ns/job, post and drain): 310
/// taking each job at once; 360-440 taking batches without looking; 145-160 looking every
/// 0.3 us up to 8 jobs, 140 every 0.6 us, 128-139 every 0.3 us up to 16.
constexpr Duration kSharedLook = std::chrono::nanoseconds(300);
constexpr unsigned kSharedLooks = 8;
constexpr std::size_t kSharedFull = 16;

/// How far a tender looks down a chain of single successors from its head for a fan-out
/// (see fansOutAhead).
constexpr unsigned kFanOutLookAhead = 16;

/// The scheduler whose worker loop runs on this thread, if any: lets drain() and
/// shutdown() refuse to wait for themselves, and lets shutdown() tell a job's post
/// (accepted, then finalised by shutdown) from another thread's (refused).
thread_local const SchedulerCore* tlWorkerOf = nullptr;

/// The next scheduler identity. Process-wide on purpose, the one such variable here: an
/// identity must differ from every other scheduler's in the process, past ones included,
/// which no per-instance state can promise. 64 bits do not wrap (a million schedulers a
/// second would take over 500 000 years).
std::atomic<std::uint64_t> nextSchedulerId{1};

void validate(const SchedulerConfig& cfg) {
    auto fail = [](const std::string& what) {
        throw std::invalid_argument("pullsched: invalid SchedulerConfig: " + what);
    };
    if (cfg.workers == 0) fail("workers must be at least 1 (got 0)");
    if (cfg.workers > 1024)
        fail("workers must be at most 1024 (got " + std::to_string(cfg.workers) + ")");
    const LoadHorizons& h = cfg.horizons;
    if (!(Duration::zero() < h.nearTime && h.nearTime <= h.workTime && h.workTime <= h.idleWait))
        fail("horizons must satisfy 0 < nearTime <= workTime <= idleWait");
    if (h.spinWindow < Duration::zero()) fail("horizons.spinWindow must not be negative");
    const BackoffConfig& b = cfg.backoff;
    if (b.maxExponent <= b.spinLevels) fail("backoff.maxExponent must exceed backoff.spinLevels");
    if (b.maxExponent - b.spinLevels > 20) fail("backoff.maxExponent - spinLevels must be <= 20");
    if (b.sleepBase <= Duration::zero()) fail("backoff.sleepBase must be positive");
    if (cfg.dutyCycle <= Duration::zero()) fail("dutyCycle must be positive");
    if (cfg.idleSpin < Duration::zero()) fail("idleSpin must not be negative");
}

}  // namespace

SchedulerCore::Worker::Worker(unsigned idx, const SchedulerConfig& cfg,
                              TokenAwareLock::Witness witness, JobPool* pool)
    : backoff(cfg.backoff, 0x9E3779B97F4A7C15ull * (idx + 1)),
      index(idx),
      cache(pool),
      own(cfg.initialJobCapacity, witness)
#if PULLSCHED_TRACE
      ,
      trace(static_cast<std::uint16_t>(idx), cfg.traceEventsPerWorker)
#endif
{
}

SchedulerCore::SchedulerCore(const SchedulerConfig& cfg, WorkForce::ThreadStarter starter)
    : cfg_((validate(cfg), cfg)),
      id_(nextSchedulerId.fetch_add(1, std::memory_order_relaxed)),
      clock_(cfg.clock ? cfg.clock : &steadyClock_),
      observer_(cfg.observer),
      loadController_(cfg.horizons),
      pool_(JobPool::create(cfg.initialJobCapacity)),
      entrance_(cfg.initialJobCapacity),
      ready_(cfg.initialJobCapacity, {&token_, &tokenHolderWaits_}),
      due_(cfg.initialJobCapacity, {&token_, &tokenHolderWaits_}),
      timeQueue_(cfg.initialJobCapacity),
      maxSpinners_(std::max(1u, cfg.workers / 2)),
      spread_(cfg.workers, cfg.spreadWorkers && cfg.pinWorkers == WorkerPinning::None
                               ? processCpus()
                               : std::vector<int>{}),
      workForce_(std::move(starter)) {
    nextDutyCycle_ = saturatingAdd(now(), cfg_.dutyCycle);
    workers_.reserve(cfg_.workers);
    for (unsigned i = 0; i < cfg_.workers; ++i)
        workers_.push_back(std::make_unique<Worker>(
            i, cfg_, TokenAwareLock::Witness{&token_, &tokenHolderWaits_}, pool_.get()));
    try {
        workForce_.start(cfg_.workers, cfg_.lowTimerSlack, cfg_.pinWorkers,
                         [this](unsigned i) { workerLoop(*workers_[i]); });
    } catch (...) {
        // No destructor runs for a constructor that throws, and the work force's own
        // would wait for ever on workers never told to stop: stop those that started.
        shutdown(ShutdownMode::Cancel);
        throw;
    }
}

SchedulerCore::~SchedulerCore() {
    shutdown(cfg_.shutdownMode);  // the pool is retired after the workers' caches returned
}

// ---------------------------------------------------------------- posting

bool SchedulerCore::onOwnWorker() const noexcept {
    return tlWorkerOf == this;
}

void SchedulerCore::endOutsidePost() noexcept {
    if (!onOwnWorker()) outsidePosts_.fetch_sub(1, std::memory_order_seq_cst);
}

JobRecord* SchedulerCore::acquire(const JobOptions& opts) {
    if (opts.start != kAsap && opts.deadline != kNoDeadline && opts.deadline < opts.start)
        throw std::invalid_argument("pullsched: job deadline lies before its start time");
    if (!onOwnWorker()) {
        // Announce the post, then check: shutdown() closes, then waits for announced posts,
        // so either it sees this post or this post sees it closed (both seq_cst).
        outsidePosts_.fetch_add(1, std::memory_order_seq_cst);
        spread_.notePost();
        if (closed_.load(std::memory_order_seq_cst)) {
            endOutsidePost();
            throw std::logic_error("pullsched: post() after shutdown() began");
        }
    }
    JobRecord* rec = nullptr;
    try {
        rec = pool_->acquire();
    } catch (...) {
        endOutsidePost();
        throw;
    }
    rec->owner = id_;
    rec->start = opts.start;
    rec->deadline = opts.deadline;
    rec->tag = opts.tag;
    rec->refs.store(1, std::memory_order_relaxed);  // the scheduler's
    rec->gate.store(1, std::memory_order_relaxed);  // the poster's guard
    return rec;
}

void SchedulerCore::abandon(JobRecord* rec) noexcept {
    releaseRef(rec);
    endOutsidePost();
}

void SchedulerCore::submit(JobRecord* rec, std::span<const JobHandle> preds) {
    struct EndPost {
        SchedulerCore* core;
        ~EndPost() { core->endOutsidePost(); }
    } endPost{this};
    rec->seq = seq_.fetch_add(1, std::memory_order_relaxed);
    for (const JobHandle& handle : preds) {
        JobRecord* p = handle.rec_;
        std::lock_guard lock(p->succLock);
        if (!p->closed) {
            // No reference for p's list: rec cannot end (nor be recycled) before p notified
            // it, since until then its gate stays above zero and the scheduler holds it.
            rec->gate.fetch_add(1, std::memory_order_relaxed);
            p->addSuccessor(rec);
        } else if (p->state.load(std::memory_order_acquire) != JobState::Completed) {
            rec->doomed.store(true, std::memory_order_relaxed);
        }
    }
    if (rec->gate.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        if (rec->doomed.load(std::memory_order_relaxed)) {
            finalize(rec, JobState::Cancelled, nullptr);
        } else {
            release(rec, nullptr);
        }
    }
}

/// The gate opened and no predecessor failed: queue the job. Timed jobs always go
/// through the time-ordered queue, even when already due, so they leave in (start,
/// sequence) order. Untimed ones released by a worker run next on it (the continuation)
/// or go to its own queue, where other workers steal them; untimed ones released
/// elsewhere (a post from another thread) take the shared FIFO.
///
/// The first push onto the worker's own queue in a finalisation checks for a sleeper to
/// wake at once, so that a wide fan-out is shared while it is still being released (10 000
/// releases take about a millisecond); later pushes only count, and finalize() checks once
/// more after the last of them (see there).
/// Own queues are not counted in queued_ (a shared counter): queueDepth() adds their sizes.
void SchedulerCore::release(JobRecord* job, Worker* w) {
    job->state.store(JobState::Scheduled, std::memory_order_relaxed);
    if (job->start != kAsap) {
        pushTimed(job, w);
    } else if (!w) {
        pushReady(job, w);
    } else if (!w->local) {
        w->local = job;  // run it next on this worker: no queue round-trip
        w->localIsContinuation = true;
    } else {
        w->own.push(job);  // uncontended unless somebody steals right now
        if (w->ownPushes++ == 0) wakeForDueWork(w);
    }
}

void SchedulerCore::pushReady(JobRecord* job, Worker* w) {
    queued_.fetch_add(1, std::memory_order_relaxed);
    ready_.push(job);
    wakeForDueWork(w);
}

/// Due work was published: wake a parked worker or, if none is parked, the tender, which
/// may sleep towards a head far ahead and would not look again before it. (The tender
/// announces itself in tendTarget_ before it checks for work and sleeps; both sides are
/// sequentially consistent, so either it sees the work or we see it.)
///
/// At most one wake is in flight: while a notified worker has not yet looked for work,
/// further releases wake nobody, and that worker wakes the next one when it takes a job
/// and sees more (passWakeOn). It clears the flag after it stopped waiting and before it
/// looks (both sequentially consistent, like our fence before reading the flag), so
/// either it sees this work or we see the flag clear and wake somebody ourselves.
void SchedulerCore::wakeForDueWork(Worker* w) {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    // A spinning worker will see the work (it re-checks after it stops spinning, before
    // it parks) and wakes the next one if more is left; waking a sleeper now would only
    // preempt the thread that posts.
    if (spinners_.load(std::memory_order_seq_cst) > 0) return;
    if (wakeInFlight_.load(std::memory_order_seq_cst)) return;
    if (idleSignal_.hasWaiters()) {
        if (wakeInFlight_.exchange(true, std::memory_order_seq_cst)) return;
        if (wakeParked(w)) {
            if (w && spread_.enabled()) {  // see spreadCheck
                w->wokeAt = SteadyClock::now();
                w->wokeSeq = wakeSeq_.fetch_add(1, std::memory_order_relaxed) + 1;
            }
            return;
        }
        wakeInFlight_.store(false, std::memory_order_seq_cst);  // it left before we woke it
    }
    if (tendTarget_.load(std::memory_order_seq_cst) != kNoTender) notifyTender(w);
}

/// Wake one parked worker, steered off the waker's CPU first (see CpuSpread). Returns
/// whether anybody was waiting.
bool SchedulerCore::wakeParked(Worker* w) {
    if (const unsigned steered = spread_.steerParked(w ? w->index : CpuSpread::kOutside))
        bump(w, &WorkerCounters::spreadSteers, steered);
    if (!idleSignal_.notifyOne()) return false;
    bump(w, &WorkerCounters::wakeups);
    return true;
}

/// Every CpuSpread::kCheckPeriod jobs: keep busy workers on different CPUs. A worker whose
/// wake is still in flight kWakeOverdue after it was sent (a wake-up takes tens of
/// microseconds here) also leaves its CPU: the woken worker may be queued behind it there
/// (measured: such a worker started up to 3 ms late while another CPU idled).
void SchedulerCore::spreadCheck(Worker& w) {
    if (!spread_.enabled()) return;
    const TimePoint now = SteadyClock::now();
    bool overdue = false;
    if (w.wokeAt != TimePoint{}) {
        // Still in flight, and still ours: no later wake was sent (by anybody) since.
        if (!wakeInFlight_.load(std::memory_order_relaxed) ||
            wakeSeq_.load(std::memory_order_relaxed) != w.wokeSeq) {
            w.wokeAt = TimePoint{};
        } else if (now - w.wokeAt > kWakeOverdue) {
            overdue = true;
            w.wokeAt = TimePoint{};
        }
    }
    if (spread_.check(w.index, now, overdue)) WorkerCounters::bump(w.counters.spreadMoves);
}

/// Wake the tend-next worker, unless a wake is on its way to it already. A woken thread
/// leaves the waiter count only when it runs, so without this every release in that window
/// issued another FUTEX_WAKE: 4.5 syscalls per run of the 64-job burst, on the releasing
/// worker's path. The tender clears the flag after its wait and before it looks for work,
/// so either it sees what we published or we see the flag clear (as with wakeInFlight_).
void SchedulerCore::notifyTender(Worker* w) {
    if (tenderWakeInFlight_.exchange(true, std::memory_order_seq_cst)) return;
    if (tenderSignal_.notifyAll()) {
        bump(w, &WorkerCounters::wakeups);
        return;
    }
    tenderWakeInFlight_.store(false, std::memory_order_seq_cst);  // nobody was waiting
}

/// A worker that was woken took a job: if more work is waiting, wake the next sleeper.
void SchedulerCore::passWakeOn(Worker& w) {
    if (!due_.empty() || untimedQueued()) wakeForDueWork(&w);
}

void SchedulerCore::pushTimed(JobRecord* job, Worker* w) {
    // Read the job before pushing it: once pushed, a worker may run and recycle it.
    const std::int64_t start = ticks(job->start);
    const bool due = job->start <= now();
    queued_.fetch_add(1, std::memory_order_relaxed);
    entrance_.push(job);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    const std::int64_t tended = tendTarget_.load(std::memory_order_seq_cst);
    if (due) {
        wakeForDueWork(w);  // somebody must groom it in now
    } else if (tended == kNoTender) {
        // Nobody watches the queue: have one parked worker groom and become the tender.
        if (idleSignal_.notifyOne()) bump(w, &WorkerCounters::wakeups);
    } else if (start < tended) {
        // The tender sleeps towards a later head: wake it to look at this one.
        notifyTender(w);
    }
}

// ---------------------------------------------------------------- the pull loop

void SchedulerCore::workerLoop(Worker& w) {
    tlWorkerOf = this;
    spread_.attach(w.index);
    RecordCache::bind(&w.cache);
    struct Unbind {  // the cache goes back to the pool with the thread, however it ends
        Worker& w;
        ~Unbind() {
            RecordCache::bind(nullptr);
            w.cache.flush();
        }
    } unbind{w};
    while (true) {
        if (stopping_.load(std::memory_order_relaxed)) {
            if (w.local) {  // handed back, so that shutdown cancels it
                queued_.fetch_add(1, std::memory_order_relaxed);
                ready_.push(std::exchange(w.local, nullptr));
            }
            break;
        }
        const bool groomedSinceLook = std::exchange(w.groomed, false);
        const bool woken = std::exchange(w.woken, false);
        JobRecord* job = std::exchange(w.local, nullptr);
        if (job) {
            if (w.localIsContinuation) WorkerCounters::bump(w.counters.continuations);
            w.localIsContinuation = false;
        } else if (!(job = takeUntimed(w))) {
            job = takeDue(groomedSinceLook);
        }
        if (job && woken) passWakeOn(w);
        if (job) {
            w.quiet = false;
            run(job, w);
            w.backoff.onSuccess();
            if (++w.ran % CpuSpread::kCheckPeriod == 0) spreadCheck(w);
            continue;
        }
        if (std::exchange(w.finishedSinceCheck, false)) {  // a busy spell ended
            notifyDrainIfDone();
            spread_.idle(w.index);
        }

        const GroomResult g = groom(w);
        if (g.contended) {
            // Due work waits behind the holder's hand-out: take it then, no backoff.
            if (!due_.empty()) continue;
            backoff(w);
            continue;
        }
        w.backoff.onSuccess();
        w.groomed = true;
        if (g.moved > 0) continue;
        // Jobs that expired in this grooming pass were finalised here: they may have been
        // the last ones drain() waits for, and this worker is about to wait itself.
        if (std::exchange(w.finishedSinceCheck, false)) notifyDrainIfDone();

        const TimePoint t = now();
        const std::int64_t tended = tendTarget_.load(std::memory_order_acquire);
        const bool mayTend = g.head && (tended == kNoTender || ticks(*g.head) < tended);
        const WorkerAction action = loadController_.decide(g.head, t, mayTend);
        PULLSCHED_TRACE_POINT(w.trace, t, Decision,
                              static_cast<int>(loadController_.classify(g.head, t)));
        const bool tendSleepEnded = std::exchange(w.tendSleepEnded, false);
        switch (action.kind) {
            case WorkerAction::Kind::Dispatch:
                break;
            case WorkerAction::Kind::Spin:
                // A tender about to spin towards its head hands the duty for the heads
                // behind it over now, not when the head is due: the wake-up (a syscall,
                // microseconds) then happens before the start instead of between grooming
                // the due job and running it. The woken worker spins towards the same head
                // and tends the next one once this one is taken.
                // The same when the head leads to a fan-out (see fansOutAhead): the woken
                // worker is awake (spinning, not parked) when the successors come, instead
                // of being woken then, which costs the releasing worker and the woken one
                // tens of microseconds on a VM (docs/design.md).
                // Only that wake is steered: the one that hands over tending the next
                // head alone did better unsteered (lateness of 2000 pending timed jobs,
                // p50 0.42-0.46 us against 0.54-0.80 steered).
                if (tendSleepEnded && g.headFansOut) {
                    wakeParked(&w);
                } else if (tendSleepEnded && g.more && idleSignal_.notifyOne()) {
                    WorkerCounters::bump(w.counters.wakeups);
                }
                spinUntil(action.until, w);
                break;
            case WorkerAction::Kind::TendNext:
                tendNext(*g.head, action.until, w);
                break;
            case WorkerAction::Kind::Park:
                park(w);
                break;
        }
    }
}

/// An untimed job: from this worker's own queue, else the shared FIFO (see takeShared),
/// else stolen from another worker's queue (the oldest there). Every kFairnessPeriod-th
/// take first moves a batch from the shared FIFO to the back of the own queue, so a worker
/// busy with its own releases cannot starve posts from other threads, and posts keep
/// their order (they wait behind the older jobs already moved).
JobRecord* SchedulerCore::takeUntimed(Worker& w) {
    JobRecord* job = nullptr;
    if (++w.takes % kFairnessPeriod == 0) admitShared(w);
    if (w.own.pop(job)) return job;  // the common case, kept small
    if ((job = takeShared(w))) return job;
    return steal(w);
}

/// Untimed jobs from the shared FIFO (posts from other threads and from jobs), for a
/// worker with nothing else to do. A thread that posts a stream of them writes the FIFO's
/// lines while an idle worker that takes each job at once reads them: every post then
/// cost the poster cache misses on lines the worker had just touched (10 000 isolated
/// posts: ~300 ns per post with a worker taking, 60 ns without). So the worker lets the
/// FIFO fill while it is still growing: it looks again every kSharedLook, until
/// kSharedFull jobs are queued, the count stood still for one look (the poster paused, or
/// posted one job), or kSharedLooks looks passed; then it takes a batch, half of what is
/// there and at most kStealBatch, onto its own queue, where the other workers steal. A
/// lone post waits one look (0.3 us) longer than before; a stream is taken in batches.
JobRecord* SchedulerCore::takeShared(Worker& w) {
    std::size_t seen = ready_.size();
    if (seen == 0) return nullptr;
    for (unsigned look = 0; look < kSharedLooks && seen < kSharedFull; ++look) {
        const TimePoint until = SteadyClock::now() + kSharedLook;
        while (SteadyClock::now() < until)
            cpuRelax();
        const std::size_t now = ready_.size();
        if (now == seen) break;
        seen = now;
    }
    std::array<JobRecord*, kStealBatch> batch;
    const std::size_t got = popSharedBatch(batch.data(), batch.size());
    if (got == 0) return nullptr;
    if (got > 1) w.own.pushAll(batch.data() + 1, got - 1);
    return batch[0];
}

/// A batch from the shared FIFO to the back of this worker's own queue (see takeUntimed).
void SchedulerCore::admitShared(Worker& w) {
    std::array<JobRecord*, kStealBatch> batch;
    if (const std::size_t got = popSharedBatch(batch.data(), batch.size()))
        w.own.pushAll(batch.data(), got);
}

/// The oldest half of the shared FIFO (at most `max`), taken off queued_: own queues
/// count themselves (see queueDepth).
std::size_t SchedulerCore::popSharedBatch(JobRecord** out, std::size_t max) {
    const std::size_t got = ready_.popHalf(out, max);
    if (got > 0) queued_.fetch_sub(got, std::memory_order_relaxed);
    return got;
}

/// Steal from another worker's own queue, trying each once: the oldest half of its jobs
/// (at most kStealBatch) in one lock. The first runs now, the rest go onto this worker's
/// own queue (empty: it steals only then), so a worker that lives on steals pays one steal
/// scan per batch instead of one per job. The batch is copied out before this
/// worker's own lock is taken, so two workers stealing from each other cannot deadlock.
JobRecord* SchedulerCore::steal(Worker& w) {
    std::array<JobRecord*, kStealBatch> batch;
    const std::size_t n = workers_.size();
    for (std::size_t i = 1; i < n; ++i) {
        Worker& victim = *workers_[(w.index + i) % n];
        const std::size_t got = victim.own.popHalf(batch.data(), batch.size());
        if (got == 0) continue;
        if (got > 1) w.own.pushAll(batch.data() + 1, got - 1);
        WorkerCounters::bump(w.counters.steals, got);
        return batch[0];
    }
    return nullptr;
}

/// Some untimed job is queued (shared FIFO or any worker's own queue).
bool SchedulerCore::untimedQueued() const noexcept {
    if (!ready_.empty()) return true;
    for (const auto& other : workers_)
        if (!other->own.empty()) return true;
    return false;
}

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
        if (spins < 64) {
            cpuRelax();
        } else {
            std::this_thread::yield();
        }
    }
}

SchedulerCore::GroomResult SchedulerCore::groom(Worker& w) {
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
    if (w.tendSleepEnded && r.head)  // only then is it asked (see the Spin case)
        r.headFansOut = fansOutAhead(timeQueue_.head().payload);
    nextHead_.store(r.head ? ticks(*r.head) : kNoTender, std::memory_order_seq_cst);
    std::int64_t periods = 0;  // duty cycles since the last one ran (many, when idle)
    if (t >= nextDutyCycle_) {
        // Duty cycle: the periodic upkeep the reference ran as an internal job.
        periods = 1 + saturatingSub(t, nextDutyCycle_) / cfg_.dutyCycle;
        nextDutyCycle_ = saturatingAdd(t, cfg_.dutyCycle);
        noteQueueDepth();
    }
    PULLSCHED_TRACE_POINT(w.trace, t, TokenDropped, r.moved);
    token_.release();

    // Everything below runs without the token.
    if (dueList) due_.pushList(dueList);
    handOutsInTransit_.fetch_sub(1, std::memory_order_seq_cst);
    // Without the token: freeing a burst's records takes a while.
    if (periods > 0) pool_->trim(static_cast<std::size_t>(periods));
    while (expired) {
        JobRecord* e = std::exchange(expired, expired->link);
        e->link = nullptr;
        PULLSCHED_TRACE_POINT(w.trace, t, Expired, e->tag);
        finalize(e, JobState::Expired, &w);
    }
    if (r.moved > 0) {
        noteQueueDepth();
        // This worker takes one itself; one sleeper is woken for the rest, and it wakes
        // the next if work remains (see wakeForDueWork).
        if (r.moved > 1) wakeForDueWork(&w);
        // This worker is about to run a job; if a later head remains and nobody tends
        // it, hand that duty to a parked worker.
        if (r.head && tendTarget_.load(std::memory_order_acquire) == kNoTender) {
            if (idleSignal_.notifyOne()) WorkerCounters::bump(w.counters.wakeups);
        }
    }
    return r;
}

/// Whether the head, or a job down the chain of single successors behind it (at most
/// kFanOutLookAhead links), releases more than one successor. A graph that opens with a
/// short chain before it fans out (a gate, then a few set-up jobs) needs its second worker
/// as much as one that fans out at once, and the chain of empty jobs runs in well under
/// the wake-up's tens of microseconds. A plain chain wakes nobody.
/// Called with the token held: the head cannot leave the time queue, and every job behind
/// it waits for it (a listed successor has a closed gate), so none of them can end.
bool SchedulerCore::fansOutAhead(JobRecord* head) {
    JobRecord* job = head;
    for (unsigned link = 0; link < kFanOutLookAhead; ++link) {
        JobRecord* next = nullptr;
        {
            std::lock_guard lock(job->succLock);
            if (job->inlineCount > 1 || job->moreSucc != nullptr) return true;
            if (job->inlineCount == 1) next = job->inlineSucc[0];
        }
        if (!next) return false;
        job = next;
    }
    return false;
}

void SchedulerCore::run(JobRecord* job, Worker& w) {
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
    finalize(job, outcome, &w);
}

/// A job reached its final state: count it, close its successor list and notify the
/// successors' gates. Cancellation cascades through a work list, not recursion, so a
/// failed head of a 100k-job chain cannot overflow the stack.
void SchedulerCore::finalize(JobRecord* job, JobState outcome, Worker* w) {
    JobRecord* cascade = nullptr;
    while (job) {
        job->task.reset();  // release captured resources now, not when the record is reused
        // Counted before the final state is stored: whoever sees the state final (a
        // handle) also sees the job counted in stats().
        WorkerCounters& c = countersOf(w);
        auto* counter = outcome == JobState::Completed ? &c.completed
                        : outcome == JobState::Failed  ? &c.failed
                        : outcome == JobState::Expired ? &c.expired
                                                       : &c.cancelled;
        if (w) {
            WorkerCounters::bump(*counter);
        } else {
            WorkerCounters::add(*counter);
        }
        {
            std::lock_guard lock(job->succLock);
            job->state.store(outcome, std::memory_order_release);
            job->closed = true;
        }
        const bool ok = outcome == JobState::Completed;
        job->forEachSuccessor([&](JobRecord* s) {
            if (!ok) s->doomed.store(true, std::memory_order_relaxed);
            const std::int32_t left = s->gate.fetch_sub(1, std::memory_order_acq_rel) - 1;
            if (w) PULLSCHED_TRACE_POINT(w->trace, now(), GateNotify, left);
            if (left == 0) {
                if (s->doomed.load(std::memory_order_relaxed)) {
                    s->link = std::exchange(cascade, s);  // alive: the scheduler's reference
                } else {
                    release(s, w);
                }
            }
            // s is not touched past this point: once its gate opened elsewhere, it may run
            // and end at any moment.
        });
        // One more wake check for what this job released onto the own queue after the
        // first push (a fence and three loads, or a futex wake): per batch, not per
        // successor. The jobs are already visible to thieves and spinners; this check
        // follows the last push, so a worker that parked meanwhile is not left asleep.
        if (w && std::exchange(w->ownPushes, 0) > 1) wakeForDueWork(w);
        // Ended last, with release: drain() takes "every posted job ended" to mean that
        // every final state is stored and every successor released (see allFinished).
        if (w) {
            WorkerCounters::publish(c.ended);
            w->finishedSinceCheck = true;
        } else {
            WorkerCounters::add(c.ended, 1, std::memory_order_release);
        }
        JobRecord* done = job;
        job = nullptr;
        if (cascade) {
            job = std::exchange(cascade, cascade->link);
            job->link = nullptr;
            outcome = JobState::Cancelled;
        }
        releaseRef(done);  // the scheduler's reference
    }
    if (!w) notifyDrainIfDone();  // a worker checks when it runs out of work
}

/// Jobs whose finalisation ended, over every worker and the outside threads (acquire:
/// their final states and releases are visible).
std::uint64_t SchedulerCore::finishedCount() const noexcept {
    std::uint64_t n = 0;
    auto add = [&n](const WorkerCounters& c) { n += c.ended.load(std::memory_order_acquire); };
    for (const auto& w : workers_)
        add(w->counters);
    add(external_);
    return n;
}

/// Every job posted so far is final. The finished count is read first: a job is posted
/// (seq_) before it can finish, so a later read of seq_ is never smaller, and equality
/// means none of the jobs posted up to that read is still open.
bool SchedulerCore::allFinished() const noexcept {
    const std::uint64_t finished = finishedCount();
    return finished == seq_.load(std::memory_order_acquire);
}

/// Wake drain() if it waits and nothing is left. Called by a worker that finished jobs
/// when it runs out of work, and after a finalisation on another thread: a per-job shared
/// counter of open jobs would cost the poster and every worker a contended atomic per job.
/// drain() announces itself before it counts, this runs after the counting stores (both
/// sequentially consistent), so either drain() sees the last job final or we see drain().
void SchedulerCore::notifyDrainIfDone() noexcept {
    if (drainSignal_.hasWaiters() && allFinished()) drainSignal_.notifyAll();
}

// ---------------------------------------------------------------- waiting

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
        for (int i = 0; i < 32; ++i)
            cpuRelax();
        std::this_thread::yield();
    }
    if (step.spinRounds == 0) std::this_thread::yield();
}

bool SchedulerCore::workVisible() const noexcept {
    return untimedQueued() || !due_.empty() || !entrance_.empty() ||
           stopping_.load(std::memory_order_seq_cst);
}

/// A head is queued and no worker sleeps towards it. The tender hands its duty over
/// by notifying a parked worker; one that is not parked yet (still spinning) would miss
/// that notification, so it checks this after announcing itself.
bool SchedulerCore::untendedHead() const noexcept {
    return nextHead_.load(std::memory_order_seq_cst) != kNoTender &&
           tendTarget_.load(std::memory_order_seq_cst) == kNoTender;
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

void SchedulerCore::tendNext(TimePoint head, TimePoint until, Worker& w) {
    const std::int64_t target = ticks(head);
    std::int64_t tended = tendTarget_.load(std::memory_order_acquire);
    do {
        if (tended != kNoTender && tended <= target) {
            park(w);  // somebody else already watches an earlier head
            return;
        }
    } while (!tendTarget_.compare_exchange_weak(tended, target, std::memory_order_seq_cst));

    const WakeSignal::Key key = tenderSignal_.prepareWait();
    if (!workVisible()) {
        WorkerCounters::bump(w.counters.parks);
        // The tender takes part in the safety net like a parked worker (else a holder
        // that became the tender left the parked ones without one): holding it, it
        // sleeps no longer than the net's period, however far the head.
        const TimePoint headEnd = toSteady(until);
        TimePoint end = headEnd;
        const bool net = netHolder_.take(w.index);
        if (net) end = std::min(end, SteadyClock::now() + w.safetyNet.next(w.quiet));
        const bool netFirst = end < headEnd;
        observe(w, [&](Observer& o) {
            o.onSleep(w.index, SleepKind::TendNext,
                      netFirst ? end - SteadyClock::now() : saturatingSub(until, now()));
        });
        PULLSCHED_TRACE_POINT(w.trace, now(), Sleep, saturatingSub(until, now()).count());
        const bool notified = tenderSignal_.wait(key, end);
        w.quiet = netFirst && !notified && SteadyClock::now() >= end;
        w.tendSleepEnded = !notified && !netFirst;
        netHolder_.giveBack(w.index);
    } else {
        tenderSignal_.cancelWait();
    }
    tenderWakeInFlight_.store(false, std::memory_order_seq_cst);  // see notifyTender
    std::int64_t mine = target;
    tendTarget_.compare_exchange_strong(mine, kNoTender, std::memory_order_seq_cst);
}

/// Watch for work a little before parking, so a stream of posts does not pay a futex wake
/// per job, but never at the cost of a thread that would make the work. Only
/// `maxSpinners_` workers (half of them, at least one) spin at a time; the others park at
/// once. A spin first pauses (cheap on an idle core), then yields, and stops as soon as a
/// yield comes back late: another runnable thread (a poster, on a machine with more
/// runnable threads than cores) had this core, and it needs it more than we do.
/// Returns whether work (or an untended head) showed up.
bool SchedulerCore::idleSpin(Worker& w) {
    if (w.quiet || cfg_.idleSpin <= Duration::zero()) return false;
    if (spinners_.fetch_add(1, std::memory_order_relaxed) >= maxSpinners_) {
        spinners_.fetch_sub(1, std::memory_order_relaxed);
        return false;
    }
    bool found = false;
    const TimePoint spinEnd = saturatingAdd(SteadyClock::now(), cfg_.idleSpin);
    for (unsigned round = 0;; ++round) {
        if (workVisible() || untendedHead()) {
            found = true;
            w.woken = true;  // like a woken worker: pass a wake on if it finds more
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
    spinners_.fetch_sub(1, std::memory_order_seq_cst);  // before park() re-checks for work
    return found;
}

void SchedulerCore::park(Worker& w) {
    if (idleSpin(w)) return;
    const WakeSignal::Key key = idleSignal_.prepareWait();
    if (workVisible() || untendedHead()) {
        idleSignal_.cancelWait();
        endWait(w);
        return;
    }
    WorkerCounters::bump(w.counters.parks);
    spread_.parking(w.index);
    observe(w, [&](Observer& o) { o.onWorkerIdle(w.index); });
    PULLSCHED_TRACE_POINT(w.trace, now(), Park, 0);
    // Quiet: the safety net ran out. Judged by the clock, not by wait()'s answer: the
    // epoch also moves when another worker is notified, and that is no activity here.
    // Without the net (another waiting worker has it: parked, or the tender) the wait
    // ends only when notified.
    const bool net = netHolder_.take(w.index);
    const Duration period = net ? w.safetyNet.next(w.quiet) : Duration::max();
    const TimePoint netEnd = net ? SteadyClock::now() + period : kNoDeadline;
    observe(w, [&](Observer& o) { o.onSleep(w.index, SleepKind::Park, period); });
    idleSignal_.wait(key, netEnd);
    w.quiet = net && SteadyClock::now() >= netEnd;
    endWait(w);
    PULLSCHED_TRACE_POINT(w.trace, now(), Wake, 0);
    observe(w, [&](Observer& o) { o.onWorkerActive(w.index); });
    netHolder_.giveBack(w.index);  // after the observer: it never sees two nets at once
}

/// This worker stopped waiting on idleSignal_ (woken, timed out or cancelled) and is about
/// to look for work: a wake in flight, if it was meant for us, has arrived.
void SchedulerCore::endWait(Worker& w) noexcept {
    spread_.unparked(w.index);
    wakeInFlight_.store(false, std::memory_order_seq_cst);
    w.woken = true;
}

TimePoint SchedulerCore::toSteady(TimePoint schedulerTime) const noexcept {
    if (clock_ == &steadyClock_) return schedulerTime;
    const Duration d = std::clamp<Duration>(saturatingSub(schedulerTime, now()), Duration::zero(),
                                            cfg_.horizons.idleWait);
    return saturatingAdd(SteadyClock::now(), d);
}

/// The (injected) clock moved: whoever watches the time queue must look again, which is
/// the tender or, if none sleeps, one parked worker (it grooms, and wakes others for what
/// came due). Waking every sleeper cost the caller a FUTEX_WAKE per signal.
void SchedulerCore::wake() {
    if (tenderSignal_.notifyAll()) return;
    idleSignal_.notifyOne();
}

namespace {
[[noreturn]] void throwWaitsForItself(const char* what) {
    throw std::logic_error(std::string("pullsched: ") + what +
                           " called from inside a job of the same scheduler "
                           "(it would wait for itself)");
}
}  // namespace

void SchedulerCore::drain() {
    drainUntil(kNoDeadline);
}

bool SchedulerCore::drainUntil(TimePoint steadyDeadline) {
    if (onOwnWorker()) throwWaitsForItself("drain()");
    spread_.posterWaits();
    while (true) {
        const WakeSignal::Key key = drainSignal_.prepareWait();
        if (allFinished()) {
            drainSignal_.cancelWait();
            return true;
        }
        if (SteadyClock::now() >= steadyDeadline) {
            drainSignal_.cancelWait();
            return false;
        }
        drainSignal_.wait(key, steadyDeadline);
    }
}

ShutdownReport SchedulerCore::shutdown(ShutdownMode mode) {
    if (onOwnWorker()) throwWaitsForItself("shutdown()");
    std::lock_guard lock(shutdownMutex_);
    if (shutdownReport_) return *shutdownReport_;

    // Refuse new posts from other threads, then let the ones already announced finish
    // queueing their jobs. Jobs still running may post; those posts are drained or
    // cancelled below like everything else.
    closed_.store(true, std::memory_order_seq_cst);
    while (outsidePosts_.load(std::memory_order_seq_cst) != 0)
        std::this_thread::yield();
    if (mode == ShutdownMode::Drain) drain();

    stopping_.store(true, std::memory_order_seq_cst);
    idleSignal_.notifyAll();
    tenderSignal_.notifyAll();
    workForce_.join();

    // Only this thread is left, and nobody can post any more. Whatever is still queued
    // will not run.
    const std::uint64_t before = stats().cancelled;
    JobRecord* rec = nullptr;
    while (entrance_.pop(rec))
        timeQueue_.push({rec->start, rec->seq, rec});
    while (!timeQueue_.empty()) {
        queued_.fetch_sub(1, std::memory_order_relaxed);
        finalize(timeQueue_.pop().payload, JobState::Cancelled, nullptr);
    }
    auto cancelAll = [&](auto& queue, bool counted) {
        while (queue.pop(rec)) {
            if (counted) queued_.fetch_sub(1, std::memory_order_relaxed);
            finalize(rec, JobState::Cancelled, nullptr);
        }
    };
    // Cancelling cascades into ready_ only (no worker is left), so the own queues first.
    // Own queues are not counted in queued_ (see release()).
    for (const auto& w : workers_)
        cancelAll(w->own, false);
    cancelAll(due_, true);
    cancelAll(ready_, true);
    shutdownReport_ = ShutdownReport{mode, stats().cancelled - before};
    return *shutdownReport_;
}

// ---------------------------------------------------------------- observation

void SchedulerCore::bump(Worker* w, WorkerCounters::Counter WorkerCounters::*c,
                         std::uint64_t by) noexcept {
    if (w) {
        WorkerCounters::bump(w->counters.*c, by);
    } else {
        WorkerCounters::add(external_.*c, by);
    }
}

void SchedulerCore::noteQueueDepth() noexcept {
    const std::uint64_t depth = queueDepth();
    std::uint64_t seen = maxQueueDepth_.load(std::memory_order_relaxed);
    while (depth > seen &&
           !maxQueueDepth_.compare_exchange_weak(seen, depth, std::memory_order_relaxed)) {
    }
}

std::uint64_t SchedulerCore::queueDepth() const noexcept {
    auto depth = static_cast<std::uint64_t>(
        std::max<std::int64_t>(0, queued_.load(std::memory_order_relaxed)));
    for (const auto& w : workers_)
        depth += w->own.size();
    return depth;
}

Statistics SchedulerCore::stats() const {
    Statistics s;
    auto add = [&s](const WorkerCounters& c) {
        auto v = [](const WorkerCounters::Counter& x) { return x.load(std::memory_order_acquire); };
        s.completed += v(c.completed);
        s.failed += v(c.failed);
        s.expired += v(c.expired);
        s.cancelled += v(c.cancelled);
        s.dispatches += v(c.dispatches);
        s.continuations += v(c.continuations);
        s.tokenAcquisitions += v(c.tokenAcquisitions);
        s.tokenContention += v(c.tokenContention);
        s.backoffSleeps += v(c.backoffSleeps);
        s.backoffSleepTime += Duration(static_cast<Duration::rep>(v(c.backoffSleepNs)));
        s.parks += v(c.parks);
        s.wakeups += v(c.wakeups);
        s.steals += v(c.steals);
        s.spreadMoves += v(c.spreadMoves);
        s.spreadSteers += v(c.spreadSteers);
        s.observerExceptions += v(c.observerExceptions);
    };
    // Ended first, then outcomes, then submitted (see allFinished): a job is counted in its
    // outcome before it ends, so pending = submitted - ended never undercounts, and a job
    // finishing meanwhile shows as both pending and done rather than as neither.
    const std::uint64_t ended = finishedCount();
    for (const auto& w : workers_)
        add(w->counters);
    add(external_);
    s.submitted = seq_.load(std::memory_order_acquire);
    s.pending = s.submitted - ended;
    s.tokenHolderWaits = tokenHolderWaits_.load(std::memory_order_relaxed);
    s.queueDepth = queueDepth();
    s.maxQueueDepth = std::max(maxQueueDepth_.load(std::memory_order_relaxed), s.queueDepth);
    s.jobRecords = pool_->capacity();
    return s;
}

bool SchedulerCore::writeTraceDump(std::ostream& out) const {
#if PULLSCHED_TRACE
    std::vector<const TraceBuffer*> buffers;
    for (const auto& w : workers_)
        buffers.push_back(&w->trace);
    ::pullsched::detail::writeTraceDump(out, buffers);
    return true;
#else
    (void)out;
    return false;
#endif
}

}  // namespace pullsched::detail
