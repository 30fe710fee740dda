#pragma once
// How a mode presents the same graph run on several backends: one text line and one CSV
// row per backend (the JSON form is BackendSeries::json()).

#include <string>
#include <vector>

#include "backends/BackendComparison.hpp"
#include "report/CsvTable.hpp"

namespace pullsched::rig {

/// One row per backend: "backend", "start times", "runs", "runtime ms", "runtime min ms",
/// "runtime max ms", "efficiency", "lateness p50 us", "lateness p99 us", "start wait ms",
/// "hash ok runs", "exactly once runs".
CsvTable backendsTable(const std::vector<BackendSeries>& series);

/// One line per backend for a mode's text.
std::vector<std::string> backendsText(const std::vector<BackendSeries>& series);

}  // namespace pullsched::rig
