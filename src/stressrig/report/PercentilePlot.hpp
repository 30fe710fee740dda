#pragma once
// Latency percentiles on a tail axis (50 % ... 99.99 %, max), one line per series.

#include <string>
#include <vector>

#include "report/CsvTable.hpp"
#include "report/GnuplotScript.hpp"

namespace pullsched::rig {

/// Percentiles (column `percentileColumn`, 0..100) of one or more series (µs) on a
/// log 1/(1−p) axis labelled 50 %, 90 %, 99 %, 99.9 %, 99.99 % (p = 100 drawn as "max"
/// to the right); the y axis is logarithmic when the positive values span two or
/// more decades.
GnuplotScript percentilePlot(const CsvTable& table, const std::string& percentileColumn,
                             const std::vector<std::string>& series, PlotOptions options);
/// x position of a percentile on that axis.
double tailAxisPosition(double percent);

}  // namespace pullsched::rig
