#pragma once
// The grooming token: at most one thread at a time grooms the time-ordered queue
// (sorts the entrance in and hands out what is due). Grooming is never "tending": to tend
// is what the tender does, sleep towards the next head (sleepTowardsHead, WakeProtocol).
// Taken by one compare-and-swap, never waited for: a worker that loses the race does
// something else (runs ready work or backs off) instead of blocking.

#include <atomic>
#include <thread>

namespace pullsched::detail {

class GroomingToken {
  public:
    /// One CAS free -> self. Acquire ordering: the holder sees everything the previous
    /// holder did to the protected state.
    bool tryAcquire(std::thread::id self = std::this_thread::get_id()) noexcept {
        std::thread::id expected{};
        return owner_.compare_exchange_strong(expected, self, std::memory_order_acquire,
                                              std::memory_order_relaxed);
    }
    /// Release ordering publishes the holder's changes to the next holder.
    void release() noexcept { owner_.store(std::thread::id{}, std::memory_order_release); }

    bool heldBy(std::thread::id t = std::this_thread::get_id()) const noexcept {
        return owner_.load(std::memory_order_relaxed) == t;
    }
    bool free() const noexcept {
        return owner_.load(std::memory_order_relaxed) == std::thread::id{};
    }

  private:
    std::atomic<std::thread::id> owner_{};
    static_assert(std::atomic<std::thread::id>::is_always_lock_free,
                  "the grooming token must be a lock-free atomic");
};

}  // namespace pullsched::detail
