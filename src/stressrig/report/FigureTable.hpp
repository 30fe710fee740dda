#pragma once
// The page's "Result figures" as a labelled table (label, value with unit, which way is
// better, meaning, JSON key) from the metric catalogue, and the check table of --check.

#include <string>

#include <nlohmann/json.hpp>

namespace pullsched::rig {

struct FigureTable {
    /// HTML: a table of every figure of `result` the catalogue knows (nested objects
    /// searched; arrays left to the full listing), empty when there is none.
    static std::string figures(const nlohmann::json& result);
    /// HTML: the envelope's `checks` (condition, where, value, outcome) and the busy note;
    /// empty when the run had no checks.
    static std::string checks(const nlohmann::json& checks);
};

}  // namespace pullsched::rig
