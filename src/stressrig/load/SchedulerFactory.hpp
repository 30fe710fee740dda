#pragma once
// The one place where the rig's options become scheduler and runner configuration, so
// every mode runs the scheduler the same way.

#include <cstddef>

#include "cli/ExecutionOptions.hpp"
#include "cli/ScheduleOptions.hpp"
#include "load/Placement.hpp"
#include "pullsched/scheduler/Config.hpp"
#include "pullsched/testchain/ComputationalLoad.hpp"
#include "pullsched/testchain/ScheduleRunner.hpp"
#include "pullsched/testchain/WeightPolicy.hpp"

namespace pullsched::rig {

/// `workers` worker threads placed as `placement` says, an optional observer, and a job
/// pool sized for the run (0: the scheduler's default) so that a measurement does not time
/// pool growth.
SchedulerConfig schedulerConfig(unsigned workers, Placement placement, Observer* observer = nullptr,
                                std::size_t initialJobCapacity = 0);

/// A ScheduleRunner's configuration: job body and time base from `exec`, deadlines from
/// `sched`'s life window, and the parallelism the lower bound assumes.
testchain::RunnerConfig runnerConfig(const ExecutionOptions& exec, const ScheduleOptions& sched,
                                     const testchain::ComputationalLoad& load,
                                     testchain::WeightPolicy policy, unsigned parallelism);

}  // namespace pullsched::rig
