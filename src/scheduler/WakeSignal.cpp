#include "pullsched/scheduler/detail/WakeSignal.hpp"

namespace pullsched::detail {

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
        // The epoch changes under the mutex so a waiter between its check and cv.wait
        // cannot miss it.
        std::lock_guard lock(mutex_);
        epoch_.fetch_add(1, std::memory_order_relaxed);
    }
    if (all) {
        cv_.notify_all();
    } else {
        cv_.notify_one();
    }
    return true;
}

}  // namespace pullsched::detail
