#include "pullsched/scheduler/Scheduler.hpp"

namespace pullsched {

Scheduler::Scheduler(const SchedulerConfig& cfg)
    : core_(std::make_unique<detail::SchedulerCore>(cfg)) {}

Scheduler::~Scheduler() = default;  // the core's destructor shuts down in the configured mode

}  // namespace pullsched
