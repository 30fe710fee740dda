#include "report/ResultCheck.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "format/SignificantDigits.hpp"

namespace pullsched::rig {

namespace {

/// One place a figure was found: the keys that tell it apart, and its value.
struct Instance {
    std::vector<std::string> where;
    nlohmann::json value;
};

std::vector<std::string> splitOn(std::string_view s, char c) {
    std::vector<std::string> parts;
    std::size_t at = 0;
    for (std::size_t next; (next = s.find(c, at)) != std::string_view::npos; at = next + 1)
        parts.emplace_back(s.substr(at, next - at));
    parts.emplace_back(s.substr(at));
    return parts;
}

/// The instances of `segments[i..]` below `node`, labelled by the wildcards passed.
void resolveFrom(const nlohmann::json& node, const std::vector<std::string>& segments,
                 std::size_t i, std::vector<std::string>& where, std::vector<Instance>& out) {
    if (i == segments.size()) {
        out.push_back({where, node});
        return;
    }
    if (!node.is_object()) return;
    const std::string& seg = segments[i];
    if (seg == "*") {
        for (const auto& [key, child] : node.items()) {
            where.push_back(key);
            resolveFrom(child, segments, i + 1, where, out);
            where.pop_back();
        }
        return;
    }
    const std::size_t open = seg.find('[');
    const std::string key = seg.substr(0, open);
    if (!node.contains(key)) return;
    const nlohmann::json& child = node.at(key);
    if (open == std::string::npos) {
        resolveFrom(child, segments, i + 1, where, out);
        return;
    }
    if (!child.is_array()) return;
    const std::string field = seg.substr(open + 1, seg.size() - open - 2);
    for (std::size_t e = 0; e < child.size(); ++e) {
        const nlohmann::json& el = child[e];
        const bool named = el.is_object() && el.contains(field);
        where.push_back(named
                            ? fmt::format("{}={}", field,
                                          el.at(field).is_string() ? el.at(field).get<std::string>()
                                                                   : el.at(field).dump())
                            : fmt::format("#{}", e));
        resolveFrom(el, segments, i + 1, where, out);
        where.pop_back();
    }
}

std::vector<Instance> resolvePath(const nlohmann::json& base, std::string_view path) {
    std::vector<Instance> out;
    std::vector<std::string> where;
    resolveFrom(base, splitOn(path, '.'), 0, where, out);
    return out;
}

/// A path, or the ratio `a/b` of two paths paired by their labels.
std::vector<Instance> resolveFigure(const nlohmann::json& base, std::string_view path) {
    const std::size_t slash = path.find('/');
    if (slash == std::string_view::npos) return resolvePath(base, path);
    std::vector<Instance> out;
    const std::vector<Instance> below = resolvePath(base, path.substr(slash + 1));
    for (Instance& a : resolvePath(base, path.substr(0, slash))) {
        const auto b = std::find_if(below.begin(), below.end(),
                                    [&](const Instance& x) { return x.where == a.where; });
        if (b == below.end()) continue;
        const bool measurable =
            a.value.is_number() && b->value.is_number() && b->value.get<double>() != 0;
        out.push_back({a.where, measurable
                                    ? nlohmann::json(a.value.get<double>() / b->value.get<double>())
                                    : nlohmann::json(nullptr)});
    }
    return out;
}

/// Per backend when the result has backends that hold the figure, else the top level.
std::vector<Instance> instancesOf(const nlohmann::json& result, std::string_view path) {
    std::vector<Instance> out;
    if (result.contains("backends") && result.at("backends").is_object())
        for (const auto& [backend, obj] : result.at("backends").items())
            for (Instance& i : resolveFigure(obj, path)) {
                i.where.insert(i.where.begin(), backend);
                out.push_back(std::move(i));
            }
    return out.empty() ? resolveFigure(result, path) : out;
}

bool selected(const std::vector<std::string>& selector, const std::vector<std::string>& where) {
    return std::all_of(selector.begin(), selector.end(), [&](const std::string& s) {
        return std::any_of(where.begin(), where.end(),
                           [&](const std::string& w) { return selects(s, w); });
    });
}

bool holds(CheckOp op, double v, double t) {
    switch (op) {
        case CheckOp::Less:
            return v < t;
        case CheckOp::LessEqual:
            return v <= t;
        case CheckOp::Greater:
            return v > t;
        case CheckOp::GreaterEqual:
            return v >= t;
        case CheckOp::Equal:
            return v == t;
        case CheckOp::NotEqual:
            return v != t;
    }
    return false;
}

std::string joined(const std::vector<std::string>& parts, std::string_view sep) {
    std::string s;
    for (const std::string& p : parts)
        s += (s.empty() ? "" : std::string(sep)) + p;
    return s;
}

/// The threshold of `check` at `where` in base units: its own, or F × the baseline's.
std::optional<double> thresholdAt(const Check& check, const std::vector<std::string>& where,
                                  const nlohmann::json& baseline, CheckRow& row) {
    if (!check.relative) return check.threshold;
    for (const Instance& b : instancesOf(baseline, check.path))
        if (b.where == where && b.value.is_number()) {
            row.baseline = b.value.get<double>();
            return check.threshold * *row.baseline * check.metric->toBase;
        }
    return std::nullopt;
}

/// A JSON value of the check's figure with its unit, in % when the condition is.
std::string valueText(const Check& check, double v) {
    if (check.inPercent && std::isfinite(v)) return formatSignificant(100 * v, 3) + " %";
    return MetricCatalogue::format(*check.metric, v);
}

void addRows(const Check& check, const nlohmann::json& result, const nlohmann::json& baseline,
             std::vector<CheckRow>& rows) {
    bool any = false;
    for (const Instance& i : instancesOf(result, check.path)) {
        if (!selected(check.selector, i.where)) continue;
        any = true;
        CheckRow row{check.text, joined(i.where, "/"),      std::nullopt, std::nullopt,
                     "n/a",      CheckRow::Outcome::Missing};
        const std::optional<double> threshold = thresholdAt(check, i.where, baseline, row);
        if (i.value.is_number()) {
            const double v = i.value.get<double>();
            row.value = v;
            row.valueText = valueText(check, v);
            if (threshold)
                row.outcome = holds(check.op, v * check.metric->toBase, *threshold)
                                  ? CheckRow::Outcome::Pass
                                  : CheckRow::Outcome::Fail;
        }
        if (check.relative)
            row.valueText += fmt::format(" (baseline {})",
                                         row.baseline ? valueText(check, *row.baseline) : "n/a");
        rows.push_back(std::move(row));
    }
    if (!any)
        rows.push_back(
            {check.text,
             check.selector.empty() ? "" : fmt::format("[{}]", joined(check.selector, "/")),
             std::nullopt, std::nullopt, "not in the result", CheckRow::Outcome::Missing});
}

}  // namespace

bool selects(std::string_view part, std::string_view label) {
    const std::size_t eq = label.find('=');
    return label == part || (eq != std::string_view::npos && label.substr(eq + 1) == part);
}

std::string_view busyPolicyName(BusyPolicy p) {
    switch (p) {
        case BusyPolicy::Fail:
            return "fail";
        case BusyPolicy::Pass:
            return "pass";
        case BusyPolicy::Warn:
            return "warn";
    }
    return "warn";
}

std::string_view outcomeName(CheckRow::Outcome o) {
    switch (o) {
        case CheckRow::Outcome::Pass:
            return "pass";
        case CheckRow::Outcome::Fail:
            return "FAIL";
        case CheckRow::Outcome::Missing:
            return "FAIL (n/a)";
    }
    return "FAIL (n/a)";
}

CheckReport evaluateChecks(const std::vector<Check>& checks, const nlohmann::json& result,
                           std::string busyNote, BusyPolicy policy,
                           const nlohmann::json& baseline) {
    CheckReport report;
    report.busyNote = std::move(busyNote);
    report.policy = policy;
    for (const Check& c : checks)
        addRows(c, result, baseline, report.rows);
    return report;
}

std::size_t CheckReport::failures() const {
    return static_cast<std::size_t>(std::count_if(rows.begin(), rows.end(), [](const CheckRow& r) {
        return r.outcome != CheckRow::Outcome::Pass;
    }));
}

bool CheckReport::failed() const {
    if (busyNote.empty() || policy == BusyPolicy::Warn) return failures() > 0;
    return policy == BusyPolicy::Fail;
}

nlohmann::json CheckReport::json() const {
    nlohmann::json conditions = nlohmann::json::array();
    for (const CheckRow& r : rows)
        conditions.push_back(
            {{"condition", r.condition},
             {"where", r.where},
             {"value", r.value ? nlohmann::json(*r.value) : nlohmann::json()},
             {"value_text", r.valueText},
             {"baseline", r.baseline ? nlohmann::json(*r.baseline) : nlohmann::json()},
             {"outcome", r.outcome == CheckRow::Outcome::Pass   ? "pass"
                         : r.outcome == CheckRow::Outcome::Fail ? "fail"
                                                                : "missing"}});
    return {{"passed", !failed()},       {"failures", failures()},
            {"busy", !busyNote.empty()}, {"busy_policy", busyPolicyName(policy)},
            {"busy_note", busyNote},     {"conditions", conditions}};
}

std::vector<std::string> CheckReport::lines() const {
    std::size_t wc = 9, ww = 5, wv = 5;
    for (const CheckRow& r : rows) {
        wc = std::max(wc, r.condition.size());
        ww = std::max(ww, r.where.size());
        wv = std::max(wv, r.valueText.size());
    }
    std::vector<std::string> out{"Checks:"};
    out.push_back(
        fmt::format("  {:<{}}  {:<{}}  {:<{}}  result", "condition", wc, "where", ww, "value", wv));
    for (const CheckRow& r : rows)
        out.push_back(fmt::format("  {:<{}}  {:<{}}  {:<{}}  {}", r.condition, wc, r.where, ww,
                                  r.valueText, wv, outcomeName(r.outcome)));
    if (!busyNote.empty())
        out.push_back(fmt::format("  the machine was busy ({}); --check-busy={}: {}", busyNote,
                                  busyPolicyName(policy),
                                  policy == BusyPolicy::Fail ? "the checks fail whatever the values"
                                  : policy == BusyPolicy::Pass ? "failed checks do not fail the run"
                                                               : "the outcomes stand as measured"));
    out.push_back(fmt::format("Checks: {} of {} {} ({})", failures(), rows.size(),
                              failures() == 1 ? "fails" : "fail", failed() ? "exit 4" : "passed"));
    return out;
}

}  // namespace pullsched::rig
