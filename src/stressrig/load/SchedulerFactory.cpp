#include "load/SchedulerFactory.hpp"

namespace pullsched::rig {

SchedulerConfig schedulerConfig(unsigned workers, Placement placement, Observer* observer,
                                std::size_t initialJobCapacity) {
    SchedulerConfig cfg;
    cfg.workers = workers;
    applyPlacement(cfg, placement);
    cfg.observer = observer;
    if (initialJobCapacity) cfg.initialJobCapacity = initialJobCapacity;
    return cfg;
}

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
