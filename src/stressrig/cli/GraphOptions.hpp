#pragma once
// Which graph a mode runs: a TestChainLoad graph (--pattern or --rules, --seed, --nodes,
// --fan) or a Task Bench shape (--pattern=NAME:WIDTHxSTEPS or NAME:WIDTH, --radix,
// --imbalance).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "cli/OptionTable.hpp"
#include "cli/TaskBenchOptions.hpp"
#include "load/TaskBenchPatterns.hpp"
#include "pullsched/testchain/RuleSet.hpp"
#include "pullsched/testchain/TestChainGraph.hpp"

namespace pullsched::rig {

/// The graph options shared by every mode that builds a graph.
struct GraphOptions {
    std::string pattern = "burst";
    std::string rules;                  ///< custom rule string (after @FILE); replaces pattern
    std::optional<std::uint64_t> seed;  ///< node 0's hash; the preset's when unset
    std::size_t nodes = 64;
    std::optional<unsigned> fan;  ///< maxFan 1..16; the preset's when unset
    TaskBenchOptions taskBench;   ///< --radix, --imbalance of a Task Bench --pattern

    /// Declares --pattern, --rules, --seed, --fan, --radix, --imbalance and (unless
    /// withNodes is false, for modes that choose the size themselves) --nodes.
    void declare(OptionTable& table, bool withNodes = true);

    /// "custom" for --rules, a Task Bench shape's label ("stencil_1d-8x100"), else the
    /// pattern.
    std::string label() const;
    /// The rules of `patternName` under --seed / --fan, or the --rules when given and
    /// patternName is empty. A Task Bench pattern has no generator rules: the neutral
    /// ones stand for it. UsageError naming the problem.
    testchain::RuleSet rulesFor(std::string_view patternName = {}) const;
    /// Throws UsageError for an unknown pattern, malformed rules, a bad fan or Task Bench
    /// shape, --nodes beside a NAME:WIDTHxSTEPS shape (which fixes the size: `nodes`
    /// becomes its job count) or one in a mode that chooses the sizes, --fan beside a
    /// Task Bench pattern, and --radix or --imbalance without one.
    void validate(const OptionTable& table);
    /// Whether --pattern names a Task Bench pattern (and no --rules replace it).
    bool taskBenchPattern() const;
    /// The Task Bench shape of --pattern for a graph of about `n` jobs: NAME:WxS as
    /// given, NAME:W with ⌈n / W⌉ timesteps (at least 2); nullopt for a preset or --rules.
    std::optional<TaskBenchShape> taskBenchShape(std::size_t n) const;
    /// The graph of the options (or of another preset, same seed and fan) with `n` nodes.
    /// `stop` is polled while it is generated (testchain::Stopped).
    testchain::TestChainGraph graph(std::size_t n, const testchain::StopPredicate& stop = {}) const;
    testchain::TestChainGraph graph(const testchain::StopPredicate& stop = {}) const {
        return graph(nodes, stop);
    }
    /// graph(n, stop), or nullopt when the stop came first.
    std::optional<testchain::TestChainGraph> graphUnlessStopped(
        std::size_t n, const testchain::StopPredicate& stop) const;
    testchain::TestChainGraph presetGraph(std::string_view patternName, std::size_t n,
                                          const testchain::StopPredicate& stop = {}) const;

  private:
    bool withNodes_ = true;
};

/// The largest rules file --rules=@FILE reads; a rules file is a few lines.
inline constexpr std::size_t kMaxRulesFileBytes = 1024 * 1024;

/// `--rules` text: `@FILE` is read (one rule per line, '#' comments). UsageError for an
/// empty rule list (`;;;`, blanks), and for a file that is missing, not a regular file
/// (a directory, FIFO, device), larger than kMaxRulesFileBytes or without rules; the
/// message names the file and why.
std::string readRulesArgument(const std::string& text);

}  // namespace pullsched::rig
