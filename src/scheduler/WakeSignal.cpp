#include "detail/WakeSignal.hpp"

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <ctime>
#endif

namespace pullsched::detail {

#if defined(__linux__)

static_assert(sizeof(std::atomic<WakeSignal::Key>) == sizeof(std::uint32_t) &&
                  std::atomic<WakeSignal::Key>::is_always_lock_free,
              "the futex word must be a plain 32-bit atomic");

namespace {

std::uint32_t* word(std::atomic<WakeSignal::Key>& a) noexcept {
    return reinterpret_cast<std::uint32_t*>(&a);
}

}  // namespace

bool WakeSignal::wait(Key key, TimePoint until) {
    bool notified = true;
    while (epoch_.load(std::memory_order_acquire) == key) {
        timespec deadline{};
        timespec* timeout = nullptr;
        if (until != kNoDeadline) {
            // steady_clock is CLOCK_MONOTONIC on Linux; FUTEX_WAIT_BITSET takes an
            // absolute time on that clock.
            const auto ns = until.time_since_epoch().count();
            deadline.tv_sec = static_cast<time_t>(ns / 1000000000);
            deadline.tv_nsec = static_cast<long>(ns % 1000000000);
            timeout = &deadline;
        }
        const long rc = syscall(SYS_futex, word(epoch_), FUTEX_WAIT_BITSET_PRIVATE, key, timeout,
                                nullptr, FUTEX_BITSET_MATCH_ANY);
        if (rc == -1 && errno == ETIMEDOUT) {
            notified = epoch_.load(std::memory_order_acquire) != key;
            break;
        }
        // 0: woken; EAGAIN: the epoch moved before we slept; EINTR: signal. Re-check.
    }
    waiters_.fetch_sub(1, std::memory_order_relaxed);
    return notified;
}

bool WakeSignal::notify(bool all) {
    if (!hasWaiters()) return false;
    epoch_.fetch_add(1, std::memory_order_acq_rel);
    syscall(SYS_futex, word(epoch_), FUTEX_WAKE_PRIVATE, all ? INT_MAX : 1, nullptr, nullptr, 0);
    return true;
}

#else

bool WakeSignal::wait(Key key, TimePoint until) {
    bool notified = true;
    {
        std::unique_lock lock(mutex_);
        while (epoch_.load(std::memory_order_relaxed) == key) {
            if (until == kNoDeadline) {
                cv_.wait(lock);
            } else if (cv_.wait_until(lock, until) == std::cv_status::timeout) {
                notified = epoch_.load(std::memory_order_relaxed) != key;
                break;
            }
        }
    }
    waiters_.fetch_sub(1, std::memory_order_relaxed);
    return notified;
}

bool WakeSignal::notify(bool all) {
    if (!hasWaiters()) return false;
    {
        std::lock_guard lock(mutex_);  // so a waiter between its check and cv.wait cannot miss it
        epoch_.fetch_add(1, std::memory_order_relaxed);
    }
    if (all) {
        cv_.notify_all();
    } else {
        cv_.notify_one();
    }
    return true;
}

#endif

}  // namespace pullsched::detail
