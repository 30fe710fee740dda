#pragma once
// From options to the things every mode needs: the rules and graph for a pattern, the
// weight policy, the calibrated computational load, and the configuration to report.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "legacy/RigOptions.hpp"
#include "pullsched/testchain/ComputationalLoad.hpp"
#include "pullsched/testchain/RuleSet.hpp"
#include "pullsched/testchain/TestChainGraph.hpp"
#include "pullsched/testchain/WeightPolicy.hpp"

namespace pullsched::rig {

class Progress;

/// Rules for a pattern under the options: `--rules` (starting from a plain chain with
/// maxFan `--fan`, default 16) replaces the pattern; otherwise the preset, re-expressed
/// for `--fan` when that differs from the preset's maxFan. `--seed` overrides the
/// preset's seed. Throws UsageError naming the problem (unknown pattern, bad rules, fan).
testchain::RuleSet rulesFor(const RigOptions& opt, std::string_view pattern);

/// The configuration lines of a result (mode, pattern, rules, seed, nodes, fan, workers,
/// load, schedule, stress, reps), for CSV comments and result blocks.
std::vector<std::pair<std::string, std::string>> configurationOf(const RigOptions& opt);

class RigSetup {
  public:
    /// Validates pattern / rules (UsageError) and keeps the rules.
    explicit RigSetup(const RigOptions& opt);

    const RigOptions& options() const noexcept { return opt_; }
    const testchain::RuleSet& rules() const noexcept { return rules_; }
    /// The pattern name, or "custom" for --rules.
    const std::string& label() const noexcept { return label_; }
    /// How the graph's weights count when scheduled (UnitIfZero without a weight rule).
    testchain::WeightPolicy policy() const noexcept { return rules_.schedulingWeightPolicy(); }

    /// The graph of the options' pattern with `nodes` nodes (UsageError for nodes < 2).
    testchain::TestChainGraph graph(std::size_t nodes) const;
    testchain::TestChainGraph graph() const { return graph(opt_.nodes); }
    /// The graph of another preset under the same --seed/--fan (e.g. pipeclean).
    testchain::TestChainGraph graph(std::string_view pattern, std::size_t nodes) const;

    /// The computational load (--load-kind), calibrated once with the per-machine
    /// cache; the calibration (speed, error, cached or fresh) goes to `progress`.
    const testchain::ComputationalLoad& load(Progress* progress = nullptr);
    /// "speed 123.4/µs, error 1.2 %, cached" (empty before load()).
    std::string calibrationText() const;

  private:
    const RigOptions& opt_;
    testchain::RuleSet rules_;
    std::string label_;
    std::optional<testchain::ComputationalLoad> load_;
};

}  // namespace pullsched::rig
