#pragma once
// The factory of each backend; each adapter file defines its own (see BackendRegistry).

#include <memory>

#include "backends/Backend.hpp"

namespace pullsched::rig {

std::unique_ptr<Backend> makePullschedBackend();
std::unique_ptr<Backend> makeTbbBackend();
std::unique_ptr<Backend> makeOpenMpBackend();
std::unique_ptr<Backend> makeAsioBackend();
std::unique_ptr<Backend> makePoolBackend();

}  // namespace pullsched::rig
