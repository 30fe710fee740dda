#pragma once

#include <array>
#include <cstddef>
#include <iosfwd>
#include <string_view>
#include <vector>

#include "pullsched/testchain/Duration.hpp"
#include "pullsched/testchain/StopCheck.hpp"
#include "pullsched/testchain/TestChainGraph.hpp"
#include "pullsched/testchain/WeightPolicy.hpp"

namespace pullsched::testchain {

/// Shape statistics of a graph (spec §4) plus the figures a scheduler user needs to
/// judge a run: total work, critical path, width and the makespan lower bound.
class GraphStatistics {
  public:
    /// The nine per-level categories, in table order.
    enum class Category { Node, Seed, Exit, Inner, Fork, Join, Link, Knot, Weight };
    static constexpr std::size_t kCategories = 9;
    static constexpr std::array<std::string_view, kCategories> kCategoryNames{
        "node", "seed", "exit", "innr", "fork", "join", "link", "knot", "wght"};

    /// Figures of one category. Centres of gravity are in [0,1]; 0 when undefined
    /// (no items, a single level, or no sub-level above 0).
    struct Indicator {
        double cnt = 0;   ///< total count (Σ weight for wght)
        double frac = 0;  ///< cnt / nodes
        double pS = 0;    ///< cnt / segments
        double pL = 0;    ///< cnt / levels
        double pLW = 0;   ///< Σ_levels (count / width) / levels
        double gL = 0;    ///< Σ(level·k)/Σk / (levels − 1)
        double gLW = 0;   ///< same with k / width
        double gSL = 0;   ///< Σ(sub·k)/Σk / max sub-level
        double gSLW = 0;  ///< same with k / width
    };

    /// `stop` is polled every kStopPollItems nodes or levels of each pass (a graph of
    /// millions of nodes takes seconds); Stopped is thrown when it asks.
    explicit GraphStatistics(const TestChainGraph& graph, WeightPolicy policy = WeightPolicy::Raw,
                             const StopPredicate& stop = {});

    const Indicator& indicator(Category c) const noexcept {
        return indicators_[static_cast<std::size_t>(c)];
    }
    /// Per-level counts of a category (index = level).
    const std::vector<double>& perLevel(Category c) const noexcept {
        return perLevel_[static_cast<std::size_t>(c)];
    }

    std::size_t nodes() const noexcept { return nodes_; }
    std::size_t levels() const noexcept { return levels_; }
    /// A segment starts at level 0 and at every level of width 1 holding one seed node.
    std::size_t segments() const noexcept { return segments_; }
    std::size_t maxSubLevel() const noexcept { return maxSubLevel_; }  ///< highest sub-level
    double averageSegmentHeight() const noexcept;                      ///< levels / segments
    std::size_t maxWidth() const noexcept { return maxWidth_; }
    std::size_t edges() const noexcept { return edges_; }

    /// Σ weight (weight units) and × timeBase.
    std::size_t totalWeight() const noexcept { return totalWeight_; }
    Duration work(Duration timeBase) const noexcept;
    /// Heaviest path (Σ node weights along a dependency path).
    std::size_t criticalPathWeight() const noexcept { return criticalPath_; }
    Duration criticalPath(Duration timeBase) const noexcept;
    /// No schedule on P workers can finish faster: max(work / P, critical path).
    Duration lowerBound(std::size_t workers, Duration timeBase) const noexcept;

    /// Readable table: categories, LEVL, SEGS, then work figures for timeBase.
    void print(std::ostream& os, Duration timeBase = std::chrono::microseconds{100}) const;

  private:
    std::size_t nodes_ = 0;
    std::size_t levels_ = 0;
    std::size_t segments_ = 0;
    std::size_t maxSubLevel_ = 0;
    std::size_t maxWidth_ = 0;
    std::size_t edges_ = 0;
    std::size_t totalWeight_ = 0;
    std::size_t criticalPath_ = 0;
    std::array<Indicator, kCategories> indicators_{};
    std::array<std::vector<double>, kCategories> perLevel_{};
};

}  // namespace pullsched::testchain
