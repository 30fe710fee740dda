#pragma once
// The one place where the run options (--load, --life-window, ...) become a
// ScheduleRunner's configuration, so every mode runs its graphs the same way.

#include "cli/ExecutionOptions.hpp"
#include "cli/ScheduleOptions.hpp"
#include "pullsched/testchain/ComputationalLoad.hpp"
#include "pullsched/testchain/ScheduleRunner.hpp"
#include "pullsched/testchain/WeightPolicy.hpp"

namespace pullsched::rig {

/// A ScheduleRunner's configuration: job body and time base from `exec`, deadlines from
/// `sched`'s life window, and the parallelism the lower bound assumes.
testchain::RunnerConfig runnerConfig(const ExecutionOptions& exec, const ScheduleOptions& sched,
                                     const testchain::ComputationalLoad& load,
                                     testchain::WeightPolicy policy, unsigned parallelism);

}  // namespace pullsched::rig
