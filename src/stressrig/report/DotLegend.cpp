#include "report/DotLegend.hpp"

#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "report/DoubleQuoted.hpp"

namespace pullsched::rig {
namespace {

std::string borderOf(const std::string& state) {
    if (state == "expired") return "#c62828";
    if (state == "cancelled") return "#455a64";
    if (state == "failed") return "#6a1b9a";
    return "#616161";
}

}  // namespace

std::string DotLegend::fillOf(const std::string& state) {
    if (state == "expired") return "#ef9a9a";
    if (state == "cancelled") return "#cfd8dc";
    if (state == "failed") return "#ce93d8";
    if (state == "completed" || state.empty()) return "";
    return "#fff59d";  // not posted, unfinished
}

std::string DotLegend::decorate(const std::string& dot, const std::string& title,
                                const std::map<std::size_t, std::string>& states,
                                const testchain::StopPredicate& stop) {
    const std::size_t close = dot.rfind('}');
    if (close == std::string::npos || dot.find("digraph") == std::string::npos)
        throw std::invalid_argument("DotLegend: not a digraph");
    std::string add = "\n  // Run states (a node redeclared keeps its label and shape)\n";
    std::set<std::string> seen;
    std::size_t item = 0;
    for (const auto& [node, state] : states) {
        testchain::pollStop(stop, item++);
        const std::string fill = fillOf(state);
        if (fill.empty()) continue;
        seen.insert(state);
        add += fmt::format(
            "  N{} [style=\"rounded,filled{}\", fillcolor=\"{}\", color=\"{}\", penwidth=2]\n",
            node, state == "cancelled" ? ",dashed" : "", fill, borderOf(state));
    }
    add += "\n  // Legend\n";
    add += "  subgraph cluster_legend {\n";
    add += "    label=\"legend\"; fontsize=10; style=dashed; color=\"#9e9e9e\";\n";
    add +=
        "    legend [shape=plaintext, fontsize=10, label=<<table border=\"0\" "
        "cellborder=\"1\" cellspacing=\"0\" cellpadding=\"3\">\n";
    auto row = [&](const std::string& key, const std::string& text, const std::string& bg = "") {
        add += fmt::format("      <tr><td{}>{}</td><td align=\"left\">{}</td></tr>\n",
                           bg.empty() ? "" : fmt::format(" bgcolor=\"{}\"", bg), key, text);
    };
    row("<b>2: 95.2</b>",
        "node 2; 95 = low byte of its hash (hex); .2 = its weight (no dot: weight 0)");
    row("double circle", "node 0, where the graph begins");
    row("circle / rounded box", "start node (no predecessor) / exit node (no successor)");
    row("arrow", "dependency: the successor may start once every predecessor ended");
    for (const std::string& s : seen)
        row(s,
            s == "expired"     ? "never started: its life window passed"
            : s == "cancelled" ? "never started: cancelled after a predecessor expired"
            : s == "failed"    ? "its body threw"
                               : "did not complete",
            fillOf(s));
    row("white", states.empty() ? "the graph only: no run shown" : "completed");
    add += "    </table>> ]\n  }\n";
    add += fmt::format("  labelloc=\"t\"; fontsize=14; label={};\n", doubleQuoted(title));
    std::string out = dot.substr(0, close);
    out += add;
    out += dot.substr(close);
    return out;
}

}  // namespace pullsched::rig
