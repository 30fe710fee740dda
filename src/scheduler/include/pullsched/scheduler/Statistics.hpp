#pragma once
// Counters the scheduler exposes. All counts are since construction.

#include <cstdint>

#include "pullsched/scheduler/Time.hpp"

namespace pullsched {

struct Statistics {
    // Accounting: at every quiescent point
    // submitted == completed + failed + expired + cancelled + pending,
    // and after shutdown() returned, pending == 0. A spawned Task counts as one job per
    // slice: each resumption after a suspension is a job (docs/coroutines.md), here and in
    // a group's statistics.
    std::uint64_t submitted = 0;
    std::uint64_t completed = 0;
    std::uint64_t failed = 0;
    std::uint64_t expired = 0;  ///< deadline misses: dropped unstarted past their deadline
    std::uint64_t cancelled = 0;
    std::uint64_t pending = 0;  ///< posted, not yet in a final state

    // Activity.
    std::uint64_t dispatches = 0;     ///< jobs handed to a worker (incl. continuations)
    std::uint64_t continuations = 0;  ///< successors run directly by the worker that released them
    std::uint64_t tokenAcquisitions = 0;  ///< grooming passes
    std::uint64_t tokenContention = 0;    ///< CAS on the grooming token lost
    std::uint64_t backoffSleeps = 0;      ///< contention backoffs that slept (level > 3)
    Duration backoffSleepTime{0};         ///< planned time of those sleeps
    std::uint64_t parks = 0;              ///< OS waits entered (idle or tend-next)
    std::uint64_t wakeups = 0;            ///< notifications sent to parked workers
    std::uint64_t steals = 0;             ///< untimed jobs taken from another worker's queue
    std::uint64_t spreadMoves = 0;        ///< a worker moved itself off a CPU another worker used
    std::uint64_t spreadSteers = 0;       ///< a parked worker was kept off its waker's CPU
    std::uint64_t maxQueueDepth = 0;      ///< largest number of jobs queued and not started
    std::uint64_t queueDepth = 0;         ///< jobs queued and not started, now
    /// Job records held now (in use or free, ~200 bytes each): follows the load, back down
    /// to SchedulerConfig::initialJobCapacity 20 duty cycles after a burst (when idle: at
    /// the workers' next look, about 2 s after the last job).
    std::uint64_t jobRecords = 0;
    /// Times the grooming-token holder waited for a lock. Always 0: the token holder never
    /// waits (docs/scheduler.md, "The token protocol"); kept as a check of that promise.
    std::uint64_t tokenHolderWaits = 0;
    std::uint64_t observerExceptions = 0;  ///< thrown by Observer callbacks, caught and dropped

    bool balanced() const noexcept {
        return submitted == completed + failed + expired + cancelled + pending;
    }
};

/// What shutdown did with work that had not finished.
enum class ShutdownMode : std::uint8_t {
    Drain,   ///< run every accepted job (and what running jobs post) to its final state
    Cancel,  ///< cancel what has not started; wait only for running jobs
};

struct ShutdownReport {
    ShutdownMode mode = ShutdownMode::Cancel;
    std::uint64_t cancelled = 0;  ///< jobs this shutdown cancelled
};

}  // namespace pullsched
