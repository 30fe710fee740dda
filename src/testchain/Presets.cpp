#include "pullsched/testchain/Presets.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace pullsched::testchain {

const std::vector<PresetInfo>& presetList() {
    static const std::vector<PresetInfo> list{
        {"isolated", "isolated nodes, no dependencies (homogeneous load peak)"},
        {"chains2", "short chains of about 2 nodes (pruning p .8)"},
        {"chains3", "interleaved short chains of about 3 nodes (pruning p .6, seed at start)"},
        {"segments3", "interleaved short segments of 3 levels with joins"},
        {"burst", "Topo-10: a chain that bursts into a dense parallel graph (load bursts)"},
        {"stationary", "Topo-20: stationary load, interleaved tries filling 8 wide levels"},
        {"chains", "Topo-21: interleaved 4-step chains, needs 4 workers"},
    };
    return list;
}

RuleSet preset(std::string_view name) {
    if (name == "isolated") {
        RuleSet r{16};
        r.pruning.value(1);
        r.weight.value(1);
        return r;
    }
    if (name == "chains2") {
        RuleSet r{16};
        r.pruning.probability(0.8);
        r.weight.value(1);
        return r;
    }
    if (name == "chains3") {
        RuleSet r{16};
        r.pruning.probability(0.6);
        r.seeding.atStart(1);
        r.weight.value(1);
        return r;
    }
    if (name == "segments3") {
        RuleSet r{16};
        r.seeding.probability(0.8).maxVal(1);
        r.reduction.probability(0.75).maxVal(3);
        r.pruning.atJoin(1);
        r.weight.value(1);
        return r;
    }
    if (name == "burst") {
        RuleSet r{16};
        r.expansion.probability(0.27).maxVal(4);
        r.reduction.probability(0.44).minVal(2).maxVal(6);
        r.weight.probability(0.66).maxVal(3);
        r.seed = 55;
        return r;
    }
    if (name == "stationary") {
        RuleSet r{8};
        r.seeding.probability(0.6).minVal(2);
        r.pruning.probability(0.44);
        r.seed = 55;
        return r;
    }
    if (name == "chains") {
        RuleSet r{8};
        r.seeding.probability(0.6).maxVal(2);
        r.pruning.probability(0.44);
        r.seed = 60;
        return r;
    }
    std::string valid;
    for (const auto& p : presetList())
        valid += fmt::format("{}{}", valid.empty() ? "" : ", ", p.name);
    throw std::invalid_argument(fmt::format("unknown pattern '{}'; valid: {}", name, valid));
}

}  // namespace pullsched::testchain
