#pragma once
// Keeps busy workers on different CPUs.
//
// On the project's 2-vCPU machines, Linux left both workers of a 2-worker scheduler on one
// CPU for the whole of a 6-10 ms run in about one run in three while the other CPU idled:
// a worker woken by a busy worker was placed beside it, and the balancer treats a thread
// that has just run as cache-hot, so it did not pull either of them away for several ticks
// (10 000 jobs of 1 us: 11 ms instead of 6, each worker running half the jobs at half
// speed). Pinning avoids that but takes the freedom the OS needs when other threads (a
// poster) want the same CPUs. So each busy worker publishes the CPU it runs on every
// kCheckPeriod jobs, and the higher-numbered of two workers found on one CPU moves itself
// to an allowed CPU that no busy worker uses: two affinity calls, onto that CPU and back
// to the whole allowed set, so the OS stays free to place it from then on. A CPU from
// which a thread outside the workers posted since a worker last looked counts as used:
// moving onto a busy poster's CPU preempted the poster (scheduler_bench with posting
// timed: Burst1024 216 -> 385 ns/job before posters were counted).
//
// A wake is steered the same way before it happens: Linux often queued the woken worker
// on its waker's busy CPU while the other CPU idled, where it waited until the waker's
// overdue-wake move 200-260 us later (a gate opening a 256-job graph of 1 us jobs: the
// second worker started after ~260 us in more than half of the runs, 300 us makespans
// instead of 190). So whoever wakes a parked worker first lets every parked worker run
// only on the allowed CPUs that neither the waker nor a busy worker uses (one system
// call per parked worker, ~0.4 us, none while it is still steered that way); with no
// such CPU it leaves the choice to the OS. The CPU of the last thread outside the workers
// that posted counts as used until that thread waits in drain(): steering a worker's wake
// onto a poster's CPU cost scheduler_bench with posting timed 190 -> 340 ns/job
// (Burst1024), even when only one graph run in eight was steered at all. A
// woken worker takes the whole allowed set back as soon as it runs (~0.5 us), leaving
// the OS free again.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "pullsched/scheduler/Time.hpp"

namespace pullsched::detail {

class CpuSpread {
  public:
    /// Jobs a worker runs between two looks at where it and the others run. An argument: a
    /// look reads the CPU from the rseq area (no system call) and the others' published
    /// CPUs, a few cache misses, so it must be rare next to a job of ~30-100 ns; a misplaced
    /// worker is then noticed after 64 jobs, microseconds, far below kSharedFor. Not tuned;
    /// the placement gain (BM_Sched_Placement 10.7 -> 6.1-7.3 ms, commit b26a8b2) was
    /// measured with this value only.
    static constexpr unsigned kCheckPeriod = 64;
    /// How long two workers must have shared a CPU before one moves. Short spells are the
    /// OS's business: a worker that moved whenever it found itself beside the other did so
    /// 2-5 times per 1024-job graph with a posting thread (its CPU free for a moment while
    /// it waited in drain), and the poster, back on its CPU, found a worker there
    /// (scheduler_bench, posting timed: Burst1024 210 -> 350 ns/job).
    static constexpr Duration kSharedFor = std::chrono::microseconds(500);
    /// Published by a worker that is not busy (parked, tending, not looked yet).
    static constexpr int kNotBusy = -1;

    /// `allowed`: the CPUs the process may use (processCpus()). Disabled (every call a no-op) with
    /// fewer than two workers or two CPUs. `steersHelpers`: a thread helping in drain() or
    /// wait() is steered like a parked worker when woken (see steerHelper), with two CPUs
    /// or more, even with one worker.
    CpuSpread(unsigned workers, std::vector<int> allowed, bool steersHelpers = false);

    bool enabled() const noexcept { return enabled_; }

    /// Worker `me`, busy on `cpu`: the CPU it should move to, or kNotBusy to stay. It moves
    /// when a lower-numbered worker published the same CPU (so only one of the two moves)
    /// and an allowed CPU is published by nobody; the first such CPU in `allowed` order.
    /// `poster`: a CPU a thread outside the workers posted from lately (or kNotBusy);
    /// never a target.
    static int target(unsigned me, int cpu, std::span<const int> published,
                      std::span<const int> allowed, bool wakeOverdue = false,
                      int poster = kNotBusy) noexcept;

    /// Worker `me` publishes where it runs and moves if target() says so, for a shared CPU
    /// only once it has found the CPU shared for kSharedFor (`now`: the steady clock). With
    /// `wakeOverdue` (a worker it woke has not started long after), it moves at once to a
    /// CPU no busy worker uses even if it shares its CPU with nobody busy: the woken worker
    /// may be queued behind it on this CPU, and leaving lets it run. Returns whether it
    /// moved. Called by the worker's own thread.
    bool check(unsigned me, TimePoint now, bool wakeOverdue = false) noexcept;

    /// A thread outside the workers posts: note its CPU. Loads; a store only when the CPU
    /// changed or a worker has looked since the last post, so a poster in a loop does not
    /// keep taking the line back from the workers. The CPU is read on the thread's first
    /// post here, its first since it waited in drain(), and every kPostLookPeriod posts.
    void notePost() noexcept;

    /// Posts of one thread between two reads of its CPU in notePost(). An argument: a
    /// poster seldom changes CPU (the OS moves a busy thread on a scale of milliseconds,
    /// 64 posts take microseconds), and the read was a fifth of a post's instructions under
    /// callgrind (where glibc cannot read the CPU from the rseq area; natively it is a few
    /// instructions). Not tuned.
    static constexpr unsigned kPostLookPeriod = 64;

    /// Worker `me`'s thread starts: notes its kernel thread id, so wakers can steer it.
    void attach(unsigned me) noexcept;

