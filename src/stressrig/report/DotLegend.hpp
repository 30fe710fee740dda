#pragma once
// Makes the Graphviz picture of a graph readable on its own: a title, a legend for the
// node labels and shapes, and the nodes that did not complete in a run marked.

#include <cstddef>
#include <map>
#include <string>

#include "pullsched/testchain/StopCheck.hpp"

namespace pullsched::rig {

class DotLegend {
  public:
    /// `dot`: a `digraph { ... }` as DotWriter writes it (nodes named N<id>).
    /// `title`: lines separated by '\n'. `states`: final state per node of the run
    /// shown ("expired", "cancelled", "failed", ...); completed nodes need no entry.
    /// Returns the graph with the title, a legend cluster and, per listed node, a
    /// fill colour and border for its state; the legend lists the states that occur.
    /// `stop` is polled every testchain::kStopPollItems states (testchain::Stopped).
    static std::string decorate(const std::string& dot, const std::string& title,
                                const std::map<std::size_t, std::string>& states = {},
                                const testchain::StopPredicate& stop = {});
    /// Fill colour of a state in the picture ("" for states left unmarked).
    static std::string fillOf(const std::string& state);
};

}  // namespace pullsched::rig
