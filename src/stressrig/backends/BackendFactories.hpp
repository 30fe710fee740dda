#pragma once
// The factory of each backend; each adapter file defines its own (see BackendRegistry).

#include <memory>

#include "backends/Backend.hpp"

namespace pullsched::rig {

std::unique_ptr<Backend> makePullschedBackend();
std::unique_ptr<Backend> makePoolBackend();

}  // namespace pullsched::rig
