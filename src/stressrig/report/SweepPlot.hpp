#pragma once
// The sweep's picture: achieved over offered rate against y = x, p99 lateness against
// the limit, and each step's class as a band per worker count.

#include <string>
#include <vector>

#include "report/CsvTable.hpp"
#include "report/GnuplotScript.hpp"

namespace pullsched::rig {

/// One step of a sweep: its worker count, rates (jobs/s), p99 lateness and class.
struct SweepPoint {
    unsigned workers = 0;
    double offeredPerS = 0;
    double achievedPerS = 0;  ///< NaN if not measured
    double p99Us = 0;         ///< NaN if not measured
    std::string loadClass;    ///< stable | burst | failure | interrupted
};
/// Three panels over the offered rate: achieved rate with y = x, p99 lateness with the
/// limit line, and per worker count the steps as coloured stable / burst / failure bands.
GnuplotScript sweepPlot(const std::vector<SweepPoint>& points, double latenessLimitUs,
                        const std::string& title);

}  // namespace pullsched::rig
