#include "backends/BackendSetup.hpp"

#include <utility>

namespace pullsched::rig {

BackendSetup backendSetup(unsigned workers, Placement placement, testchain::Duration timeBase,
                          std::optional<testchain::ComputationalLoad> load,
                          testchain::WeightPolicy policy, std::size_t parallelism) {
    BackendSetup setup;
    setup.workers = workers;
    setup.placement = placement;
    setup.timeBase = timeBase;
    setup.load = std::move(load);
    setup.policy = policy;
    setup.parallelism = parallelism;
    return setup;
}

}  // namespace pullsched::rig
