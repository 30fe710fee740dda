#pragma once
// Per-worker statistics counters. Each block is written by one thread only (relaxed
// atomics, so readers may sum them at any time) and sits on its own cache line, so
// counting costs no cache-line ping-pong between workers.

#include <atomic>
#include <cstdint>

namespace pullsched::detail {

struct alignas(64) WorkerCounters {
    using Counter = std::atomic<std::uint64_t>;
    Counter completed{0}, failed{0}, expired{0}, cancelled{0};
    Counter dispatches{0}, continuations{0};
    Counter tokenAcquisitions{0}, tokenContention{0};
    Counter backoffSleeps{0}, backoffSleepNs{0};
    Counter parks{0}, wakeups{0}, steals{0}, spreadMoves{0}, spreadSteers{0};
    Counter observerExceptions{0};
    /// Untimed jobs posted from this worker's jobs: counted here instead of in the
    /// scheduler's sequence (a line every posting worker would write), see submit().
    Counter posted{0};
    /// Jobs whose finalisation is complete (state stored, successors released): drain()
    /// compares their sum with the jobs posted.
    Counter ended{0};

    /// Single-writer increment: a load and a store, no locked instruction.
    static void bump(Counter& c, std::uint64_t by = 1) noexcept {
        c.store(c.load(std::memory_order_relaxed) + by, std::memory_order_relaxed);
    }
    /// bump() that publishes what the thread wrote before (a job's final state).
    static void publish(Counter& c) noexcept {
        c.store(c.load(std::memory_order_relaxed) + 1, std::memory_order_release);
    }
    /// For blocks shared by several threads (posts and shutdown outside the workers).
    static void add(Counter& c, std::uint64_t by = 1,
                    std::memory_order order = std::memory_order_relaxed) noexcept {
        c.fetch_add(by, order);
    }
};

}  // namespace pullsched::detail
