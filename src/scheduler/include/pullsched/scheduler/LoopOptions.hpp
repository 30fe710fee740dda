#pragma once
// How Scheduler::parallelFor cuts its range and what its chunks are (see ParallelFor.hpp).

#include <cstddef>

#include "pullsched/scheduler/JobOptions.hpp"

namespace pullsched {

struct LoopOptions {
    /// Indices per chunk; 0 chooses: the range in four chunks per thread that runs jobs (the
    /// workers and a caller that helps in wait()), so an uneven chunk leaves the others
    /// work to share, while empty iterations cost no more than a few jobs each.
    std::size_t grain = 0;
    /// Every chunk's start, deadline, tag and group (the join job is in the group too).
    JobOptions job{};
};

}  // namespace pullsched
