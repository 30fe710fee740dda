#include "cli/GraphOptions.hpp"

#include <filesystem>
#include <sstream>

#include <fmt/format.h>

#include "cli/ArgumentFile.hpp"
#include "cli/UsageError.hpp"
#include "pullsched/testchain/Presets.hpp"
#include "pullsched/testchain/RuleParser.hpp"

namespace pullsched::rig {

using namespace pullsched::testchain;

namespace {

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    const auto e = s.find_last_not_of(" \t\r\n");
    return b == std::string::npos ? std::string{} : s.substr(b, e - b + 1);
}

/// Whether `spec` holds any rule. A list of only separators and blanks would silently
/// mean "the neutral rules".
bool holdsRules(std::string_view spec) {
    return spec.find_first_not_of("; \t\r\n") != std::string_view::npos;
}

}  // namespace

std::string readRulesArgument(const std::string& text) {
    const std::string spec = trim(text);
    if (spec.empty() || spec[0] != '@') {
        if (!holdsRules(spec))
            throw UsageError(
                fmt::format("invalid --rules='{}': an empty rule list (give at "
                            "least one RULE:KEY=VAL, or leave --rules out)",
                            text));
        return spec;
    }
    const std::filesystem::path file = spec.substr(1);
    if (file.empty()) throw UsageError("invalid --rules=@: no file name after '@'");
    const std::string what = fmt::format("invalid --rules=@{}", file.string());
    const std::string content = readArgumentFile(file, what, "a rules file", kMaxRulesFileBytes);
    std::string all;
    std::istringstream in(content);
    for (std::string line; std::getline(in, line);) {
        const auto hash = line.find('#');
        if (hash != std::string::npos) line.erase(hash);
        line = trim(line);
        if (line.empty()) continue;
        if (!all.empty() && all.back() != ';') all += ';';
        all += line;
    }
    if (!holdsRules(all)) throw UsageError(fmt::format("{}: the file holds no rules", what));
    return all;
}

void GraphOptions::declare(OptionTable& t, bool withNodes) {
    t.group("Graph");
    t.text("pattern", pattern, "NAME", "graph shape (see Patterns)",
           [](const std::string& s) { return trim(s); });
    t.text("rules", rules, "SPEC",
           "custom generator rules or @FILE (see Rules); replaces --pattern",
           [](const std::string& s) { return readRulesArgument(s); });
    t.optionalU64("seed", seed, "graph seed = node 0's hash", "the preset's");
    if (withNodes) t.size("nodes", nodes, 2, 10'000'000, "graph size in nodes");
    t.optionalCount("fan", fan, 1, 16, "maxFan of the generator", "the preset's; 16 for --rules");
}

RuleSet GraphOptions::rulesFor(std::string_view patternName) const {
    if (!rules.empty() && patternName.empty()) {
        const std::size_t f = fan.value_or(TestChainGraph::kDefaultMaxFan);
        RuleSet r{f};
        try {
            r = RuleParser::parse(rules, RuleSet{f});
        } catch (const std::invalid_argument& e) {
            throw UsageError(fmt::format("malformed --rules: {}", e.what()));
        }
        if (seed) r.seed = *seed;
        return r;
    }
    const std::string_view name = patternName.empty() ? std::string_view(pattern) : patternName;
    RuleSet r{16};
    try {
        r = preset(name);
    } catch (const std::invalid_argument& e) {
        throw UsageError(fmt::format("invalid --pattern: {}", e.what()));
    }
    const std::size_t f = fan.value_or(r.maxFan());
    if (f != r.maxFan()) {
        const auto s = r.seed;
        r = RuleParser::parse(RuleParser::toString(r), RuleSet{f});
        r.seed = s;
    }
    if (seed) r.seed = *seed;
    return r;
}

TestChainGraph GraphOptions::graph(std::size_t n, const testchain::StopPredicate& stop) const {
    if (n < 2) throw UsageError(fmt::format("invalid node count {}: a graph needs at least 2", n));
    return TestChainGraph::generate(rulesFor(), n, stop);
}

std::optional<TestChainGraph> GraphOptions::graphUnlessStopped(
    std::size_t n, const testchain::StopPredicate& stop) const {
    try {
        return graph(n, stop);
    } catch (const testchain::Stopped&) {
        return std::nullopt;
    }
}

TestChainGraph GraphOptions::presetGraph(std::string_view patternName, std::size_t n,
                                         const testchain::StopPredicate& stop) const {
    if (n < 2) throw UsageError(fmt::format("invalid node count {}: a graph needs at least 2", n));
    return TestChainGraph::generate(rulesFor(patternName), n, stop);
}

}  // namespace pullsched::rig
