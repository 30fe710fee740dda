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

/// `threads` threads run the jobs, the caller of drain() among them, as in oneTBB's arena
/// of `threads` slots: `threads - 1` workers plus the thread in drain(), which helps
/// (SchedulerConfig::helpWhileWaiting) with untimed jobs only. For runs that post untimed
/// jobs and wait in drain(). One thread (no worker left), an observer or pinned workers
/// (the scheduler does not let its caller help then): `threads` workers and a sleeping
/// caller, as schedulerConfig().
SchedulerConfig helpingCallerConfig(unsigned threads, Placement placement,
                                    Observer* observer = nullptr,
                                    std::size_t initialJobCapacity = 0);

/// Whether helpingCallerConfig() lets the caller help: one worker fewer.
bool callerHelps(unsigned threads, Placement placement, const Observer* observer) noexcept;

}  // namespace pullsched::rig
