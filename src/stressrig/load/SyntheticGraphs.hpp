#pragma once
// Hand-made graphs of a known shape, for comparing schedulers on the extremes a generated
// TestChainLoad graph mixes: no dependencies at all, one long dependency chain, and a
// grid (a wavefront whose width grows and shrinks).

#include <cstddef>
#include <cstdint>

#include "pullsched/testchain/TestChainGraph.hpp"

namespace pullsched::rig {

/// Hash of the start nodes of the synthetic graphs (any non-zero value: a zero start
/// hash would make every exit hash 0 and leave the graph hash blind).
inline constexpr std::uint64_t kSyntheticGraphSeed = 0x9E3779B97F4A7C15ull;

/// `nodes` nodes without any edge, all on level 0, each of weight `weight`.
testchain::TestChainGraph isolatedGraph(std::size_t nodes, std::size_t weight = 1);

/// `nodes` nodes in one chain 0 → 1 → … → nodes−1; node i on level i.
testchain::TestChainGraph chainGraph(std::size_t nodes, std::size_t weight = 1);

/// A width × height grid; cell (x, y) depends on its left (x−1, y) and upper (x, y−1)
/// neighbour and sits on level x + y. Nodes are numbered by anti-diagonal (level), within
/// a diagonal by y, so index order is topological and levels never decrease by index.
/// width × height must be > 1.
testchain::TestChainGraph gridGraph(std::size_t width, std::size_t height, std::size_t weight = 1);

}  // namespace pullsched::rig
