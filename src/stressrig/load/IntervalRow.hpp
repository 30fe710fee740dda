#pragma once
// One interval of a load measured interval by interval (soak, open with --stages).

#include <cstdint>

#include "analysis/SoakAnalysis.hpp"

namespace pullsched::rig {

/// One interval's row.
struct IntervalRow {
    SoakInterval i;
    double offeredRate = 0;       ///< mean rate of the timetable over the interval, jobs/s
    double p50Us = 0, maxUs = 0;  ///< NaN when missing
    std::uint64_t jobs = 0;       ///< posted in the interval
    std::uint64_t measured = 0;   ///< lateness samples in the interval
    std::uint64_t drops = 0;      ///< expired in the interval
    std::uint64_t late = 0;       ///< measured starts later than lateLimit
};

}  // namespace pullsched::rig
