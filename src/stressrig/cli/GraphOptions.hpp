#pragma once
// Which TestChainLoad graph a mode runs: --pattern or --rules, --seed, --nodes, --fan.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "cli/OptionTable.hpp"
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

    /// Declares --pattern, --rules, --seed, --fan and (unless withNodes is false, for
    /// modes that choose the size themselves) --nodes.
    void declare(OptionTable& table, bool withNodes = true);

    /// "custom" for --rules, else the pattern.
    std::string label() const { return rules.empty() ? pattern : "custom"; }
    /// The rules of `patternName` under --seed / --fan, or the --rules when given and
    /// patternName is empty. UsageError naming the problem.
    testchain::RuleSet rulesFor(std::string_view patternName = {}) const;
    /// Throws UsageError for an unknown pattern, malformed rules or a bad fan.
    void validate() const {
        (void)rulesFor();
        if (!rules.empty()) (void)rulesFor(pattern);  // a bogus --pattern beside --rules
    }
    /// The graph of the options (or of another preset, same seed and fan) with `n` nodes.
    testchain::TestChainGraph graph(std::size_t n) const;
    testchain::TestChainGraph graph() const { return graph(nodes); }
    testchain::TestChainGraph presetGraph(std::string_view patternName, std::size_t n) const;
};

/// The largest rules file --rules=@FILE reads; a rules file is a few lines.
inline constexpr std::size_t kMaxRulesFileBytes = 1024 * 1024;

/// `--rules` text: `@FILE` is read (one rule per line, '#' comments). UsageError for an
/// empty rule list (`;;;`, blanks), and for a file that is missing, not a regular file
/// (a directory, FIFO, device), larger than kMaxRulesFileBytes or without rules; the
/// message names the file and why.
std::string readRulesArgument(const std::string& text);

}  // namespace pullsched::rig
