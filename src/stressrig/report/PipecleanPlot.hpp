#pragma once
// Pipeclean per pattern: max job time and max lateness as grouped bars.

#include <string>
#include <vector>

#include "report/CsvTable.hpp"
#include "report/GnuplotScript.hpp"

namespace pullsched::rig {

/// Pipeclean per pattern name: max job time and max lateness as grouped bars (µs).
/// `patterns`, `maxJobUs` and `maxLatenessUs` run in parallel.
GnuplotScript pipecleanPlot(const std::vector<std::string>& patterns,
                            const std::vector<double>& maxJobUs,
                            const std::vector<double>& maxLatenessUs, const std::string& title);

}  // namespace pullsched::rig
