#pragma once

#include <cstddef>
#include <vector>

#include "pullsched/testchain/Duration.hpp"
#include "pullsched/testchain/TestChainGraph.hpp"
#include "pullsched/testchain/WeightPolicy.hpp"

namespace pullsched::testchain {

/// Nodes and work of one level (consecutive nodes with the same level number).
struct LevelWeight {
    std::size_t level = 0;
    std::size_t nodes = 0;
    std::size_t weight = 0;  ///< Σ effective weight
};

/// Pure schedule math (spec §7): when each level and each node of a graph is due.
/// Times are offsets from the schedule anchor. Holds no reference to the graph.
class LevelSchedule {
  public:
    static constexpr Duration kDefaultLevelDuration = std::chrono::milliseconds{1};
    static constexpr Duration kDefaultLifeWindow = std::chrono::milliseconds{30};

    /// Starts with the default schedule (level l at l × 1 ms), no expense, 30 ms window.
    explicit LevelSchedule(const TestChainGraph& graph, WeightPolicy policy = WeightPolicy::Raw);

    /// nodes / ceil(nodes / concurrency): how much a level can be sped up (1 if empty).
    static double speedUp(std::size_t nodes, std::size_t concurrency) noexcept;
    /// Σweight / speedUp: level time in timeBase units with `concurrency` workers.
    static double levelFactor(const LevelWeight& lw, std::size_t concurrency) noexcept;

    const std::vector<LevelWeight>& levelWeights() const noexcept { return levels_; }
    /// Running sum of the level factors (entry l includes level l).
    std::vector<double> sequence(std::size_t concurrency) const;

    /// Level l starts at l × levelDuration (stress 1).
    LevelSchedule& useDefault(Duration levelDuration = kDefaultLevelDuration);
    /// point[0] = 0, point[l+1] = sequence(c)[l] / stress × timeBase. stress must be > 0.
    LevelSchedule& adapt(double stress, std::size_t concurrency, Duration timeBase);
    LevelSchedule& baseExpense(Duration perNode);  ///< start offset per node index
    LevelSchedule& lifeWindow(Duration window);    ///< deadline = start + window

    /// levels + 1 points: start of each level, last = end of the last level.
    const std::vector<Duration>& points() const noexcept { return points_; }
    Duration levelStart(std::size_t level) const { return points_.at(level); }
    /// point[level] + baseExpense × index / stress.
    Duration nodeStart(std::size_t index) const;
    Duration nodeDeadline(std::size_t index) const { return nodeStart(index) + lifeWindow_; }
    /// last point − first point + baseExpense × N / stress.
    Duration expectedEnd() const;
    double stress() const noexcept { return stress_; }
    std::size_t size() const noexcept { return nodeLevel_.size(); }

  private:
    std::vector<LevelWeight> levels_;
    std::vector<std::size_t> nodeLevel_;
    std::vector<Duration> points_;
    double stress_ = 1.0;
    Duration baseExpense_{0};
    Duration lifeWindow_ = kDefaultLifeWindow;
};

}  // namespace pullsched::testchain
