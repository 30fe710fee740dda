#include "report/FigureTable.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "report/HtmlPage.hpp"
#include "report/MetricCatalogue.hpp"

namespace pullsched::rig {

namespace {

struct FigureRow {
    const Metric* metric;
    std::string qualifier;
    std::string path;
    nlohmann::json value;
};

void collect(const nlohmann::json& v, const std::string& path, std::vector<FigureRow>& rows) {
    if (v.is_object()) {
        for (const auto& [k, x] : v.items())
            collect(x, path.empty() ? k : path + "." + k, rows);
        return;
    }
    if (!v.is_number() && !v.is_null()) return;
    std::string qualifier;
    if (const Metric* m = MetricCatalogue::forPath(path, qualifier))
        rows.push_back({m, qualifier, path, v});
}

/// "backends.pullsched" → "pullsched"; "ideal.jobs_as_planned" stays as it is.
std::string readableQualifier(const std::string& q) {
    std::string s = q.rfind("backends.", 0) == 0 ? q.substr(9) : q;
    for (char& c : s)
        if (c == '.') c = ' ';
    return s;
}

std::string_view betterText(Better b) {
    switch (b) {
        case Better::Lower:
            return "&darr; lower";
        case Better::Higher:
            return "&uarr; higher";
        case Better::Neither:
            return "";
    }
    return "";
}

/// Catalogue order (headline figures first), the top level before its qualified rows.
/// With a single backend its rows repeat the top level's and are left out.
std::vector<FigureRow> orderedRows(const nlohmann::json& result) {
    std::vector<FigureRow> rows;
    collect(result, "", rows);
    const bool oneBackend = result.contains("backends") && result.at("backends").is_object() &&
                            result.at("backends").size() == 1;
    auto repeated = [&](const FigureRow& r) {
        return oneBackend && r.qualifier.rfind("backends.", 0) == 0 &&
               r.qualifier.find('.', 9) == std::string::npos &&
               std::any_of(rows.begin(), rows.end(), [&](const FigureRow& top) {
                   return top.metric == r.metric && top.qualifier.empty() && top.value == r.value;
               });
    };
    rows.erase(std::remove_if(rows.begin(), rows.end(), repeated), rows.end());
    const auto all = MetricCatalogue::all();
    std::stable_sort(rows.begin(), rows.end(), [&](const FigureRow& a, const FigureRow& b) {
        return a.metric != b.metric ? a.metric - all.data() < b.metric - all.data()
                                    : a.qualifier < b.qualifier;
    });
    return rows;
}

}  // namespace

std::string FigureTable::figures(const nlohmann::json& result) {
    const std::vector<FigureRow> rows = orderedRows(result);
    if (rows.empty()) return {};
    std::string s =
        "<table class=\"figures\">\n<tr><th>figure</th><th>value</th><th>better</th>"
        "<th>meaning</th><th>JSON key</th></tr>\n";
    for (const FigureRow& r : rows) {
        const std::string q = readableQualifier(r.qualifier);
        const std::string label =
            std::string(r.metric->label) + (q.empty() ? "" : fmt::format(" ({})", q));
        const std::string value =
            r.value.is_number() ? MetricCatalogue::format(*r.metric, r.value.get<double>()) : "n/a";
        s += fmt::format(
            "<tr><th>{}</th><td class=\"num\">{}</td><td style=\"white-space: "
            "nowrap\">{}</td><td>{}</td><td><code>{}</code>"
            "</td></tr>\n",
            HtmlPage::escape(label), HtmlPage::escape(value), betterText(r.metric->better),
            HtmlPage::escape(r.metric->meaning), HtmlPage::escape(r.path));
    }
    return s + "</table>\n";
}

std::string FigureTable::checks(const nlohmann::json& checks) {
    if (!checks.is_object() || !checks.contains("conditions")) return {};
    const bool passed = checks.value("passed", false);
    std::string s = fmt::format(
        "<h2>Checks</h2>\n<p class=\"sub\">{}: {} of {} conditions failed or had no value."
        "</p>\n",
        passed ? "Passed" : "Failed (exit 4)", checks.value("failures", 0),
        checks["conditions"].size());
    if (checks.value("busy", false))
        s += fmt::format("<p class=\"missing\">The machine was busy ({}); --check-busy={}.</p>\n",
                         HtmlPage::escape(checks.value("busy_note", "")),
                         HtmlPage::escape(checks.value("busy_policy", "")));
    s += "<table>\n<tr><th>condition</th><th>where</th><th>value</th><th>result</th></tr>\n";
    for (const auto& c : checks["conditions"]) {
        const std::string outcome = c.value("outcome", "");
        s += fmt::format(
            "<tr><td><code>{}</code></td><td>{}</td><td class=\"num\">{}</td><td>{}</td></tr>\n",
            HtmlPage::escape(c.value("condition", "")), HtmlPage::escape(c.value("where", "")),
            HtmlPage::escape(c.value("value_text", "")),
            outcome == "pass" ? "pass" : "<strong>" + HtmlPage::escape(outcome) + "</strong>");
    }
    return s + "</table>\n";
}

}  // namespace pullsched::rig
