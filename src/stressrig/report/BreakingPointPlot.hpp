#pragma once
// The breaking-point picture: mean run time and fail fraction by stress, the fitted
// curve with its band, and the breaking stress against the theoretical limit and the
// ideal run.

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

}  // namespace pullsched::rig
