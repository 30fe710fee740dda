#pragma once
// Task Bench's dependence patterns (Slaughter et al., SC'20) as test graphs. A shape is
// W points × S timesteps; point x of timestep t depends on points of timestep t−1 that
// the pattern names, clipped to the points active at t−1. docs/granularity.md states
// each pattern's definition; the functions here are those definitions.

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pullsched/testchain/TestChainGraph.hpp"

namespace pullsched::rig {

enum class TaskBenchPattern {
    Trivial,
    NoComm,
    Stencil1d,
    Stencil1dPeriodic,
    Dom,
    Tree,
    Fft,
    AllToAll,
    Nearest,
    Spread,
    RandomNearest,
};

/// Task Bench's default radix of nearest, spread and random_nearest.
inline constexpr std::size_t kTaskBenchDefaultRadix = 3;
/// Timesteps after which spread's and random_nearest's dependencies repeat (Task Bench's
/// default period; spread's is lowered to ⌈W / radix⌉ when that is smaller).
inline constexpr std::size_t kTaskBenchPeriod = 3;
/// Chance that random_nearest keeps a neighbour other than the point itself.
inline constexpr double kRandomNearestFraction = 0.25;
/// Weight of an average job when --imbalance > 0 (1 without): the resolution of the
/// random job sizes is 1/16 of the average.
inline constexpr std::size_t kImbalanceBaseWeight = 16;
/// The largest shape, in nodes.
inline constexpr std::size_t kTaskBenchMaxNodes = 10'000'000;

/// Every pattern's name as Task Bench spells it, in enum order.
std::span<const std::string_view> taskBenchPatternNames();
std::optional<TaskBenchPattern> taskBenchPatternNamed(std::string_view name);
std::string_view nameOf(TaskBenchPattern pattern);

struct TaskBenchShape {
    TaskBenchPattern pattern = TaskBenchPattern::Trivial;
    std::size_t width = 1;  ///< W: points per timestep
    std::size_t steps = 1;  ///< S: timesteps
    std::size_t radix = kTaskBenchDefaultRadix;
    double imbalance = 0;  ///< 0..2: a job's weight is (1 + (u − ½)·imbalance) × base
};

/// The points of a timestep that hold a job: [first, first + count).
struct PointRange {
    std::size_t first = 0, count = 0;
    bool contains(std::size_t x) const { return x >= first && x < first + count; }
};

/// The active points of timestep t (all W but for dom and tree).
PointRange activePoints(const TaskBenchShape& shape, std::size_t t);
/// The points of timestep t−1 that point x of timestep t depends on, ascending, without
/// repeats; none for t = 0.
std::vector<std::size_t> dependencies(const TaskBenchShape& shape, std::size_t t, std::size_t x);
/// The weight of the job at (t, x): 1 without imbalance, else round((1 + (u − ½)·F) ×
/// kImbalanceBaseWeight), at least 1, for a seeded uniform u in [0, 1) drawn per (t, x).
std::size_t jobWeight(const TaskBenchShape& shape, std::size_t t, std::size_t x);
/// Jobs of the shape (sum of the active points over the timesteps).
std::size_t nodeCount(const TaskBenchShape& shape);
/// Why the shape cannot be built (one clause), or empty.
std::string shapeProblem(const TaskBenchShape& shape);
/// "stencil_1d-8x100" ("stencil_1d-8" without the steps, for a shape whose steps follow
/// a node count); with a radix other than the default for a pattern that uses one,
/// "nearest-8x100-r5"; with imbalance, "…-i0.5".
std::string shapeLabel(const TaskBenchShape& shape, bool withSteps = true);

/// `NAME:WxS` (e.g. `stencil_1d:8x100`) with the radix and imbalance given; nullopt when
/// NAME is not a Task Bench pattern. std::invalid_argument naming the problem for a bad
/// size or a shape shapeProblem() refuses.
std::optional<TaskBenchShape> parseTaskBenchShape(std::string_view text, std::size_t radix,
                                                  double imbalance);

/// The shape as a graph: node ids timestep by timestep, within one by point (so index
/// order is topological and levels never decrease), level = timestep, hashes cleared
/// with kSyntheticGraphSeed. std::invalid_argument when shapeProblem() says why not.
testchain::TestChainGraph taskBenchGraph(const TaskBenchShape& shape);

}  // namespace pullsched::rig
