#pragma once
// The one place where a worker count and a placement become a scheduler configuration,
// so every mode and backend runs the scheduler the same way.

#include <cstddef>

#include "load/Placement.hpp"
#include "pullsched/scheduler/Config.hpp"

namespace pullsched::rig {

/// `workers` worker threads placed as `placement` says, an optional observer, and a job
/// pool sized for the run (0: the scheduler's default) so that a measurement does not time
/// pool growth.
SchedulerConfig schedulerConfig(unsigned workers, Placement placement, Observer* observer = nullptr,
                                std::size_t initialJobCapacity = 0);

}  // namespace pullsched::rig
