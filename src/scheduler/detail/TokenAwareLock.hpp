#pragma once
// A spin lock for the queues that the grooming-token holder and other workers share. The
// token holder must never wait (docs/scheduler.md, "The grooming token's rule"): a wait
// by the holder is counted, so tests can assert that it never happens.

#include <atomic>
#include <cstdint>

#include "detail/GroomingToken.hpp"
#include "pullsched/scheduler/detail/SpinLock.hpp"

namespace pullsched::detail {

class TokenAwareLock {
  public:
    /// Which token to watch for, and where to count the holder's waits.
    struct Witness {
        const GroomingToken* token;
        std::atomic<std::uint64_t>* waitsByHolder;
    };

    explicit TokenAwareLock(Witness w) noexcept : witness_(w) {}

    void lock() noexcept {
        if (lock_.try_lock()) return;
        if (witness_.token->heldBy())
            witness_.waitsByHolder->fetch_add(1, std::memory_order_relaxed);
        lock_.lock();
    }
    bool try_lock() noexcept { return lock_.try_lock(); }
    void unlock() noexcept { lock_.unlock(); }

  private:
    SpinLock lock_;
    Witness witness_;
};

}  // namespace pullsched::detail
