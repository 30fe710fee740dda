#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "pullsched/testchain/Rule.hpp"
#include "pullsched/testchain/WeightPolicy.hpp"

namespace pullsched::testchain {

/// The five generator rules (spec §2/§3), their maxFan and the optional graph seed.
/// Together with the node count this names a graph.
class RuleSet {
  public:
    enum class Kind { Seeding, Expansion, Reduction, Pruning, Weight };
    static constexpr std::array<Kind, 5> kKinds{Kind::Seeding, Kind::Expansion, Kind::Reduction,
                                                Kind::Pruning, Kind::Weight};

    /// All rules neutral (a plain chain); maxFan must be 1..16.
    explicit RuleSet(std::size_t maxFan = 16)
        : seeding(maxFan),
          expansion(maxFan),
          reduction(maxFan),
          pruning(maxFan),
          weight(maxFan),
          maxFan_(maxFan) {}

    Rule seeding;
    Rule expansion;
    Rule reduction;
    Rule pruning;
    Rule weight;
    /// Hash of node 0 (the seed of every start node); nullopt keeps the graph's current one.
    std::optional<std::uint64_t> seed;

    std::size_t maxFan() const noexcept { return maxFan_; }

    Rule& rule(Kind k) noexcept {
        switch (k) {
            case Kind::Seeding:
                return seeding;
            case Kind::Expansion:
                return expansion;
            case Kind::Reduction:
                return reduction;
            case Kind::Pruning:
                return pruning;
            case Kind::Weight:
                break;
        }
        return weight;
    }
    const Rule& rule(Kind k) const noexcept { return const_cast<RuleSet*>(this)->rule(k); }

    /// Command-line name of a rule: seed, expand, reduce, prune, weight.
    static constexpr std::string_view name(Kind k) noexcept {
        switch (k) {
            case Kind::Seeding:
                return "seed";
            case Kind::Expansion:
                return "expand";
            case Kind::Reduction:
                return "reduce";
            case Kind::Pruning:
                return "prune";
            case Kind::Weight:
                break;
        }
        return "weight";
    }

    /// Whether the rules give node weights at all (stationary presets do not).
    bool givesWeights() const noexcept { return !weight.isNeutral(); }
    /// Weight policy for scheduling such a graph: without a weight rule each node is one load.
    WeightPolicy schedulingWeightPolicy() const noexcept {
        return givesWeights() ? WeightPolicy::Raw : WeightPolicy::UnitIfZero;
    }

    friend bool operator==(const RuleSet& a, const RuleSet& b) noexcept {
        return a.maxFan_ == b.maxFan_ && a.seeding == b.seeding && a.expansion == b.expansion &&
               a.reduction == b.reduction && a.pruning == b.pruning && a.weight == b.weight &&
               a.seed == b.seed;
    }

  private:
    std::size_t maxFan_;
};

}  // namespace pullsched::testchain
