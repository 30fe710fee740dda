#pragma once
// Pooled job records: blocks allocated up front and on growth, reused forever after,
// so a scheduler in steady state posts jobs without touching the heap.

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include <boost/lockfree/stack.hpp>

#include "pullsched/scheduler/detail/JobRecord.hpp"
#include "pullsched/scheduler/detail/JobRef.hpp"
#include "pullsched/scheduler/detail/SpinLock.hpp"

namespace pullsched::detail {

/// Handles may outlive their scheduler, so the pool does too: the scheduler retire()s it
/// instead of deleting it, and the last record to come back deletes it.
class JobPool {
  public:
    /// Allocate with new; end with retire(), never delete.
    static JobPool* create(std::size_t initialCapacity) { return new JobPool(initialCapacity); }
    JobPool(const JobPool&) = delete;
    JobPool& operator=(const JobPool&) = delete;

    /// The owner lets go; the pool lives on while any record is still referenced.
    void retire() noexcept;

    /// A pristine record with refs == 0. Grows the pool by a block when empty.
    JobRecord* acquire();
    /// Return a record whose last reference was dropped.
    void release(JobRecord* rec) noexcept;

    /// Successor overflow blocks (a mutex-free intrusive list under a spin lock: needed
    /// only for fan-outs beyond the inline successors).
    SuccessorBlock* acquireBlock();
    void releaseBlocks(SuccessorBlock* list) noexcept;

    std::size_t capacity() const;
    /// Records handed out and not yet released.
    std::size_t inUse() const noexcept { return inUse_.load(std::memory_order_relaxed); }

  private:
    explicit JobPool(std::size_t initialCapacity);
    ~JobPool();
    void grow(std::size_t count);
    void unref() noexcept;

    boost::lockfree::stack<JobRecord*> free_;
    mutable std::mutex growMutex_;
    std::vector<std::unique_ptr<JobRecord[]>> blocks_;
    std::size_t capacity_ = 0;
    std::atomic<std::size_t> inUse_{0};
    std::atomic<std::size_t> lifeRefs_{1};  ///< records in use + 1 for the owner
    SpinLock blockLock_;
    SuccessorBlock* freeBlocks_ = nullptr;
    std::vector<std::unique_ptr<SuccessorBlock[]>> blockChunks_;
};

}  // namespace pullsched::detail
