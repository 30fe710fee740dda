#include <algorithm>
#include <array>
#include <exception>
#include <optional>
#include <thread>
#include <utility>

#include "detail/HelpDeadline.hpp"
#include "detail/SchedulerCore.hpp"
#include "detail/SpinLimits.hpp"
#include "pullsched/scheduler/detail/CpuRelax.hpp"

// A thread in drain() or wait() that runs jobs while it waits
// (SchedulerConfig::helpWhileWaiting): it takes queued untimed jobs, from the shared FIFO
// or a steal of a worker's oldest, and runs and finalises them as a
// post from outside would be. Timed jobs stay with the workers: their (start, sequence)
// order is kept by the grooming token's holder and the due queue, which this thread does
// not touch (with one worker, timed jobs never run overlapped). With nothing queued it
// sleeps; with fewer workers than CPUs, the workers' wakers wake it for new untimed work
// when they find no worker to wake (rule E of the WakeProtocol), and a tender about to
// reach a head that fans out wakes it when no worker is parked; it watches a moment before
// it sleeps, and through a head that comes due, so the cascade the head releases finds it
// awake. No manager thread either: the helper is the caller, only while it waits.

namespace pullsched::detail {

namespace {
/// Pause rounds between a watching helper's yields: 1024 pauses, ~30 us here.
constexpr unsigned kWatchYieldRounds = 1024;
}  // namespace

/// Run queued untimed jobs here until none is left, shutdown() began or the deadline
/// passed. Announced like a post from outside (outsidePosts_), and refused once shutdown()
/// began: shutdown() waits for announced posts before it empties the queues, so whatever
/// a helped job posts is queued by then. Stops early once `stop` says so (wait()'s jobs
/// are final). Returns whether a job ran.
bool SchedulerCore::helpUntil(TimePoint steadyDeadline, HelpStop stop) {
    outsidePosts_.fetch_add(1, std::memory_order_seq_cst);
    struct EndHelp {
        std::atomic<std::int64_t>& posts;
        ~EndHelp() { posts.fetch_sub(1, std::memory_order_seq_cst); }
    } endHelp{outsidePosts_};
    // A record cache of its own while it helps, as a worker has (the records its jobs post
    // and end would otherwise each take the pool's lock); given back when it stops.
    RecordCache cache(pool_.get());
    struct Rebind {
        RecordCache* previous;  // a worker's of another scheduler, waiting in this drain()
        RecordCache& mine;
        ~Rebind() {
            RecordCache::bind(previous);
            mine.flush();
        }
    } rebind{RecordCache::bound(), cache};
    RecordCache::bind(&cache);
    bool ran = false;
    struct GiveBack {  // release: the block's next helper goes on from these counts
        HelperCounters* helper;
        ~GiveBack() {
            if (helper) helper->taken.store(false, std::memory_order_release);
        }
    } giveBack{takeHelperCounters()};
    WorkerCounters* own = giveBack.helper ? &giveBack.helper->counters : nullptr;
    const HelpDeadline deadline(steadyDeadline);  // cheap to ask after every job
    while (!closed_.load(std::memory_order_seq_cst) && !deadline.passed()) {
        if (stop.done && stop.done(stop.context)) break;
        JobRecord* job = takeForHelper();
        if (!job) break;
        runOnCaller(job, own);
        ran = true;
    }
    // Stopped early (wait()'s jobs final, the deadline) with stolen jobs left on
    // helperPosted_: they were a worker's, which may have parked since.
    if (!helperPosted_.empty()) wakeForDueWork(nullptr);
    // Its finalisations with `own` did not look for a drain() to wake (another thread's):
    // once, now that it stops.
    if (ran && own) notifyDrainIfDone();
    return ran;
}

/// A free block of helperCounters_, or null (external_ then). Acquire: the block's counts
/// as its last helper left them, so that this thread's single-writer increments go on
/// from there.
SchedulerCore::HelperCounters* SchedulerCore::takeHelperCounters() noexcept {
    for (HelperCounters& h : helperCounters_) {
        bool free = false;
        if (!h.taken.load(std::memory_order_relaxed) &&
            h.taken.compare_exchange_strong(free, true, std::memory_order_acquire))
            return &h;
    }
    return nullptr;
}

/// The newest job posted from a job a thread in drain() ran (depth first, as a worker
/// takes its own posts), else the oldest of the shared FIFO, else a steal from a worker's
/// queues (stealForHelper: a batch, the rest onto helperPosted_).
JobRecord* SchedulerCore::takeForHelper() {
    std::array<JobRecord*, 1> one{};
    if (helperPosted_.popNewest(one[0])) return one[0];
    if (popSharedBatch(one.data(), 1) == 1) return one[0];
    return stealForHelper();
}

/// What a helper looks for after announcing its sleep.
bool SchedulerCore::helperWorkSeen() const noexcept {
    return untimedQueued();
}

/// A helper with a CPU of its own (rule E) watches before it sleeps: for up to idleSpin,
/// since the jobs it waits for often end on a worker within microseconds and a futex wake
/// costs more than that (tens of microseconds on a busy machine); and, when the time
/// queue's head is within the spin window, until idleSpin after it is due, so that it is
/// awake for the cascade the head releases (the tender runs the head; its dependents are
/// untimed). Unlike a worker's idle spin it does not stop at a late yield: on a busy
/// machine that made every drain() of a timed cascade end with a futex wake.
SchedulerCore::HelperWatch SchedulerCore::helperWatch(HelpStop done, TimePoint steadyDeadline) {
    const TimePoint start = SteadyClock::now();
    TimePoint watchEnd = saturatingAdd(start, cfg_.idleSpin);
    // A head already due is the tender's, late: its releases wake this helper (rule E).
    const std::optional<TimePoint> head = wake_.nextHead();
    const TimePoint t = now();
    if (head && *head > t && *head - t <= cfg_.horizons.spinWindow)
        watchEnd = std::max(watchEnd, saturatingAdd(toSteady(*head), cfg_.idleSpin));
    watchEnd = std::min(watchEnd, steadyDeadline);
    for (unsigned round = 0;; ++round) {
        if (done.done(done.context)) return HelperWatch::Done;
        if (helperWorkSeen()) return HelperWatch::Work;
        cpuRelax();
        if (round % kPauseRounds != kPauseRounds - 1) continue;
        const TimePoint now = SteadyClock::now();
        if (now >= watchEnd)
            return now >= steadyDeadline ? HelperWatch::DeadlinePassed : HelperWatch::Nothing;
        // Now and then a yield lets a thread that shares this CPU run; the watch goes on
        // whatever the yield took (giving up would cost a futex wake on a busy machine).
        if (round % kWatchYieldRounds == kWatchYieldRounds - 1) std::this_thread::yield();
    }
}

std::optional<bool> SchedulerCore::helperSleep(WakeSignal& signal, HelpStop done,
                                               TimePoint steadyDeadline) {
    // Already done (a drain() whose jobs all ended while it helped): no steering set-up,
    // whose look at the thread's CPU set is a system call, and no announcement.
    if (done.done(done.context)) return true;
    switch (helperWatch(done, steadyDeadline)) {
        case HelperWatch::Done:
            return true;
        case HelperWatch::DeadlinePassed:
            return false;
        case HelperWatch::Work:
            return std::nullopt;
        case HelperWatch::Nothing:
            break;
    }
    const bool steerable = spread_.helperParking();
    wake_.announceHelperSleep();
    struct End {
        SchedulerCore& core;
        bool steerable;
        ~End() {
            core.wake_.helperSleepEnded();
            if (steerable) core.spread_.helperUnparked();
        }
    } end{*this, steerable};
    const WakeSignal::Key key = signal.prepareWait();
    if (done.done(done.context)) {
        signal.cancelWait();
        return true;
    }
    if (SteadyClock::now() >= steadyDeadline) {
        signal.cancelWait();
        return false;
    }
    if (helperWorkSeen()) {
        signal.cancelWait();
        return std::nullopt;
    }
    signal.wait(key, steadyDeadline);
    return std::nullopt;
}

/// run() and finalize() for the calling thread, then for the continuation that released,
/// and so on (as a worker runs its continuation next). Past its deadline a job expires,
/// else it runs; its outcome is counted in `own` (single writer, see helperCounters_;
/// without one, as any finalisation outside the workers is, which also wakes drain()).
/// While it runs, the thread counts as this scheduler's own (onOwnWorker) and remembers
/// what it was before (WorkerOf::outer): drain(), shutdown() and wait() are refused from
/// the job, and from a job of another scheduler that it runs further up the stack; its
/// posts are accepted like a worker's (the announcement in helpUntil covers them), and its
/// untimed posts go to helperPosted_ (the first checks for a sleeper to wake, and the
/// job's end once more, as on a worker). Once shutdown() began, a continuation goes back
/// to the shared FIFO, where shutdown cancels it.
void SchedulerCore::runOnCaller(JobRecord* job, WorkerCounters* own) {
    struct Restore {
        SchedulerCore& core;
        WorkerOf saved;
        ~Restore() {
            if (JobRecord* left = std::exchange(tlWorker_.helperLocal, nullptr))
                core.pushReady(left, nullptr);
            tlWorker_ = saved;
        }
    } restore{*this, tlWorker_};
    int slot = -1;  // its counter block numbers it for threadIndex()
    for (std::size_t k = 0; k < helperCounters_.size(); ++k)
        if (own == &helperCounters_[k].counters) slot = static_cast<int>(k);
    tlWorker_ = WorkerOf{this, nullptr, 0, nullptr, &restore.saved, slot};
    while (job) {
        if (!claimQueued(job)) {  // cancelled while queued, and already final
            job = std::exchange(tlWorker_.helperLocal, nullptr);
            continue;
        }
        if (groupCancelled(job)) {
            finalize(job, JobState::Cancelled, nullptr, own);
        } else if (job->deadline != kNoDeadline && now() > job->deadline) {
            finalize(job, JobState::Expired, nullptr, own);
        } else {
            job->state.store(JobState::Running, std::memory_order_relaxed);
            if (own) {
                WorkerCounters::bump(own->dispatches);
            } else {
                WorkerCounters::add(external_.dispatches);
            }
            JobState outcome = JobState::Completed;
            try {
                job->task();
            } catch (...) {
                job->error = std::current_exception();  // published by finalize's state store
                outcome = JobState::Failed;
            }
            bool again = false;  // a coroutine's slice suspended: it runs again later
            if (tlWorker_.resume.job) [[unlikely]] {
                const Resumption r = std::exchange(tlWorker_.resume, Resumption{});
                if ((again = r.job == job && outcome == JobState::Completed))
                    rearm(job, r, nullptr, own);
            }
            if (!again) finalize(job, outcome, nullptr, own);
        }
        if (std::exchange(tlWorker_.helperPushes, 0) > 1) wakeForDueWork(nullptr);
        if (closed_.load(std::memory_order_relaxed)) break;  // Restore hands it back
        job = std::exchange(tlWorker_.helperLocal, nullptr);
    }
}

/// With an observer, jobs run on workers only: its callbacks promise a worker's index.
/// Pinned workers promise the CPUs jobs run on, which the waiting thread's is not.
bool SchedulerCore::helpingAllowed() const noexcept {
    return cfg_.helpWhileWaiting && !observer_ && cfg_.pinWorkers == WorkerPinning::None;
}

}  // namespace pullsched::detail
