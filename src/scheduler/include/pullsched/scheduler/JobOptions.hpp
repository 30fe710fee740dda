#pragma once
// When a job may start, until when it is worth starting, and how observers know it.

#include <cstdint>

#include "pullsched/scheduler/JobGroup.hpp"
#include "pullsched/scheduler/Time.hpp"

namespace pullsched {

struct JobOptions {
    /// Not before this time (scheduler clock). kAsap: as soon as its predecessors are done.
    TimePoint start = kAsap;
    /// Not started by then -> Expired, and its dependents are cancelled.
    TimePoint deadline = kNoDeadline;
    /// Free for the poster: passed to the observer and available from the handle.
    std::uint64_t tag = 0;
    /// The group the job joins (Scheduler::group()); none by default.
    GroupRef group{};
};

}  // namespace pullsched
