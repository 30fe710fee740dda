#include "pullsched/testchain/DotWriter.hpp"

#include <fmt/format.h>

#include <ostream>
#include <sstream>

namespace pullsched::testchain {

std::string DotWriter::label(const TestChainGraph& g, std::size_t id) {
    const Node& n = g.node(id);
    std::string l = fmt::format("{}: {:02X}", id, n.hash & 0xFF);
    if (n.weight != 0) l += fmt::format(".{}", n.weight);
    return l;
}

std::string DotWriter::style(const TestChainGraph& g, std::size_t id) {
    const Node& n = g.node(id);
    if (id == 0) return ", shape=doublecircle";
    if (n.isStart()) return ", shape=circle";
    if (n.isExit()) return ", shape=box, style=rounded";
    return "";
}

void DotWriter::write(std::ostream& os, const TestChainGraph& g, const StopPredicate& stop) {
    std::string out = "digraph {\n  // Nodes\n";
    for (std::size_t i = 0; i < g.size(); ++i) {
        pollStop(stop, i);
        out += fmt::format("  N{}[label=\"{}\"{} ]\n", i, label(g, i), style(g, i));
    }

    out += "\n  // Layers\n";
    std::string line;
    std::size_t level = 0;
    bool open = false;
    auto closeLine = [&] {
        if (open) out += line + " }\n";
        open = false;
    };
    for (std::size_t i = 0; i < g.size(); ++i) {
        pollStop(stop, i);
        const std::size_t l = g.node(i).level;
        if (!open || l != level) {
            closeLine();
            level = l;
            line = fmt::format("  {{ /*{}*/ rank={}", l, l == 0 ? "min " : "same");
            open = true;
        }
        line += fmt::format(" N{}", i);
    }
    closeLine();

    out += "\n  // Topology\n";
    for (std::size_t i = 0; i < g.size(); ++i) {
        pollStop(stop, i);
        for (std::uint32_t s : g.node(i).successors())
            out += fmt::format("  N{} -> N{}\n", i, s);
    }
    out += "}\n";
    os << out;  // only now: a stopped write leaves `os` as it was
}

std::string DotWriter::toString(const TestChainGraph& g, const StopPredicate& stop) {
    std::ostringstream os;
    write(os, g, stop);
    return os.str();
}

}  // namespace pullsched::testchain
