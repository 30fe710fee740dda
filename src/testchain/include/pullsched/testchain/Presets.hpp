#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "pullsched/testchain/RuleSet.hpp"

namespace pullsched::testchain {

/// A named preset shape (spec §3.1) as offered on the command line.
struct PresetInfo {
    std::string_view name;         ///< CLI pattern name, e.g. "burst"
    std::string_view description;  ///< one line for --help
};

/// The seven presets, in spec order: isolated, chains2, chains3, segments3, burst
/// (Topo-10), stationary (Topo-20), chains (Topo-21).
const std::vector<PresetInfo>& presetList();

/// The rules of a preset. Throws std::invalid_argument listing the valid names.
RuleSet preset(std::string_view name);

}  // namespace pullsched::testchain
