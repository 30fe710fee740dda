#pragma once

#include <cstddef>

namespace pullsched::testchain {

/// How node weights count when a graph is scheduled. Stationary presets define no
/// weight rule (their DOT output must show none), yet the reference ran every such
/// node with one base load; UnitIfZero reproduces that without touching the graph.
enum class WeightPolicy {
    Raw,         ///< weights as generated (topology output, statistics)
    UnitIfZero,  ///< a weight of 0 counts as 1 (graphs without a weight rule)
};

constexpr std::size_t effectiveWeight(std::size_t raw, WeightPolicy policy) noexcept {
    return (policy == WeightPolicy::UnitIfZero && raw == 0) ? 1 : raw;
}

}  // namespace pullsched::testchain
