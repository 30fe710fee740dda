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

}  // namespace pullsched::rig
