#pragma once

#include <iosfwd>
#include <string>

#include "pullsched/testchain/StopCheck.hpp"
#include "pullsched/testchain/TestChainGraph.hpp"

namespace pullsched::testchain {

/// Graphviz rendering of a graph in the published TestChainLoad layout (spec §5), line
/// for line, so our Topo-10/20/21 files can be diffed against the reference ones.
class DotWriter {
  public:
    /// Node label "<id>: <HH>[.<weight>]" (HH = low hash byte, upper-case hex).
    static std::string label(const TestChainGraph& g, std::size_t id);
    /// Style suffix ", shape=…" (node 0 doublecircle, starts circle, exits box rounded).
    static std::string style(const TestChainGraph& g, std::size_t id);

    /// `stop` is polled every kStopPollItems nodes: a graph of millions of nodes makes a
    /// DOT text of hundreds of MB. Stopped is thrown when it asks, with nothing written.
    static void write(std::ostream& os, const TestChainGraph& g, const StopPredicate& stop = {});
    static std::string toString(const TestChainGraph& g, const StopPredicate& stop = {});
};

}  // namespace pullsched::testchain
