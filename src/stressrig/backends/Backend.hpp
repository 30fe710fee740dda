#pragma once
// GranularityMode's names of the graph capability until it moves to GraphRunner and
// BackendRegistry::graphRunner(); then this file goes.

#include "backends/BackendRegistry.hpp"
#include "backends/GraphRunner.hpp"

namespace pullsched::rig {

using Backend = GraphRunner;

}  // namespace pullsched::rig
