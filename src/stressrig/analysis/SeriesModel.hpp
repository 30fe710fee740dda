#pragma once
// The model of a parameter series: a line through the complete points, incomplete ones
// left out and counted.

#include <cstddef>
#include <optional>
#include <span>
#include <string>

#include "analysis/LinearRegression.hpp"
#include "analysis/SampleStatistics.hpp"

namespace pullsched::rig {

/// One point of a parameter series; kMissing figures mark an incomplete point.
struct SeriesPoint {
    double x = 0;                   ///< the parameter (job count)
    double result = kMissing;       ///< result time
    double concurrency = kMissing;  ///< average concurrency
};

/// result = gradient·x + socket over the points whose result is present; the mean
/// concurrency over the points where it is present. Without two complete points of
/// different x there is no model, and `why` says so.
struct SeriesModel {
    std::optional<LinearRegression> line;
    std::string why;  ///< why there is no line
    double meanConcurrency = kMissing;
    std::size_t used = 0;     ///< points in the fit
    std::size_t missing = 0;  ///< points left out (no result)

    static SeriesModel fit(std::span<const SeriesPoint> points);
};

}  // namespace pullsched::rig
