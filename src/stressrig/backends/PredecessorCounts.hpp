#pragma once
// The dependency tracking of the backends that bring none of their own (the pool, Asio):
// per node, how many of its predecessors have not ended in the current run.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "pullsched/testchain/TestChainGraph.hpp"

namespace pullsched::rig {

class PredecessorCounts {
  public:
    /// Untimed: each node's number of predecessors, kept for the runs of `graph`.
    void prepare(const testchain::TestChainGraph& graph) {
        const std::size_t n = graph.size();
        initial_.resize(n);
        for (std::size_t i = 0; i < n; ++i)
            initial_[i] = static_cast<std::uint32_t>(graph.node(i).predecessors().size());
        pending_ = std::make_unique<std::atomic<std::uint32_t>[]>(n);
    }

    /// Every count back to its start for a new run. Part of the timed run, as building its
    /// graph is for a peer that has one (it writes one counter per node).
    void reset() noexcept {
        for (std::size_t i = 0; i < initial_.size(); ++i)
            pending_[i].store(initial_[i], std::memory_order_relaxed);
    }

    /// Calls `ready(node)` for every node without predecessors, in index order.
    template <class Ready>
    void forEachRoot(Ready&& ready) const {
        for (std::size_t i = 0; i < initial_.size(); ++i)
            if (initial_[i] == 0) ready(static_cast<std::uint32_t>(i));
    }

    /// `node` of `graph` (the graph given to prepare()) ended: calls `ready(s)` for each
    /// successor whose last unfinished predecessor it was. Thread-safe for distinct nodes;
    /// the acquire-release count orders every predecessor's job before the successor's.
    template <class Ready>
    void ended(const testchain::TestChainGraph& graph, std::uint32_t node, Ready&& ready) {
        for (const std::uint32_t s : graph.node(node).successors())
            if (pending_[s].fetch_sub(1, std::memory_order_acq_rel) == 1) ready(s);
    }

  private:
    std::vector<std::uint32_t> initial_;
    std::unique_ptr<std::atomic<std::uint32_t>[]> pending_;
};

}  // namespace pullsched::rig
