#pragma once
// How far ahead pullsched's prebuilt run puts the gate its graph is posted behind.

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>

#include "pullsched/scheduler/Time.hpp"

namespace pullsched::rig {

/// The gate's lead over the start of posting: room for the posting, as short as that
/// allows, since the workers idle until the gate and a long idle leaves the caches cold
/// (grid-100x100, 1 worker: 99 ns per job behind a 2 ms lead, 277 behind 22 ms).
/// `lastPosting`: how long the previous run of the graph took to post it (zero: none yet,
/// then 2 us per node); `early`: its gate opened before its posting ended, so part of the
/// posting was timed, and the lead doubles. At least 2 ms, in which the scheduler's tender
/// wakes a second worker before the gate.
inline Duration gateLead(Duration lastPosting, bool early, std::size_t nodes) {
    using std::chrono::microseconds;
    const Duration floor = microseconds{2000};
    if (lastPosting == Duration::zero())
        return floor + microseconds{2 * static_cast<std::int64_t>(nodes)};
    if (early) lastPosting *= 2;
    return std::max(floor, lastPosting * 3 / 2 + microseconds{500});
}

}  // namespace pullsched::rig
