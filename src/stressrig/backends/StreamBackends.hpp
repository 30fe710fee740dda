#pragma once
// The job-stream backends by name (--mode=open --backends=...); the names are those of
// BackendRegistry, each adapter file defines its factory.

#include <memory>
#include <string_view>

#include "backends/StreamBackend.hpp"

namespace pullsched::rig {

/// Throws std::invalid_argument for an unknown name.
std::unique_ptr<StreamBackend> makeStreamBackend(std::string_view name);

std::unique_ptr<StreamBackend> makePullschedStream();
std::unique_ptr<StreamBackend> makeTbbStream();
std::unique_ptr<StreamBackend> makeOpenMpStream();
std::unique_ptr<StreamBackend> makeAsioStream();
std::unique_ptr<StreamBackend> makePoolStream();

}  // namespace pullsched::rig
