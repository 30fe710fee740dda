#pragma once
// The pictures whose reference lines carry the verdict: the breaking point against its
// limit, latency percentiles on a tail axis, the sweep's rates against y = x and its
// classes, the headroom over the offered load, and pipeclean per pattern. Each takes
// what it draws as plain numbers, so the modes only hand over their results.

#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "report/CsvTable.hpp"
#include "report/GnuplotScript.hpp"

namespace pullsched::rig {

/// What the breaking-point picture draws. Missing numbers are NaN (not drawn).
struct BreakingPointPicture {
    struct Probe {
        double stress = 0;
        double meanRuntimeMs = 0;  ///< NaN if no run of the probe completed
        double expectedMs = 0;
        double failFraction = 0;
        bool broken = false;
    };
    std::vector<Probe> probes;  ///< any order; drawn by stress
    /// The fitted fail fraction as a curve (stress, probability), ascending stress.
    std::vector<std::pair<double, double>> fittedCurve;
    double breakingStress = 0;     ///< the bisection's estimate
    double ciLow = 0, ciHigh = 0;  ///< 95 % interval of the fit's 50 % stress
    double fit50 = 0;              ///< the fit's 50 % stress
    double limitStress = 0;        ///< the theoretical limit
    double idealStress = std::numeric_limits<double>::quiet_NaN();  ///< ideal run; NaN: none
    std::string title;
};
GnuplotScript breakingPointPlot(const BreakingPointPicture& picture);

/// Percentiles (column `percentileColumn`, 0..100) of one or more series (µs) on a
/// log 1/(1−p) axis labelled 50 %, 90 %, 99 %, 99.9 %, 99.99 % (p = 100 drawn as "max"
/// to the right); the y axis is logarithmic when the positive values span two or
/// more decades.
GnuplotScript percentilePlot(const CsvTable& table, const std::string& percentileColumn,
                             const std::vector<std::string>& series, PlotOptions options);
/// x position of a percentile on that axis.
double tailAxisPosition(double percent);

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

/// Pipeclean per pattern name: max job time and max lateness as grouped bars (µs).
/// `patterns`, `maxJobUs` and `maxLatenessUs` run in parallel.
GnuplotScript pipecleanPlot(const std::vector<std::string>& patterns,
                            const std::vector<double>& maxJobUs,
                            const std::vector<double>& maxLatenessUs, const std::string& title);

}  // namespace pullsched::rig
