#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "pullsched/testchain/Duration.hpp"
#include "pullsched/testchain/Node.hpp"
#include "pullsched/testchain/RuleSet.hpp"
#include "pullsched/testchain/StopCheck.hpp"

namespace pullsched::testchain {

class ComputationalLoad;

/// A dependency graph of N jobs generated from rules (spec §3). Nodes are allocated up
/// front; edges always lead from a lower to a higher index, so index order is a
/// topological order and a single pass computes all hashes.
class TestChainGraph {
  public:
    static constexpr std::size_t kDefaultNodes = 256;
    static constexpr std::size_t kDefaultMaxFan = 16;

    /// N unlinked nodes on level 0, hash 0, weight 0. N must be > 1, maxFan 1..16.
    explicit TestChainGraph(std::size_t nodes = kDefaultNodes, std::size_t maxFan = kDefaultMaxFan);

    /// A graph of `nodes` nodes with the rules' maxFan, built from the rules. `stop` is
    /// polled every kStopCheckNodes nodes; Stopped is thrown when it asks.
    static TestChainGraph generate(const RuleSet& rules, std::size_t nodes = kDefaultNodes,
                                   const StopPredicate& stop = {});

    /// Re-generates the topology (spec §3). Uses rules.seed if set, else node 0's hash.
    /// rules.maxFan() must equal maxFan(). The rules are copied: counters restart. `stop`
    /// as for generate().
    TestChainGraph& buildTopology(const RuleSet& rules, const StopPredicate& stop = {});

    /// Nodes generated between two polls of a stop predicate (a few ms of work).
    static constexpr std::size_t kStopCheckNodes = std::size_t{1} << 16;

    TestChainGraph& setSeed(std::uint64_t seed);  ///< node 0's hash = the seed value
    TestChainGraph& setWeight(std::size_t w);     ///< every node gets weight w
    TestChainGraph& clearNodeHashes();            ///< start nodes = seed, others 0
    /// Clear, then calculate in index order; `stop` as for generate().
    TestChainGraph& recalculate(const StopPredicate& stop = {});

    /// Links pred -> succ (appended to both lists). Requires pred < succ (keeps index order
    /// topological); throws std::invalid_argument otherwise or on fan overflow.
    void link(std::size_t pred, std::size_t succ);

    /// Single-threaded reference run: clear hashes, then for each node in index order run
    /// effectiveWeight × timeBase of load and calculate. Returns the graph hash.
    std::uint64_t performGraphSynchronously(Duration timeBase, ComputationalLoad& load,
                                            WeightPolicy policy = WeightPolicy::Raw);

    /// Fold of hashCombine over all exit nodes with non-zero hash, index order, from 0.
    std::uint64_t graphHash() const noexcept;

    std::size_t size() const noexcept { return nodes_.size(); }
    std::size_t maxFan() const noexcept { return maxFan_; }
    std::uint64_t seed() const noexcept { return nodes_[0].hash; }
    const Node& node(std::size_t i) const { return nodes_.at(i); }
    /// Mutable access for hand-made graphs (hash, level, weight); links via link().
    Node& node(std::size_t i) { return nodes_.at(i); }
    std::span<const Node> nodes() const noexcept { return nodes_; }
    /// Number of levels = highest level + 1.
    std::size_t levels() const noexcept;
    std::size_t edgeCount() const noexcept;
    std::size_t count(NodeKind kind) const noexcept;
    std::size_t startCount() const noexcept { return count(NodeKind::Start); }
    std::size_t exitCount() const noexcept { return count(NodeKind::Exit); }
    std::size_t weightSum() const noexcept;
    /// Nodes per level, index = level.
    std::vector<std::size_t> levelWidths() const;

  private:
    std::vector<Node> nodes_;
    std::size_t maxFan_;
};

}  // namespace pullsched::testchain
