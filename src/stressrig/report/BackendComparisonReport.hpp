#pragma once
// How a mode presents the same graph run on several backends: one text line and one CSV
// row per backend (the JSON form is BackendSeries::json()).

#include <string>
#include <vector>

#include "backends/BackendComparison.hpp"
#include "report/CsvTable.hpp"

namespace pullsched::rig {

/// One row per backend: "backend", "start times", "runs", "runtime ms", "runtime min ms",
/// "runtime max ms", "efficiency", "lateness p50 us", "lateness p99 us", "past deadline",
/// "start wait ms", "hash ok runs", "exactly once runs". `deadlines`: the schedule whose
/// nodeDeadline() the jobs' end times are held to; nullptr when it has none (empty cells).
CsvTable backendsTable(const std::vector<BackendSeries>& series,
                       const testchain::LevelSchedule* deadlines);

/// One line per backend for a mode's text (`deadlines` as for backendsTable()).
std::vector<std::string> backendsText(const std::vector<BackendSeries>& series,
                                      const testchain::LevelSchedule* deadlines);

}  // namespace pullsched::rig
