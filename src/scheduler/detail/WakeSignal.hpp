#pragma once
// An event count: lets a worker park on an OS wait without losing a wake-up that
// arrives between "I found nothing to do" and "I am asleep".
//
//   waiter:   key = prepareWait();  if (work appeared) cancelWait(); else wait(key, until);
//   notifier: publish work;  notifyOne() / notifyAll();
//
// prepareWait and the notifier's check of waiters are both sequentially consistent, so
// either the waiter sees the published work or the notifier sees the waiter. The
// notifier pays only an atomic load when nobody waits, which is the busy case.
//
// On Linux the wait is a futex on the epoch word: the kernel compares the word and
// sleeps atomically, so a notification cannot fall between check and sleep. (We first
// used std::condition_variable and measured lost notify_one wake-ups with glibc 2.36,
// jobs starting 1 ms late; see docs/decisions.md, "Parking sleeps on a futex, not a
// condition variable".) Elsewhere a condition variable is used.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>

#include "pullsched/scheduler/Time.hpp"

namespace pullsched::detail {

class WakeSignal {
  public:
    using Key = std::uint32_t;

    Key prepareWait() noexcept {
        waiters_.fetch_add(1, std::memory_order_seq_cst);
        std::atomic_thread_fence(std::memory_order_seq_cst);
        return epoch_.load(std::memory_order_seq_cst);
    }
    void cancelWait() noexcept { waiters_.fetch_sub(1, std::memory_order_relaxed); }

    /// Block until notified after `key` was taken, or until `until` (steady clock).
    /// Returns true if woken by a notification, false on time-out.
    bool wait(Key key, TimePoint until = kNoDeadline);

    /// Returns whether anybody was waiting (and so was woken).
    bool notifyOne() { return notify(false); }
    bool notifyAll() { return notify(true); }

    bool hasWaiters() const noexcept {
        std::atomic_thread_fence(std::memory_order_seq_cst);
        return waiters_.load(std::memory_order_seq_cst) > 0;
    }
    unsigned waiters() const noexcept { return waiters_.load(std::memory_order_relaxed); }

  private:
    bool notify(bool all);

    std::atomic<unsigned> waiters_{0};
    std::atomic<Key> epoch_{0};  ///< the futex word
#if !defined(__linux__)
    std::mutex mutex_;
    std::condition_variable cv_;
#endif
};

}  // namespace pullsched::detail