    /// Worker `me` is about to wait for a wake (its own thread): wakers may steer it now.
    void parking(unsigned me) noexcept {
        if (!enabled_) return;
        slots_[me].cpu.store(kNotBusy, std::memory_order_relaxed);
        slots_[me].parked.store(kParked, std::memory_order_release);
    }

    /// Worker `me` stopped waiting (its own thread): no more steering; it publishes where
    /// it runs and, if it was steered, takes the whole allowed set back (it runs already,
    /// so this does not move it).
    void unparked(unsigned me) noexcept;

    /// Before a wake, by the waker (`me`, or kOutside for a thread outside the workers):
    /// every parked worker is let run only on the allowed CPUs that neither the caller, nor
    /// a busy worker, nor an awake poster (see posterWaits) uses, or on all of them if
    /// there is none. Returns how many system calls that took (none for a worker already
    /// steered that way).
    static constexpr unsigned kOutside = ~0u;
    unsigned steerParked(unsigned me) noexcept;

    /// A thread helping in drain() or wait() is about to sleep (its own thread): a waker may
    /// steer it off its CPU as it steers a parked worker (the OS put a helper woken by a
    /// busy worker on that worker's CPU, where it preempted the worker for a whole run
    /// while the other CPU idled: 1 worker + helper, 256 jobs of 1 us, the helper ran 255
    /// of them in 288 us, against 119-129 of 256 in 165-211 us when placed apart). Only a
    /// thread that may run on every allowed CPU (one its owner bound is left alone), and
    /// one helper at a time. Returns whether it may be steered; then helperUnparked()
    /// follows its sleep.
    bool helperParking() noexcept;
    /// The helper's sleep ended: it takes its whole CPU set back if it was steered.
    void helperUnparked() noexcept;
    /// Before a waker (`me`, or kOutside) wakes a sleeping helper: steer it as
    /// steerParked() steers a worker. Returns how many system calls that took.
    unsigned steerHelper(unsigned me) noexcept;

    /// A thread outside the workers waits in drain(): the CPU it last posted from is no
    /// longer taken to be in use (a post marks it in use again).
    void posterWaits() noexcept {
        if (enabled_ && posterAwake_.load(std::memory_order_relaxed))
            posterAwake_.store(false, std::memory_order_relaxed);
    }

    /// The allowed CPUs (as a bit per position in `allowed`) a wake should steer to: those
    /// used neither by the waker (`wakerCpu`) nor by a busy worker; all of them if none is
    /// left. Pure, for tests.
    static std::uint64_t steerMask(int wakerCpu, std::span<const int> published,
                                   std::span<const int> allowed) noexcept;

    /// Worker `me` stops being busy (about to wait): its CPU is free for others, and a
    /// spell of sharing ends (called by the worker's own thread).
    void idle(unsigned me) noexcept {
        if (!enabled_) return;
        slots_[me].cpu.store(kNotBusy, std::memory_order_relaxed);
        slots_[me].sharedSince = TimePoint{};
    }

  private:
    /// target() over any view of the published CPUs: `published(j)` is worker j's.
    template <class Published>
    static int targetOf(unsigned me, int cpu, unsigned workers, Published&& published,
                        std::span<const int> allowed, bool wakeOverdue, int poster) noexcept {
        if (cpu == kNotBusy) return kNotBusy;
        bool shared = wakeOverdue;
        for (unsigned j = 0; j < me && j < workers; ++j)
            shared = shared || published(j) == cpu;
        if (!shared) return kNotBusy;
        for (const int c : allowed) {
            if (c == cpu || c == poster) continue;
            bool used = false;
            for (unsigned j = 0; j < workers; ++j)
                used = used || (j != me && published(j) == c);
            if (!used) return c;
        }
        return kNotBusy;  // more busy workers than CPUs: sharing cannot be helped
    }

    /// Slot::parked: running (or about to look for work), waiting for a wake, or being
    /// steered by a waker right now (the worker, woken meanwhile, waits for that to end).
    static constexpr int kRunning = 0;
    static constexpr int kParked = 1;
    static constexpr int kSteering = 2;

    struct alignas(64) Slot {
        std::atomic<int> cpu{kNotBusy};
        TimePoint sharedSince{};  ///< first look that found its CPU shared (its own)
        std::atomic<int> parked{kRunning};
        /// The CPUs a waker let it run on (a bit per position in allowed_; all: unsteered).
        std::atomic<std::uint64_t> steeredTo{0};
        std::atomic<int> tid{0};  ///< kernel thread id (0: not started)
    };

#if defined(__linux__)
    /// The CPUs a wake by `me` steers to (steerMask of the busy CPUs and the caller's).
    std::uint64_t wakeMask(unsigned me) const noexcept;
    /// Steer a parked (or sleeping helper's) slot to `to`; true if a system call moved it.
    bool steer(Slot& other, std::uint64_t to) const noexcept;
#endif

    std::vector<int> allowed_;
    std::uint64_t allMask_ = 0;  ///< a bit per allowed CPU; 0: too many CPUs to steer
    /// Where a thread outside the workers last posted from, and whether it posted since a
    /// worker last looked (set by posters, cleared by the worker that looks).
    alignas(64) std::atomic<int> postCpu_{kNotBusy};
    std::atomic<bool> postedSinceLook_{false};
    /// A thread outside the workers posted and has not waited in drain() since.
    std::atomic<bool> posterAwake_{false};
    /// One per worker, then the sleeping helper's (parked: kRunning when free).
    std::unique_ptr<Slot[]> slots_;
    unsigned workers_;
    bool enabled_;
    bool helperSteers_;
};

}  // namespace pullsched::detail
