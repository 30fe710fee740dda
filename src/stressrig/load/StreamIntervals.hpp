#pragma once
// A job-stream backend's open run cut into intervals afterwards, from what every job
// recorded (intended start, actual start, end): the same rows the pullsched driver's
// IntervalHarvester takes while it runs, so --stages reads alike on every backend.

#include <cstdint>
#include <span>
#include <vector>

#include "load/IntervalRow.hpp"
#include "load/LoadRuns.hpp"

namespace pullsched::rig {

/// One arrival's record: offsets since the run's origin, in ns.
struct StreamJobTimes {
    std::int64_t intended = 0;
    std::int64_t started = 0;  ///< valid when ran
    std::int64_t ended = 0;    ///< valid when ran
    bool ran = false;
};

/// Rows of cfg.interval over cfg.duration: offered = the load's mean rate over the
/// interval, achieved = jobs ended in it per second, backlog = jobs due by its end and
/// not started by then, lateness (p50, p99, max, late count) of the measured jobs
/// (intended at or after the warm-up) that started in it. No drops (stream backends
/// have no deadlines); CPU, RSS and steal are not sampled (NaN). Pure.
std::vector<IntervalRow> streamIntervals(std::span<const StreamJobTimes> jobs,
                                         const OpenLoadConfig& cfg);

}  // namespace pullsched::rig
