#pragma once
// One job as the scheduler keeps it: pooled, reference-counted, reused after it ended.

#include <array>
#include <atomic>
#include <cstdint>
#include <exception>

#include "pullsched/scheduler/JobState.hpp"
#include "pullsched/scheduler/Time.hpp"
#include "pullsched/scheduler/detail/InlineTask.hpp"
#include "pullsched/scheduler/detail/SpinLock.hpp"

namespace pullsched::detail {

class JobPool;
struct GroupState;
struct JobRecord;

/// Overflow storage for successors beyond the inline ones; pooled by JobPool, so wide
/// fan-outs do not allocate in steady state either.
struct SuccessorBlock {
    /// 14 pointers, the count and the next link make 128 bytes: two cache lines, no
    /// slack. An argument from the layout, not a measurement; fan-outs wider than the
    /// four inline successors are rare enough that the block size was never tuned.
    static constexpr std::uint32_t kCapacity = 14;
    std::array<JobRecord*, kCapacity> items{};
    std::uint32_t count = 0;
    SuccessorBlock* next = nullptr;
};

/// The reference design spreads a job over a chain of activity records
/// (post, gate, start, invoke, stop, notify). Here they are fields of one record:
/// the gate is `gate`, notification is the successor list, and the chain is the code path
/// in SchedulerCore. One record per job keeps posting allocation-free (records are pooled).
///
/// References are held by: every JobHandle; the scheduler, from post until the job's
/// final state is processed. A predecessor's successor list holds none: a job listed there
/// has a closed gate, so it cannot end before that predecessor notified it (this saves two
/// atomic operations per edge).
struct JobRecord {
    InlineTask task;
    TimePoint start = kAsap;
    TimePoint deadline = kNoDeadline;
    std::uint64_t tag = 0;
    /// Submission order: the FIFO tie-break for equal start times. While the job sits in a
    /// batch not submitted yet (PostBatch): kOpenBatchSeq and its index in the batch.
    /// Rewritten for a coroutine's timed resumption, atomically (see inOpenBatch).
    std::uint64_t seq = 0;
    std::exception_ptr error;

    std::atomic<std::int32_t> refs{0};
    /// Outstanding predecessor notifications, plus one held by the poster while it wires
    /// the predecessors. Whoever brings it to zero releases the job (the gate opens once).
    std::atomic<std::int32_t> gate{0};
    /// Set when a predecessor ended without completing: the job is cancelled, not run.
    std::atomic<bool> doomed{false};
    std::atomic<JobState> state{JobState::Waiting};

    /// Successors, guarded by succLock. `closed` is set when the job reached a final
    /// state; later posts naming it as predecessor read its outcome instead of waiting.
    SpinLock succLock;
    bool closed = false;
    /// Somebody waits for this job (Scheduler::wait): its end notifies the waiters.
    /// Guarded by succLock, like `closed`, so a waiter is never missed.
    bool waited = false;
    /// Whoever sets it first decides a job that may be cancelled (see Cancellation.cpp): a
    /// worker about to run it, or cancel(). Exactly one of them wins.
    std::atomic<bool> claimed{false};
    std::uint8_t inlineCount = 0;  ///< of inlineSucc's four
    /// Behind its gate for a coroutine's resumption (Scheduler::spawn): a predecessor that
    /// did not complete does not doom it, since the coroutine reads that outcome itself.
    /// Set before the record is wired (the byte that padded the record to 192 bytes).
    bool resuming = false;
    std::array<JobRecord*, 4> inlineSucc{};
    SuccessorBlock* moreSucc = nullptr;  ///< oldest block first; from and back to the pool
    SuccessorBlock* moreTail = nullptr;

    /// The group it joined (JobOptions::group), holding a reference until it is final.
    GroupState* group = nullptr;
    /// Its scheduler's pool, for good. Also tells whose a handle is: a live handle keeps
    /// its record, and so its pool, alive, so no other scheduler's pool has that address.
    JobPool* pool = nullptr;
    JobRecord* link = nullptr;  ///< intrusive list: pool free list, finalisation work list

    /// Call with succLock held.
    void addSuccessor(JobRecord* s);

    /// In the order added.
    template <class F>
    void forEachSuccessor(F&& f) const {
        for (std::uint32_t i = 0; i < inlineCount; ++i)
            f(inlineSucc[i]);
        for (const SuccessorBlock* b = moreSucc; b; b = b->next) {
            for (std::uint32_t i = 0; i < b->count; ++i)
                f(b->items[i]);
        }
    }

    /// Back to the pristine state; successor blocks return to the pool.
    void recycle() noexcept;

    void resetFields() noexcept {
        task.reset();
        if (error) error = nullptr;  // the common case skips exception_ptr's release call
        start = kAsap;
        deadline = kNoDeadline;
        tag = seq = 0;
        gate.store(0, std::memory_order_relaxed);
        doomed.store(false, std::memory_order_relaxed);
        state.store(JobState::Waiting, std::memory_order_relaxed);
        closed = false;
        waited = false;
        claimed.store(false, std::memory_order_relaxed);
        inlineCount = 0;
        resuming = false;
        moreSucc = moreTail = nullptr;
        group = nullptr;
        link = nullptr;
    }
};

/// The bit of JobRecord::seq that marks a job of a batch not submitted yet. Sequence
/// numbers are counters and never reach it; the batch's index is in the bits below.
inline constexpr std::uint64_t kOpenBatchSeq = std::uint64_t{1} << 63;
/// The job sits in a batch that was not submitted yet: it can be named only inside it.
/// An atomic read: a coroutine's job takes a new sequence number for each timed
/// resumption (SchedulerCore::rearm, an atomic write) while handles to it may be checked.
inline bool inOpenBatch(const JobRecord& rec) noexcept {
    const std::uint64_t seq = std::atomic_ref<std::uint64_t>(const_cast<std::uint64_t&>(rec.seq))
                                  .load(std::memory_order_relaxed);
    return (seq & kOpenBatchSeq) != 0;
}

}  // namespace pullsched::detail
