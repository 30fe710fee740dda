#pragma once

#include <chrono>

namespace pullsched::testchain {

/// All times of this layer are offsets in nanoseconds (from a schedule anchor or a start).
using Duration = std::chrono::nanoseconds;

}  // namespace pullsched::testchain
