#pragma once
// What a JobGroup names: the group's counters and its cancelled flag. Shared by the
// group's handles and its unfinished jobs (each holds a reference).

#include <atomic>
#include <cstdint>

#include "pullsched/scheduler/JobGroup.hpp"
#include "pullsched/scheduler/JobState.hpp"

namespace pullsched::detail {

class SchedulerCore;

struct GroupState {
    GroupState(SchedulerCore* c, std::uint64_t ownerId) noexcept : core(c), owner(ownerId) {}

    /// The group's pending count: ended is read first, as in SchedulerCore::stats().
    std::uint64_t pending() const noexcept {
        const std::uint64_t e = ended.load(std::memory_order_seq_cst);
        return submitted.load(std::memory_order_seq_cst) - e;
    }
    GroupStatistics stats() const noexcept;
    /// A job of the group reached `outcome`: counted, then ended (sequentially consistent,
    /// against waiters' announcement). Returns whether anybody waits for the group.
    bool noteEnd(JobState outcome) noexcept;

    std::atomic<std::int32_t> refs{1};
    SchedulerCore* const core;
    const std::uint64_t owner;  ///< the scheduler's identity (SchedulerCore::id())
    std::atomic<bool> cancelled{false};
    std::atomic<std::uint32_t> waiters{0};
    std::atomic<std::uint64_t> submitted{0};
    std::atomic<std::uint64_t> completed{0}, failed{0}, expired{0}, cancelledJobs{0};
    std::atomic<std::uint64_t> ended{0};
};

inline void addRef(GroupState* g) noexcept {
    g->refs.fetch_add(1, std::memory_order_relaxed);
}
inline void releaseRef(GroupState* g) noexcept {
    if (g->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete g;
}

}  // namespace pullsched::detail
