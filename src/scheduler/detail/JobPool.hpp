#pragma once
// Pooled job records: allocated up front and on growth, reused while the load needs them,
// so a scheduler in steady state posts jobs without touching the heap; given back to the
// heap once a burst is over (see JobPool::trim).

#include <array>
#include <cstddef>
#include <memory>
#include <vector>

#include "pullsched/scheduler/detail/JobRecord.hpp"
#include "pullsched/scheduler/detail/JobRef.hpp"
#include "pullsched/scheduler/detail/SpinLock.hpp"

namespace pullsched::detail {

class JobPool;

/// A worker's private stock of free records. A record a worker finishes goes here and the
/// worker's own posts come from here, without any atomic operation; the stock is exchanged
/// with the pool's shared free list a batch at a time. (Returning a record through a
/// lock-free stack cost four atomic read-modify-writes per job on lines that the poster and
/// every worker write: about a third of a chain job's instructions.)
///
/// Bound to its thread with bind(): records released on that thread come back here.
/// Single-threaded; flush() it on its thread before the thread ends.
class RecordCache {
  public:
    /// How many records move between a cache and the pool at once; a cache keeps at most
    /// twice as many. An argument: the pool's lock line is then touched once per 32
    /// records a worker finishes or posts (the cache itself replaced four shared RMWs per
    /// job, measured: docs/decisions.md, "Record pool with per-worker caches"), and 64 idle records
    /// (12 KB) per worker is little to hold back. No other batch size was measured.
    static constexpr std::size_t kBatch = 32;

    explicit RecordCache(JobPool* pool) noexcept : pool_(pool) {}
    RecordCache(const RecordCache&) = delete;
    RecordCache& operator=(const RecordCache&) = delete;
    ~RecordCache();

    /// Records released on the calling thread come back to `cache` (nullptr: to their pool).
    static void bind(RecordCache* cache) noexcept;
    /// The cache bound to the calling thread, if any.
    static RecordCache* bound() noexcept;

    JobPool* pool() const noexcept { return pool_; }
    JobRecord* take();
    void give(JobRecord* rec) noexcept;
    /// Everything back to the pool.
    void flush() noexcept;
    std::size_t size() const noexcept { return count_; }

  private:
    JobPool* pool_;
    JobRecord* head_ = nullptr;  ///< intrusive list through JobRecord::link
    std::size_t count_ = 0;
};

/// Handles may outlive their scheduler, so the pool does too: the scheduler retire()s it
/// instead of deleting it, and the last record to come back deletes it.
///
/// The shared free list is an intrusive list under a spin lock. A poster on another thread
/// takes one record per post from it and a worker exchanges 32 at a time, so the lock's
/// line stays with the poster: one uncontended locked instruction per post.
///
/// Records are allocated one by one (a block could only be freed once all of its records
/// were), so that any free record can go back to the heap: see trim().
class JobPool {
  public:
    /// Periods (trim() calls) a peak of records in use is remembered: a scheduler's duty
    /// cycle calls trim(), so at the default 50 ms a burst's records go back after 1 s
    /// without one like it. A shorter memory would make bursts repeated every few periods
    /// allocate their records anew each time.
    static constexpr std::size_t kQuietPeriods = 20;

    /// Allocate with new; end with retire(), never delete. `initialCapacity` (at least 64)
    /// is allocated now and kept for good.
    static JobPool* create(std::size_t initialCapacity) { return new JobPool(initialCapacity); }
    JobPool(const JobPool&) = delete;
    JobPool& operator=(const JobPool&) = delete;

    /// The owner lets go; the pool lives on while any record is still referenced.
    void retire() noexcept;

    /// A pristine record with refs == 0: from the calling worker's cache if it has one
    /// for this pool, else from the shared list. Grows the pool by a block when empty.
    JobRecord* acquire();
    /// Return a record whose last reference was dropped.
    void release(JobRecord* rec) noexcept;

    /// Successor overflow blocks (a mutex-free intrusive list under a spin lock: needed
    /// only for fan-outs beyond the inline successors).
    SuccessorBlock* acquireBlock();
    void releaseBlocks(SuccessorBlock* list) noexcept;

    /// `periods` periods ended since the last call (the owner's duty cycle; an idle
    /// scheduler's comes late), with the peak seen since then: the free records beyond
    /// what the last kQuietPeriods periods needed at most, plus the growth margin of a
    /// half (so a steady load never regrows), and beyond the initial capacity, go back to
    /// the heap. Deletes in chunks, releasing the lock between them, so posters are held
    /// up for at most one chunk. Returns how many records it deleted.
    std::size_t trim(std::size_t periods = 1);

    /// Records held: in use, in a worker's cache, or free.
    std::size_t capacity() const;
    /// Records not on the shared free list: in use, or in a worker's cache.
    std::size_t outside() const;

  private:
    friend class RecordCache;
    explicit JobPool(std::size_t initialCapacity);
    ~JobPool();
    /// Call with lock_ held.
    void grow(std::size_t count);
    /// Up to `max` free records off the shared list, above `keep` held; with lock_ held.
    JobRecord* takeSurplus(std::size_t keep, std::size_t max, std::size_t& got) noexcept;
    static void deleteList(JobRecord* list) noexcept;
    /// Up to `max` records as a list through `link`; how many in `got`. Never empty.
    JobRecord* takeBatch(std::size_t max, std::size_t& got);
    /// A list of `n` records through `link`, back to the shared list.
    void giveBatch(JobRecord* head, JobRecord* tail, std::size_t n) noexcept;
    /// Call without lock_ held: deletes the pool once retired and nothing is outside.
    void deleteIfDone(bool done) noexcept;

    mutable SpinLock lock_;  ///< guards everything below
    JobRecord* free_ = nullptr;
    std::size_t outside_ = 0;
    bool retired_ = false;
    std::size_t capacity_ = 0;
    const std::size_t retain_;  ///< never trimmed below this
    /// Most records outside during the current period (up to the last giveBatch), and
    /// during each of the last ones.
    std::size_t periodPeak_ = 0;
    std::array<std::size_t, kQuietPeriods> peaks_{};
    std::size_t period_ = 0;

    SpinLock blockLock_;
    SuccessorBlock* freeBlocks_ = nullptr;
    std::vector<std::unique_ptr<SuccessorBlock[]>> blockChunks_;
};

/// A pool's owner: retires the pool when it goes (never deletes it), so that a scheduler
/// whose constructor throws half-way lets go of its pool as its destructor would.
struct RetirePool {
    void operator()(JobPool* pool) const noexcept { pool->retire(); }
};
using PoolOwner = std::unique_ptr<JobPool, RetirePool>;

}  // namespace pullsched::detail
