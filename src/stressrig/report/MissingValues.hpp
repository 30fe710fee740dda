#pragma once
// How a missing value (NaN, see analysis/SampleStatistics.hpp) appears in each format.

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

namespace pullsched::rig {

/// null for NaN, else the number.
inline nlohmann::json jsonNumber(double v) {
    return std::isnan(v) ? nlohmann::json(nullptr) : nlohmann::json(v);
}

/// "n/a" for NaN, else format(v).
template <class Format>
std::string textOr(double v, Format&& format) {
    return std::isnan(v) ? std::string("n/a") : format(v);
}

}  // namespace pullsched::rig
