#pragma once
// What a PostBatch holds until it is submitted: its records, in the order posted, and the
// edges to predecessors outside the batch, which are wired only at submit().

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "detail/JobPool.hpp"
#include "pullsched/scheduler/detail/JobRecord.hpp"

namespace pullsched::detail {

class SchedulerCore;

struct BatchState {
    /// A record of this batch while it is open: marked in its `seq` (kOpenBatchSeq, with
    /// its index) and found at that index. A submitted or discarded batch's records carry
    /// real sequence numbers (or 0), so no stale mark stays behind.
    bool owns(const JobRecord* rec) const noexcept {
        if (!inOpenBatch(*rec)) return false;
        const std::uint64_t i = rec->seq & ~kOpenBatchSeq;
        return i < records.size() && records[i] == rec;
    }
    /// The index of a record of this open batch.
    static std::size_t indexOf(const JobRecord* rec) noexcept {
        return static_cast<std::size_t>(rec->seq & ~kOpenBatchSeq);
    }

    BatchState(SchedulerCore& c, JobPool* p) noexcept : core(c), pool(p), cache(p) {}
    BatchState(const BatchState&) = delete;
    BatchState& operator=(const BatchState&) = delete;

    /// A predecessor outside the batch, kept referenced until submit() wires it.
    struct ExternalEdge {
        JobRecord* job;
        JobRecord* pred;
    };

    SchedulerCore& core;
    const JobPool* const pool;  ///< the scheduler's: whose handles are this scheduler's
    /// Records taken a batch at a time when the thread has no worker's cache (a poster
    /// outside the workers): one lock of the pool per 32 jobs instead of one per job.
    RecordCache cache;
    /// In the order posted; while the batch is open a record's `seq` is its index here.
    std::vector<JobRecord*> records;
    std::vector<ExternalEdge> external;
    bool submitted = false;

    // submit()'s working lists.
    /// Per record: its external predecessors that had ended when wired (their notification
    /// is taken off its gate with the batch's guard), and whether one is still open.
    struct Wiring {
        std::int32_t ended = 0;
        bool open = false;
    };
    std::vector<Wiring> wiring;
    /// Records whose gate opened at submit(), by where they go.
    std::vector<JobRecord*> ready, timed, doomed;

    /// Empty again, for the next batch (see BatchStock); big lists are given back.
    void reset() noexcept;
};

/// One batch's state kept for the next: a planner that posts batch after batch then takes
/// no allocation per batch (the state and its lists), and the records left in its cache
/// serve the next batch without the pool's lock. Swapped in and out with one atomic
/// exchange; a second batch open at the same time gets a state of its own.
class BatchStock {
  public:
    BatchStock() noexcept = default;
    BatchStock(const BatchStock&) = delete;
    BatchStock& operator=(const BatchStock&) = delete;
    ~BatchStock();
    /// The kept state, or null.
    std::unique_ptr<BatchState> take() noexcept;
    /// Keep `state` (reset) for the next batch; one kept already is deleted instead.
    void give(std::unique_ptr<BatchState> state) noexcept;

  private:
    std::atomic<BatchState*> kept_{nullptr};
};

}  // namespace pullsched::detail
