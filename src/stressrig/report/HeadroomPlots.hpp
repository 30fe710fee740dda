#pragma once
// The headroom mode's pictures: lateness, CPU and throughput over the offered load, and
// the run time of k copies with their efficiency.

#include <limits>
#include <string>
#include <vector>

#include "report/CsvTable.hpp"
#include "report/GnuplotScript.hpp"

namespace pullsched::rig {

/// Headroom over the offered load (x, jobs/s, ascending): lateness series (µs, left)
/// and the machine's CPU % and the throughput (achieved / offered %, when the table has
/// `achieved_rate_per_s`) on the right; steps within the sustained load shaded. With a
/// deadline window (µs) that the lateness comes near, the window is drawn and said to
/// clip the lateness: a job not started within it is dropped, so no lateness exceeds it.
GnuplotScript headroomLoadPlot(const CsvTable& table, const std::vector<std::string>& lateness,
                               const std::string& title,
                               double deadlineWindowUs = std::numeric_limits<double>::quiet_NaN());
/// Run time of k copies (integer x ticks) with the efficiency on the second axis.
GnuplotScript headroomCopiesPlot(const CsvTable& table, const std::string& title);

}  // namespace pullsched::rig
