#pragma once
// Timed jobs that are due, smallest (start, sequence) first, popped by any worker without
// the grooming token. The token holder fills it only after dropping the token, so it may
// wait for the lock like anybody else; a heap (not a FIFO) keeps a late-posted overdue
// job ahead of later-start jobs handed out before it.

#include <atomic>
#include <cstddef>
#include <mutex>

#include "detail/TimeQueue.hpp"
#include "detail/TokenAwareLock.hpp"
#include "pullsched/scheduler/detail/JobRecord.hpp"

namespace pullsched::detail {

class DueQueue {
  public:
    DueQueue(std::size_t reserve, TokenAwareLock::Witness witness)
        : lock_(witness), heap_(reserve) {}

    /// Take over a list linked through JobRecord::link.
    void pushList(JobRecord* list) {
        std::lock_guard lock(lock_);
        while (list) {
            JobRecord* rec = std::exchange(list, list->link);
            rec->link = nullptr;
            heap_.push({rec->start, rec->seq, rec});
        }
        size_.store(heap_.size(), std::memory_order_release);
    }

    bool pop(JobRecord*& rec) {
        if (size_.load(std::memory_order_acquire) == 0) return false;
        std::lock_guard lock(lock_);
        if (heap_.empty()) return false;
        rec = heap_.pop().payload;
        size_.store(heap_.size(), std::memory_order_release);
        return true;
    }

    bool empty() const noexcept { return size_.load(std::memory_order_acquire) == 0; }

  private:
    TokenAwareLock lock_;
    TimeQueue<JobRecord*> heap_;
    std::atomic<std::size_t> size_{0};
};

}  // namespace pullsched::detail
