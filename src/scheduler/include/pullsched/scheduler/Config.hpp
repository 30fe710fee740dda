#pragma once
// Everything a scheduler is created with. Defaults are the reference design's figures.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "pullsched/scheduler/Statistics.hpp"
#include "pullsched/scheduler/Time.hpp"

namespace pullsched {

class Observer;

using namespace std::chrono_literals;

/// Capacity-class horizons: how far away the next head is decides what a worker does.
/// (The reference: > 20 ms idle, > 5 ms work time, > 50 us near time, > 0 spin.)
struct LoadHorizons {
    Duration idleWait = 20ms;  ///< beyond this the head is "far": workers park
    Duration workTime = 5ms;   ///< beyond this: only the tend-next worker keeps an eye on it
    Duration nearTime = 50us;  ///< beyond this: sleep-then-spin; within it: spin
    /// Sleeps end this long before the head is due and spin the rest, because OS sleeps
    /// overshoot by 50-200 us. About one wake-up latency.
    Duration spinWindow = 120us;
};

/// Contention backoff (see detail/Backoff.hpp for the schedule).
struct BackoffConfig {
    unsigned spinLevels = 3;     ///< levels 1..spinLevels busy-loop + yield
    Duration sleepBase = 100us;  ///< first sleeping level sleeps base + jitter
    Duration jitterStep = 10us;  ///< jitter = jitterStep * r, r per thread in 0..10
    unsigned maxExponent = 8;    ///< sleep doubles up to level maxExponent (x16)
    unsigned maxLevel = 12;
};

/// Binding worker threads to CPUs (Linux; ignored elsewhere). A trade-off, measured on a
/// 2-vCPU VM (docs/decisions.md, "Workers unpinned by default"): unpinned, a worker woken by a
/// busy worker can wait behind it on the waker's CPU for up to a scheduler tick (4 ms)
/// while the other CPU idles; pinned, a thread beside the workers (a poster) has no CPU
/// the kernel can keep free for it, and posting from it got up to 2x slower.
enum class WorkerPinning {
    None,  ///< the OS places and moves the workers (the default)
    /// Worker i on the i-th CPU the process may use, only when there are exactly as many
    /// workers as such CPUs. Schedulers of that size in one process then still spread like
    /// unpinned ones (one worker of each per CPU); any other size is left to the OS.
    OnePerCpu,
    /// Worker i on the i-th such CPU whenever the workers fit. Several schedulers in one
    /// process then all crowd the first CPUs: for a scheduler that has the machine alone.
    FirstCpus,
};

/// The workers a SchedulerConfig starts with: one per CPU the process may use, less one
/// for the thread that posts and then waits in drain() or wait(), running jobs meanwhile
/// (helpWhileWaiting); at least one. oneTBB's and OpenMP's defaults count their calling
/// thread alike. Measured on 2 CPUs, single posts + drain() of 1 us jobs: 1 worker + the
/// caller ran them at 0.71-0.87 efficiency, 2 workers + the caller (3 threads on 2 CPUs)
/// at 0.44-0.82 (docs/decisions.md, "The default worker count").
std::size_t defaultWorkerCount() noexcept;

struct SchedulerConfig {
    /// 1..1024. A std::size_t, so that `{.workers = v.size()}` and the like compile. Timed
    /// jobs run on workers only, and a caller that never waits in drain() or wait() runs
    /// nothing: such a program may want one worker per CPU.
    std::size_t workers = defaultWorkerCount();
    LoadHorizons horizons{};
    BackoffConfig backoff{};
    /// A worker that found nothing to do spins this long (watching for work) before it
    /// parks: about one wake-up latency, so a steady stream of posts does not pay a
    /// futex wake per job, while an idle scheduler still parks almost at once.
    Duration idleSpin = 50us;
    /// Period of the duty cycle: the grooming-token holder samples the queue depth (for
    /// Statistics::maxQueueDepth), and the job pool frees records that the last 20 periods
    /// did not need. Run by a worker looking for work, on the scheduler's clock: an idle
    /// scheduler looks 2 s after its last job (the park safety net), then ever more seldom.
    Duration dutyCycle = 50ms;
    /// What the destructor does with unfinished work.
    ShutdownMode shutdownMode = ShutdownMode::Cancel;
    /// Optional; must outlive the scheduler. Null costs nothing. An exception thrown by a
    /// callback is caught and counted (Statistics::observerExceptions), never propagated.
    Observer* observer = nullptr;
    /// Optional; defaults to the steady clock. Must outlive the scheduler.
    const ClockSource* clock = nullptr;
    /// Job records allocated up front and kept for good. More are added when needed and
    /// reused; those beyond 1.5 x the most in use over the last 20 duty cycles are freed.
    std::size_t initialJobCapacity = 4096;
    /// Lower the worker threads' timer slack to 1 us (Linux), for precise sleeps.
    bool lowTimerSlack = true;
    /// Whether worker threads are bound to CPUs (Linux; see WorkerPinning).
    WorkerPinning pinWorkers = WorkerPinning::None;
    /// Unpinned workers keep themselves on different CPUs (Linux): every 64 jobs a busy
    /// worker looks where it runs, and of two busy workers on one CPU, the higher-numbered
    /// moves to a CPU no busy worker uses, then lets the OS place it freely again; and
    /// whoever wakes a parked worker first limits it to CPUs that neither the waker, a
    /// busy worker nor a still-posting thread uses, until it runs. The OS left two
    /// workers on one CPU for milliseconds while another idled (docs/scheduler.md, "Where
    /// the workers run").
    bool spreadWorkers = true;
    /// drain() and drainFor() run queued untimed jobs on the calling thread while they
    /// wait (from the shared queue, or the oldest of a worker's queues), as oneTBB's and
    /// Taskflow's waits do: a small graph then needs no hand-off to a sleeping worker.
    /// Timed jobs are left to the workers (their (start, sequence) order is the grooming
    /// token's). Off: the calling thread never runs a job. Also off while an observer is
    /// set (its callbacks promise a worker thread and index), with pinned workers (pinning
    /// promises the CPUs jobs run on), and in shutdown(Drain).
    bool helpWhileWaiting = true;
    /// Per-worker trace buffer (events) when built with PULLSCHED_TRACE; ignored otherwise.
    std::size_t traceEventsPerWorker = 1 << 16;
};

}  // namespace pullsched
