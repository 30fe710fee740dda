#include "pullsched/testchain/RuleParser.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <charconv>
#include <cmath>
#include <vector>

namespace pullsched::testchain {

namespace {

std::string_view trim(std::string_view s) {
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return {};
    const auto last = s.find_last_not_of(" \t\r\n");
    return s.substr(first, last - first + 1);
}

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    for (;;) {
        const auto pos = s.find(sep, start);
        parts.push_back(s.substr(start, pos == std::string_view::npos ? pos : pos - start));
        if (pos == std::string_view::npos) return parts;
        start = pos + 1;
    }
}

struct Context {
    std::size_t index;
    std::string_view text;
    [[noreturn]] void fail(const std::string& what) const {
        throw RuleSyntaxError(fmt::format("rule {} '{}': {}", index, text, what));
    }
};

double parseProbability(const Context& ctx, std::string_view key, std::string_view val) {
    double p = 0;
    const auto [end, ec] = std::from_chars(val.data(), val.data() + val.size(), p);
    if (val.empty() || ec != std::errc{} || end != val.data() + val.size() || !std::isfinite(p))
        ctx.fail(fmt::format("value '{}' of key '{}' is not a number", val, key));
    if (p < 0.0 || p > 1.0)
        ctx.fail(fmt::format("value '{}' of key '{}' must be in 0..1", val, key));
    return p;
}

std::uint64_t parseCount(const Context& ctx, std::string_view key, std::string_view val) {
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(val.data(), val.data() + val.size(), v);
    if (val.empty() || ec != std::errc{} || end != val.data() + val.size())
        ctx.fail(fmt::format("value '{}' of key '{}' is not a non-negative integer", val, key));
    return v;
}

bool ruleKind(std::string_view name, RuleSet::Kind& kind) {
    for (auto k : RuleSet::kKinds)
        if (RuleSet::name(k) == name) {
            kind = k;
            return true;
        }
    return false;
}

void applyKey(const Context& ctx, Rule& rule, std::string_view key, std::string_view val,
              bool hasValue) {
    if (key == "shuffle") {
        rule.shuffle(hasValue ? parseCount(ctx, key, val) : Rule::kDefaultShuffle);
        return;
    }
    if (!hasValue) ctx.fail(fmt::format("key '{}' needs a value (KEY=VAL)", key));
    if (key == "p") {
        rule.probability(parseProbability(ctx, key, val));
        return;
    }
    // Counts are bounded by the rule itself (clamped to maxFan); reject absurd sizes only.
    const std::uint64_t n = parseCount(ctx, key, val);
    if (n > 1'000'000) ctx.fail(fmt::format("value '{}' of key '{}' is too large", val, key));
    const auto v = static_cast<std::size_t>(n);
    if (key == "min")
        rule.minVal(v);
    else if (key == "max")
        rule.maxVal(v);
    else if (key == "value")
        rule.value(v);
    else if (key == "atStart")
        rule.atStart(v);
    else if (key == "atJoin")
        rule.atJoin(v);
    else if (key == "atLink")
        rule.atLink(v);
    else
        ctx.fail(fmt::format(
            "unknown key '{}' (valid: p, min, max, shuffle, value, atStart, atJoin, atLink)", key));
}

}  // namespace

RuleSet RuleParser::parse(std::string_view spec, const RuleSet& base) {
    RuleSet rules = base;
    const auto parts = split(spec, ';');
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const std::string_view part = trim(parts[i]);
        if (part.empty()) continue;
        const Context ctx{i + 1, part};
        const auto colon = part.find(':');
        if (colon == std::string_view::npos)
            ctx.fail("expected RULE:KEY=VAL[,KEY=VAL...] (missing ':')");
        const std::string_view name = trim(part.substr(0, colon));
        RuleSet::Kind kind{};
        if (!ruleKind(name, kind))
            ctx.fail(fmt::format("unknown rule '{}' (valid: seed, expand, reduce, prune, weight)",
                                 name));
        const std::string_view body = trim(part.substr(colon + 1));
        if (body.empty()) ctx.fail("no KEY=VAL after ':'");
        Rule& rule = rules.rule(kind);
        std::vector<std::string_view> seen;  // a key given twice is a typo, never intended
        for (std::string_view kv : split(body, ',')) {
            kv = trim(kv);
            if (kv.empty()) ctx.fail("empty KEY=VAL (stray ',')");
            const auto eq = kv.find('=');
            const std::string_view key = trim(kv.substr(0, eq));
            const std::string_view val =
                eq == std::string_view::npos ? std::string_view{} : trim(kv.substr(eq + 1));
            if (key.empty()) ctx.fail(fmt::format("missing key in '{}'", kv));
            for (std::string_view k : seen)
                if (k == key) ctx.fail(fmt::format("key '{}' given twice", key));
            seen.push_back(key);
            applyKey(ctx, rule, key, val, eq != std::string_view::npos);
        }
    }
    return rules;
}

std::string RuleParser::toString(const Rule& rule) {
    switch (rule.mode()) {
        case Rule::Mode::Fixed:
            return fmt::format("value={}", rule.fixedValue());
        case Rule::Mode::AtStart:
            return fmt::format("atStart={}", rule.fixedValue());
        case Rule::Mode::AtJoin:
            return fmt::format("atJoin={}", rule.fixedValue());
        case Rule::Mode::AtLink:
            return fmt::format("atLink={}", rule.fixedValue());
        case Rule::Mode::Random:
            break;
    }
    std::vector<std::string> keys;
    if (rule.probabilityValue() != 0.0)
        keys.push_back(fmt::format("p={}", rule.probabilityValue()));
    // max before min: minVal may raise max, maxVal may lower min (builder semantics).
    if (rule.maxValue() != rule.maxFan()) keys.push_back(fmt::format("max={}", rule.maxValue()));
    if (rule.minValue() != 0) keys.push_back(fmt::format("min={}", rule.minValue()));
    if (rule.shuffleSeed() != 0) keys.push_back(fmt::format("shuffle={}", rule.shuffleSeed()));
    return fmt::format("{}", fmt::join(keys, ","));
}

std::string RuleParser::toString(const RuleSet& rules) {
    std::vector<std::string> parts;
    for (auto k : RuleSet::kKinds) {
        const std::string body = toString(rules.rule(k));
        if (!body.empty()) parts.push_back(fmt::format("{}:{}", RuleSet::name(k), body));
    }
    return fmt::format("{}", fmt::join(parts, ";"));
}

}  // namespace pullsched::testchain
