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

bool callerHelps(unsigned threads, Placement placement, const Observer* observer) noexcept {
    return threads >= 2 && observer == nullptr && placement != Placement::Pinned;
}

SchedulerConfig helpingCallerConfig(unsigned threads, Placement placement, Observer* observer,
                                    std::size_t initialJobCapacity) {
    if (!callerHelps(threads, placement, observer))
        return schedulerConfig(threads, placement, observer, initialJobCapacity);
    SchedulerConfig cfg = schedulerConfig(threads - 1, placement, observer, initialJobCapacity);
    cfg.helpWhileWaiting = true;
    return cfg;
}

}  // namespace pullsched::rig
