#pragma once
// One point of the param-range series (a load peak of some size on one backend) and how
// a run becomes one: pure functions on a run's job times or on what the instrument saw.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/SeriesModel.hpp"
#include "backends/BackendRun.hpp"
#include "measure/IncidenceCount.hpp"
#include "report/MissingValues.hpp"

namespace pullsched::rig {

/// One measured point of the series; NaN figures: the run was incomplete.
struct LoadPeakPoint {
    std::size_t jobs = 0;
    std::uint64_t graphHash = 0;
    double timeMs = kMissing, concurrency = kMissing, jobtimeUs = kMissing, impededUs = kMissing;
    std::string missingWhy;  ///< why the figures are missing
};

/// Result time (first job start to last job end), concurrency (busy time / result time)
/// and mean job time of one run, from the jobs' own times (the same way for every
/// backend).
LoadPeakPoint pointOf(const BackendRun& run, std::size_t jobs);

/// The point of one run on any backend: its figures from the jobs' own times (pointOf),
/// `failure` and `late` as the run's correctness and completion limit say (each, if given,
/// is why the figures are missing), none for a run with expired or cancelled jobs.
/// `observed`: what the instrument saw of the run, which adds the time with fewer than two
/// workers busy (avg impeded); nullptr for a backend that is not instrumented (no such
/// figure, the others unchanged).
LoadPeakPoint peakPoint(const BackendRun& run, std::size_t jobs, std::uint64_t graphHash,
                        const std::string& failure, const std::string& late,
                        const IncidenceStatistic* observed);

/// The line through the complete points (SeriesModel::fit).
SeriesModel fitPoints(const std::vector<LoadPeakPoint>& points);

}  // namespace pullsched::rig
