#pragma once
// Untimed jobs whose gate opened (they have no start time: ready to run, never "due"),
// popped by any worker without the grooming token. Three kinds of queue use it: the shared
// FIFO of posts from other threads; each worker's own queue of what its finalisations
// released (FIFO: its owner pops the oldest); and each worker's queue of jobs posted from
// its jobs (LIFO for its owner, which pops the newest: depth first). Other workers steal
// the oldest half of either with popHalf. A ring buffer under a spin lock: the critical
// sections are a few instructions, the buffer only grows (no allocation in steady state),
// and the lock makes the order and exactly-once hand-out obvious. The element count is
// kept in an atomic so that "is there work?" never takes the lock.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <mutex>
#include <vector>

#include "detail/TokenAwareLock.hpp"
#include "pullsched/scheduler/detail/JobRecord.hpp"

namespace pullsched::detail {

class ReadyQueue {
  public:
    ReadyQueue(std::size_t reserve, TokenAwareLock::Witness witness) : lock_(witness) {
        // A power of two for the index mask; 64 entries (512 bytes) so that a scheduler
        // posted to without a capacity hint does not grow in its first bursts. A guess.
        std::size_t cap = 64;
        while (cap < reserve)
            cap *= 2;
        ring_.resize(cap);
    }

    void push(JobRecord* rec) {
        std::lock_guard lock(lock_);
        if (count_ == ring_.size()) grow();
        ring_[(head_ + count_) & (ring_.size() - 1)] = rec;
        ++count_;
        size_.store(count_, std::memory_order_release);
    }

    bool pop(JobRecord*& rec) {
        if (size_.load(std::memory_order_acquire) == 0) return false;
        std::lock_guard lock(lock_);
        if (count_ == 0) return false;
        rec = ring_[head_];
        head_ = (head_ + 1) & (ring_.size() - 1);
        --count_;
        size_.store(count_, std::memory_order_release);
        return true;
    }

    /// The newest job: the owner's take of its queue of posts from its jobs (depth first).
    bool popNewest(JobRecord*& rec) {
        if (size_.load(std::memory_order_acquire) == 0) return false;
        std::lock_guard lock(lock_);
        if (count_ == 0) return false;
        --count_;
        rec = ring_[(head_ + count_) & (ring_.size() - 1)];
        size_.store(count_, std::memory_order_release);
        return true;
    }

    /// Take the oldest jobs, up to half of those queued (at least one) and at most
    /// `max`, into `out` in FIFO order, under one lock. Returns how many.
    std::size_t popHalf(JobRecord** out, std::size_t max) {
        if (size_.load(std::memory_order_acquire) == 0) return 0;
        std::lock_guard lock(lock_);
        const std::size_t n = std::min(max, (count_ + 1) / 2);
        for (std::size_t i = 0; i < n; ++i) {
            out[i] = ring_[head_];
            head_ = (head_ + 1) & (ring_.size() - 1);
        }
        count_ -= n;
        size_.store(count_, std::memory_order_release);
        return n;
    }

    /// Append `n` jobs in order, under one lock.
    void pushAll(JobRecord* const* jobs, std::size_t n) {
        std::lock_guard lock(lock_);
        for (std::size_t i = 0; i < n; ++i) {
            if (count_ == ring_.size()) grow();
            ring_[(head_ + count_) & (ring_.size() - 1)] = jobs[i];
            ++count_;
        }
        size_.store(count_, std::memory_order_release);
    }

    bool empty() const noexcept { return size_.load(std::memory_order_acquire) == 0; }
    std::size_t size() const noexcept { return size_.load(std::memory_order_relaxed); }

  private:
    void grow() {
        std::vector<JobRecord*> bigger(ring_.size() * 2);
        for (std::size_t i = 0; i < count_; ++i)
            bigger[i] = ring_[(head_ + i) & (ring_.size() - 1)];
        ring_.swap(bigger);
        head_ = 0;
    }

    TokenAwareLock lock_;
    std::vector<JobRecord*> ring_;  // size is a power of two
    std::size_t head_ = 0;
    std::size_t count_ = 0;
    std::atomic<std::size_t> size_{0};
};

}  // namespace pullsched::detail
