#pragma once
// A graph run that would not fit into this machine's memory is refused like a bad option:
// exit 2, nothing run.

#include <string_view>

#include "load/MemoryEstimate.hpp"

namespace pullsched::rig {

/// Throws UsageError with memoryRefusal() against this machine's available memory.
void refuseIfTooLarge(const MemoryNeed& need, std::string_view option);

}  // namespace pullsched::rig
