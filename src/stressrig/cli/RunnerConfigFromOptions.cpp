#include "cli/RunnerConfigFromOptions.hpp"

namespace pullsched::rig {

testchain::RunnerConfig runnerConfig(const ExecutionOptions& exec, const ScheduleOptions& sched,
                                     const testchain::ComputationalLoad& load,
                                     testchain::WeightPolicy policy, unsigned parallelism) {
    testchain::RunnerConfig rc;
    rc.timeBase = exec.load;
    rc.load = load;
    rc.policy = policy;
    rc.deadlines = sched.lifeWindow > Duration::zero();
    rc.parallelism = parallelism;
    return rc;
}

}  // namespace pullsched::rig
