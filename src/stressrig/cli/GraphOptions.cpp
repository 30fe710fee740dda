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

/// Whether a pattern text names a Task Bench pattern: "stencil_1d:…".
bool namesTaskBenchPattern(std::string_view text) {
    return taskBenchPatternNamed(text.substr(0, text.find(':'))).has_value();
}

/// NAME:WIDTH, the steps left to the node count (no 'x' after the colon).
bool widthOnly(std::string_view text) {
    const std::size_t colon = text.find(':');
    return colon != std::string_view::npos && text.find('x', colon) == std::string_view::npos;
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
    withNodes_ = withNodes;
    t.group("Graph");
    t.text("pattern", pattern, "NAME",
           withNodes ? "graph shape (see Patterns), or a Task Bench pattern NAME:WIDTHxSTEPS "
                       "(e.g. stencil_1d:8x100; NAME:WIDTH takes the steps from --nodes)"
                     : "graph shape (see Patterns), or a Task Bench pattern NAME:WIDTH (e.g. "
                       "stencil_1d:8; the steps follow each point's node count)",
           [](const std::string& s) { return trim(s); });
    t.text("rules", rules, "SPEC",
           "custom generator rules or @FILE (see Rules); replaces --pattern",
           [](const std::string& s) { return readRulesArgument(s); });
    t.optionalU64("seed", seed, "graph seed = node 0's hash", "the preset's");
    if (withNodes) t.size("nodes", nodes, 2, 10'000'000, "graph size in nodes");
    t.optionalCount("fan", fan, 1, 16, "maxFan of the generator", "the preset's; 16 for --rules");
    taskBench.declare(t);
}

bool GraphOptions::taskBenchPattern() const {
    return rules.empty() && namesTaskBenchPattern(pattern);
}

std::optional<TaskBenchShape> GraphOptions::taskBenchShape(std::size_t n) const {
    if (!taskBenchPattern()) return std::nullopt;
    const auto parse = [&](const std::string& text) {
        try {
            return *parseTaskBenchShape(text, taskBench.radix, taskBench.imbalance);
        } catch (const std::invalid_argument& e) {
            throw UsageError(fmt::format("invalid --pattern '{}': {}", pattern, e.what()));
        }
    };
    if (!widthOnly(pattern)) return parse(pattern);
    // two timesteps: every pattern's smallest graph (a tree or dom has one job at t = 0)
    const std::size_t width = parse(pattern + "x2").width;
    return parse(fmt::format("{}x{}", pattern, std::max<std::size_t>(2, (n + width - 1) / width)));
}

std::string GraphOptions::label() const {
    if (!rules.empty()) return "custom";
    if (!taskBenchPattern()) return pattern;
    return shapeLabel(*taskBenchShape(nodes), !widthOnly(pattern));
}

void GraphOptions::validate(const OptionTable& t) {
    (void)rulesFor();
    if (!rules.empty()) (void)rulesFor(pattern);  // a bogus --pattern beside --rules
    if (!taskBenchPattern()) {
        for (const char* option : {"radix", "imbalance"})
            if (t.given(option))
                throw UsageError(
                    fmt::format("--{} shapes Task Bench patterns only; --pattern={} is not one",
                                option, label()));
        return;
    }
    if (t.given("fan"))
        throw UsageError(fmt::format(
            "--fan sets the generator's fan; --pattern={} is a Task Bench pattern, whose fan "
            "its definition gives",
            pattern));
    if (widthOnly(pattern)) {
        (void)taskBenchShape(withNodes_ ? nodes : 2);
        return;
    }
    if (!withNodes_)
        throw UsageError(fmt::format(
            "invalid --pattern '{}': this mode chooses the node counts, so give the width "
            "alone (NAME:WIDTH)",
            pattern));
    const std::size_t jobs = nodeCount(*taskBenchShape(0));
    if (t.given("nodes"))
        throw UsageError(fmt::format(
            "--nodes: --pattern={} fixes the graph's size ({} jobs); give NAME:WIDTH to size "
            "it with --nodes",
            pattern, jobs));
    nodes = jobs;
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
    if (namesTaskBenchPattern(name)) {
        RuleSet neutral{TestChainGraph::kDefaultMaxFan};
        if (seed) neutral.seed = *seed;
        return neutral;
    }
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
    if (const auto shape = taskBenchShape(n)) {
        TestChainGraph g = taskBenchGraph(*shape);
        if (seed) g.setSeed(*seed);
        g.recalculate();  // hashes as a generated graph has them (its graph hash shown)
        return g;
    }
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
