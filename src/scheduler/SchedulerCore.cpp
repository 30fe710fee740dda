#include "detail/SchedulerCore.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

#include "detail/ThreadAffinity.hpp"

// Construction, posting from the caller's side, drain() and shutdown(). The rest of the
// core lives beside it by concern: JobPath.cpp (the pull loop, running and finalising a
// job, queueing what it releases), UntimedQueues.cpp, Grooming.cpp, Waking.cpp,
// WorkerIdle.cpp, Accounting.cpp; the sleep/wake protocol is WakeProtocol.

namespace pullsched::detail {

namespace {

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
      own(cfg.initialJobCapacity, witness),
      posted(0, witness)  // depth first, it holds about depth x branching jobs: grows rarely
#if PULLSCHED_TRACE
      ,
      trace(static_cast<std::uint16_t>(idx), cfg.traceEventsPerWorker)
#endif
{
}

SchedulerCore::SchedulerCore(const SchedulerConfig& cfg, WorkForce::ThreadStarter starter)
    : SchedulerCore(cfg, std::move(starter), processCpus()) {}

SchedulerCore::SchedulerCore(const SchedulerConfig& cfg, WorkForce::ThreadStarter starter,
                             const std::vector<int>& allowedCpus)
    : cfg_((validate(cfg), cfg)),
      id_(nextSchedulerId.fetch_add(1, std::memory_order_relaxed)),
      clock_(cfg.clock ? cfg.clock : &steadyClock_),
      observer_(cfg.observer),
      loadController_(cfg.horizons),
      helpersWakeable_(helpingAllowed() && cfg.workers < allowedCpus.size()),
      pool_(JobPool::create(cfg.initialJobCapacity)),
      entrance_(cfg.initialJobCapacity),
      ready_(cfg.initialJobCapacity, {&token_, &tokenHolderWaits_}),
      helperPosted_(0, {&token_, &tokenHolderWaits_}),
      due_(cfg.initialJobCapacity, {&token_, &tokenHolderWaits_}),
      timeQueue_(cfg.initialJobCapacity),
      wake_(static_cast<unsigned>(cfg.workers), helpersWakeable_),  // validated: <= 1024
      spread_(static_cast<unsigned>(cfg.workers),
              cfg.spreadWorkers && cfg.pinWorkers == WorkerPinning::None ? allowedCpus
                                                                         : std::vector<int>{},
              helpersWakeable_),
      workForce_(std::move(starter)) {
    nextDutyCycle_ = saturatingAdd(now(), cfg_.dutyCycle);
    workers_.reserve(cfg_.workers);
    for (unsigned i = 0; i < cfg_.workers; ++i)
        workers_.push_back(std::make_unique<Worker>(
            i, cfg_, TokenAwareLock::Witness{&token_, &tokenHolderWaits_}, pool_.get()));
    try {
        workForce_.start(static_cast<unsigned>(cfg_.workers), cfg_.lowTimerSlack, cfg_.pinWorkers,
                         [this](unsigned i) { workerLoop(*workers_[i]); });
    } catch (...) {
        // No destructor runs for a constructor that throws, and the work force's own
        // would wait for ever on workers never told to stop: stop those that started.
        shutdown(ShutdownMode::Cancel);
        throw;
    }
}

/// A thread still inside drain(), wait() or a group's wait() sleeps on this core's
/// signals: after shutdown every job is final, so each of them is done; wake them and let
/// them leave before the members they use are freed.
SchedulerCore::~SchedulerCore() {
    shutdown(cfg_.shutdownMode);  // the pool is retired after the workers' caches returned
    while (waitersInside_.load(std::memory_order_acquire) != 0) {
        drainSignal_.notifyAll();
        jobEndSignal_.notifyAll();
        std::this_thread::yield();
    }
}

// ---------------------------------------------------------------- posting

thread_local SchedulerCore::WorkerOf SchedulerCore::tlWorker_{};

void SchedulerCore::endOutsidePost() noexcept {
    if (!onOwnWorker()) outsidePosts_.fetch_sub(1, std::memory_order_seq_cst);
}

JobRecord* SchedulerCore::acquire(const JobOptions& opts) {
    if (opts.start != kAsap && opts.deadline != kNoDeadline && opts.deadline < opts.start)
        throw std::invalid_argument("pullsched: job deadline lies before its start time");
    if (opts.group.state && opts.group.state->owner != id_)
        throw std::invalid_argument("pullsched: JobOptions::group belongs to another scheduler");
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
    rec->start = opts.start;
    if ((rec->group = opts.group.state)) addRef(rec->group);
    rec->deadline = opts.deadline;
    rec->tag = opts.tag;
    rec->refs.store(1, std::memory_order_relaxed);  // the scheduler's
    rec->gate.store(1, std::memory_order_relaxed);  // the poster's guard
    return rec;
}

void SchedulerCore::abandon(JobRecord* rec) noexcept {
    if (GroupState* g = std::exchange(rec->group, nullptr)) releaseRef(g);
    releaseRef(rec);
    endOutsidePost();
}

void SchedulerCore::submit(JobRecord* rec, std::span<const JobHandle> preds) {
    struct EndPost {
        SchedulerCore* core;
        ~EndPost() { core->endOutsidePost(); }
    } endPost{this};
    // Timed jobs need the scheduler-wide sequence (their order among equal starts);
    // untimed ones only need counting, which a worker does on its own line (with two
    // workers posting from their jobs, the shared counter's line took ~30 % of their
    // time). Counted before the job can end: the poster's guard still holds its gate.
    if (Worker* w = rec->start == kAsap ? callingWorker() : nullptr) {
        WorkerCounters::bump(w->counters.posted);
    } else {
        rec->seq = seq_.fetch_add(1, std::memory_order_relaxed);
    }
    if (rec->group) rec->group->submitted.fetch_add(1, std::memory_order_seq_cst);
    // No predecessor: nobody else can reach rec yet, so its gate opens without a
    // read-modify-write (on a freshly initialised record the locked instruction also
    // waits for every store of the initialisation: 82 % of submit()'s samples in skynet).
    if (preds.empty()) {
        rec->gate.store(0, std::memory_order_relaxed);
        releasePosted(rec);
        return;
    }
    // Every predecessor counted in the gate up front, with a plain store while rec is still
    // private; those found ended are taken off with the guard: one read-modify-write per
    // post instead of one more per predecessor.
    auto settle = static_cast<std::int32_t>(1 + preds.size());
    rec->gate.store(settle, std::memory_order_relaxed);
    settle = 1 + wirePredecessors(rec, preds);
    if (rec->gate.fetch_sub(settle, std::memory_order_acq_rel) == settle) {
        if (rec->doomed.load(std::memory_order_relaxed)) {
            finalize(rec, JobState::Cancelled, nullptr);
        } else {
            releasePosted(rec);
        }
    }
}

std::int32_t SchedulerCore::wirePredecessors(JobRecord* rec, std::span<const JobHandle> preds) {
    std::int32_t ended = 0;
    for (const JobHandle& handle : preds) {
        JobRecord* p = handle.rec_;
        std::lock_guard lock(p->succLock);
        if (!p->closed) {
            // No reference for p's list: rec cannot end (nor be recycled) before p notified
            // it, since until then its gate stays above zero and the scheduler holds it.
            p->addSuccessor(rec);
        } else {
            ++ended;
            if (!rec->resuming && p->state.load(std::memory_order_acquire) != JobState::Completed)
                rec->doomed.store(true, std::memory_order_relaxed);
        }
    }
    return ended;
}

// ---------------------------------------------------------------- waiting for the jobs

/// The (injected) clock moved (see WakeProtocol::clockMoved).
void SchedulerCore::wake() {
    wake_.clockMoved();
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

bool SchedulerCore::drainUntil(TimePoint steadyDeadline, bool help) {
    const WaiterInside inside(waitersInside_);
    if (insideJobOfThis()) throwWaitsForItself("drain()");
    spread_.posterWaits();
    help = help && helpingAllowed();
    while (true) {
        // Run what is queued while there is some (see helpUntil); then sleep until the
        // workers finished the rest, or until a waker finds no worker to wake for new work.
        if (help && helpUntil(steadyDeadline)) continue;
        if (help && helpersWakeable_) {
            if (const auto done = helperSleep(drainSignal_, {&allFinishedOf, this}, steadyDeadline))
                return *done;
            continue;
        }
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
    if (insideJobOfThis()) throwWaitsForItself("shutdown()");
    std::lock_guard lock(shutdownMutex_);
    if (shutdownReport_) return *shutdownReport_;

    // Refuse new posts from other threads, then let the ones already announced finish
    // queueing their jobs. Jobs still running may post; those posts are drained or
    // cancelled below like everything else.
    closed_.store(true, std::memory_order_seq_cst);
    while (outsidePosts_.load(std::memory_order_seq_cst) != 0)
        std::this_thread::yield();
    // Without helping: closed, the scheduler takes no more help from outside (helpUntil).
    if (mode == ShutdownMode::Drain) drainUntil(kNoDeadline, false);

    stopping_.store(true, std::memory_order_seq_cst);
    wake_.wakeEverybody();
    workForce_.join();

    // Only this thread is left, and nobody can post any more. Whatever is still queued
    // will not run.
    const std::uint64_t before = stats().cancelled;
    JobRecord* rec = nullptr;
    while (entrance_.pop(rec))
        timeQueue_.push({rec->start, rec->seq, rec});
    // A job cancel() won was finalised then; its queue entry only holds a reference.
    while (!timeQueue_.empty()) {
        queued_.fetch_sub(1, std::memory_order_relaxed);
        if (rec = timeQueue_.pop().payload; claimQueued(rec))
            finalize(rec, JobState::Cancelled, nullptr);
    }
    auto cancelAll = [&](auto& queue, bool counted) {
        while (queue.pop(rec)) {
            if (counted) queued_.fetch_sub(1, std::memory_order_relaxed);
            if (claimQueued(rec)) finalize(rec, JobState::Cancelled, nullptr);
        }
    };
    // Cancelling cascades into ready_ only (no worker is left), so the workers' queues
    // first. They are not counted in queued_ (see release()).
    for (const auto& w : workers_) {
        cancelAll(w->own, false);
        cancelAll(w->posted, false);
    }
    cancelAll(helperPosted_, false);
    cancelAll(due_, true);
    cancelAll(ready_, true);
    // Every job is final now. A thread in drain() may not have been told: a worker that
    // ended the last job and then saw stopping_ left its loop without the check it makes
    // when it runs out of work, and nothing may have been left to cancel.
    notifyDrainIfDone();
    shutdownReport_ = ShutdownReport{mode, stats().cancelled - before};
    return *shutdownReport_;
}

}  // namespace pullsched::detail
