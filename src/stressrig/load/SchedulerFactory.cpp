#include "load/SchedulerFactory.hpp"

namespace pullsched::rig {

SchedulerConfig schedulerConfig(unsigned workers, Placement placement, Observer* observer,
                                std::size_t initialJobCapacity) {
    SchedulerConfig cfg;
    cfg.workers = workers;
    applyPlacement(cfg, placement);
    cfg.observer = observer;
    // `workers` threads run the jobs, as many as every other backend gets: a thread in
    // drain() that helped would be one more.
    cfg.helpWhileWaiting = false;
    if (initialJobCapacity) cfg.initialJobCapacity = initialJobCapacity;
    return cfg;
}

}  // namespace pullsched::rig
