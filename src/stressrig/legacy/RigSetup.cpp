#include "legacy/RigSetup.hpp"

#include <fmt/format.h>

#include "report/Progress.hpp"
#include "report/Units.hpp"
#include "cli/UsageError.hpp"
#include "pullsched/testchain/CalibrationCache.hpp"
#include "pullsched/testchain/Presets.hpp"
#include "pullsched/testchain/RuleParser.hpp"

namespace pullsched::rig {

using namespace pullsched::testchain;

namespace {

std::size_t checkedFan(const RigOptions& opt, std::size_t fallback) {
    const std::size_t fan = opt.fan.value_or(fallback);
    if (fan < 1 || fan > 16) throw UsageError(fmt::format("invalid --fan={}: must be 1..16", fan));
    return fan;
}

std::string readRules(const std::string& spec) {
    return spec;  // "@FILE" is resolved by the command line
}

}  // namespace

RuleSet rulesFor(const RigOptions& opt, std::string_view pattern) {
    if (!opt.rules.empty()) {
        const std::size_t fan = checkedFan(opt, TestChainGraph::kDefaultMaxFan);
        RuleSet rules{fan};
        try {
            rules = RuleParser::parse(readRules(opt.rules), RuleSet{fan});
        } catch (const RuleSyntaxError& e) {
            throw UsageError(fmt::format("malformed --rules: {}", e.what()));
        } catch (const std::invalid_argument& e) {
            throw UsageError(fmt::format("malformed --rules: {}", e.what()));
        }
        if (opt.seed) rules.seed = *opt.seed;
        return rules;
    }
    RuleSet rules{16};
    try {
        rules = preset(pattern);
    } catch (const std::invalid_argument& e) {
        throw UsageError(fmt::format("invalid --pattern: {}", e.what()));
    }
    const std::size_t fan = checkedFan(opt, rules.maxFan());
    if (fan != rules.maxFan()) {
        const auto seed = rules.seed;
        rules = RuleParser::parse(RuleParser::toString(rules), RuleSet{fan});
        rules.seed = seed;
    }
    if (opt.seed) rules.seed = *opt.seed;
    return rules;
}

std::vector<std::pair<std::string, std::string>> configurationOf(const RigOptions& opt) {
    std::vector<std::pair<std::string, std::string>> c;
    c.emplace_back("mode", opt.mode);
    if (opt.rules.empty()) {
        c.emplace_back("pattern", opt.pattern);
    } else {
        c.emplace_back("pattern", "custom");
    }
    try {
        const RuleSet rules = rulesFor(opt, opt.pattern);
        c.emplace_back("rules", RuleParser::toString(rules));
        c.emplace_back("seed", rules.seed ? fmt::format("{}", *rules.seed) : "graph default");
        c.emplace_back("fan", fmt::format("{}", rules.maxFan()));
    } catch (const std::exception&) {
        c.emplace_back("rules", opt.rules);
    }
    c.emplace_back("nodes", fmt::format("{}", opt.nodes));
    std::string workers;
    for (unsigned w : opt.workers)
        workers += fmt::format("{}{}", workers.empty() ? "" : ",", w);
    c.emplace_back("workers", workers);
    c.emplace_back("load", Units::formatDuration(opt.load, true));
    c.emplace_back("load kind", opt.loadKind);
    if (opt.mode == "breaking-point")
        c.emplace_back("schedule", "adapted, stress searched");
    else if (opt.mode == "param-range")
        c.emplace_back("schedule", "all jobs due at once (load peak)");
    else if (opt.schedule == "default")
        c.emplace_back("schedule",
                       fmt::format("default, level {}", Units::formatDuration(opt.level, true)));
    else
        c.emplace_back("schedule", fmt::format("adapted, stress {}", opt.stress));
    c.emplace_back("life window", Units::formatDuration(opt.lifeWindow, true));
    c.emplace_back("reps", fmt::format("{}", opt.reps));
    return c;
}

RigSetup::RigSetup(const RigOptions& opt)
    : opt_(opt),
      rules_(rulesFor(opt, opt.pattern)),
      label_(opt.rules.empty() ? opt.pattern : "custom") {}

TestChainGraph RigSetup::graph(std::size_t nodes) const {
    if (nodes < 2)
        throw UsageError(fmt::format("invalid node count {}: a graph needs at least 2", nodes));
    return TestChainGraph::generate(rules_, nodes);
}

TestChainGraph RigSetup::graph(std::string_view pattern, std::size_t nodes) const {
    if (nodes < 2)
        throw UsageError(fmt::format("invalid node count {}: a graph needs at least 2", nodes));
    RigOptions o = opt_;
    o.rules.clear();
    return TestChainGraph::generate(rulesFor(o, pattern), nodes);
}

const ComputationalLoad& RigSetup::load(Progress* progress) {
    if (!load_) {
        ComputationalLoad l(opt_.loadKind == "memory" ? ComputationalLoad::Mode::Memory
                                                      : ComputationalLoad::Mode::Cpu);
        l.calibrate(CalibrationCache::fromEnvironment());
        load_ = l;
        if (progress)
            progress->note(fmt::format("calibrated {} load: {}", opt_.loadKind, calibrationText()));
    }
    return *load_;
}

std::string RigSetup::calibrationText() const {
    if (!load_) return {};
    const Calibration& c = load_->calibration();
    return fmt::format(
        "speed {:.4g}/us, error {:.2f} %, {}", c.speed, c.errorPercent,
        c.fromCache ? "cached (re-checked)" : fmt::format("fresh ({} samples)", c.samples));
}

}  // namespace pullsched::rig
