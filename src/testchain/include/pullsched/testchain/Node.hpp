#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "pullsched/testchain/FanList.hpp"
#include "pullsched/testchain/HashCombine.hpp"

namespace pullsched::testchain {

/// Node kinds used by statistics and DOT styling (spec §1).
enum class NodeKind { Start, Exit, Inner, Fork, Join, Link, Knot };

/// One job of a TestChainGraph; its id is its index in the graph.
/// Links are indices (not pointers) so that graphs can be copied freely.
/// Links are only made through TestChainGraph, which keeps both directions in sync.
class Node {
  public:
    std::uint64_t hash = 0;
    std::size_t level = 0;
    std::size_t weight = 0;

    const FanList& predecessors() const noexcept { return pred_; }
    const FanList& successors() const noexcept { return succ_; }

    bool isStart() const noexcept { return pred_.empty(); }
    bool isExit() const noexcept { return succ_.empty(); }
    bool isInner() const noexcept { return !isStart() && !isExit(); }
    bool isFork() const noexcept { return succ_.size() > 1; }
    bool isJoin() const noexcept { return pred_.size() > 1; }
    bool isLink() const noexcept { return pred_.size() == 1 && succ_.size() == 1; }
    bool isKnot() const noexcept { return isFork() && isJoin(); }

    bool is(NodeKind kind) const noexcept {
        switch (kind) {
            case NodeKind::Start:
                return isStart();
            case NodeKind::Exit:
                return isExit();
            case NodeKind::Inner:
                return isInner();
            case NodeKind::Fork:
                return isFork();
            case NodeKind::Join:
                return isJoin();
            case NodeKind::Link:
                return isLink();
            case NodeKind::Knot:
                return isKnot();
        }
        return false;
    }

    /// Folds the predecessors' hashes into this node, in list order. Deliberately not
    /// idempotent: a job run twice or with a missing/reordered input gives another hash.
    void calculate(std::span<const Node> graph) noexcept {
        for (std::uint32_t p : pred_)
            hash = hashCombine(hash, graph[p].hash);
    }

  private:
    friend class TestChainGraph;

    /// Back to an unlinked node (the generator re-uses the node array on every build).
    void reset(std::uint64_t seed, std::size_t lvl) noexcept {
        hash = seed;
        level = lvl;
        weight = 0;
        pred_.clear();
        succ_.clear();
    }

    FanList pred_;
    FanList succ_;
};

}  // namespace pullsched::testchain
