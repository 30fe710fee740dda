#include "pullsched/testchain/LevelSchedule.hpp"

#include <cmath>
#include <stdexcept>

namespace pullsched::testchain {

namespace {

Duration scaled(Duration d, double factor) {
    return Duration{
        static_cast<Duration::rep>(std::llround(static_cast<double>(d.count()) * factor))};
}

}  // namespace

LevelSchedule::LevelSchedule(const TestChainGraph& graph, WeightPolicy policy) {
    nodeLevel_.reserve(graph.size());
    for (const Node& n : graph.nodes()) {
        if (!levels_.empty() && n.level < levels_.back().level)
            throw std::invalid_argument("LevelSchedule: node levels must not decrease by index");
        if (levels_.empty() || levels_.back().level != n.level) levels_.push_back({n.level, 0, 0});
        ++levels_.back().nodes;
        levels_.back().weight += effectiveWeight(n.weight, policy);
        nodeLevel_.push_back(n.level);
    }
    useDefault();
}

double LevelSchedule::speedUp(std::size_t nodes, std::size_t concurrency) noexcept {
    if (nodes == 0 || concurrency == 0) return 1.0;
    const std::size_t rounds = (nodes + concurrency - 1) / concurrency;
    return static_cast<double>(nodes) / static_cast<double>(rounds);
}

double LevelSchedule::levelFactor(const LevelWeight& lw, std::size_t concurrency) noexcept {
    return static_cast<double>(lw.weight) / speedUp(lw.nodes, concurrency);
}

std::vector<double> LevelSchedule::sequence(std::size_t concurrency) const {
    std::vector<double> seq;
    seq.reserve(levels_.size());
    double sum = 0;
    for (const auto& lw : levels_) {
        sum += levelFactor(lw, concurrency);
        seq.push_back(sum);
    }
    return seq;
}

LevelSchedule& LevelSchedule::useDefault(Duration levelDuration) {
    stress_ = 1.0;
    const std::size_t top = levels_.empty() ? 0 : levels_.back().level + 1;
    points_.resize(top + 1);
    for (std::size_t l = 0; l <= top; ++l)
        points_[l] = levelDuration * static_cast<Duration::rep>(l);
    return *this;
}

LevelSchedule& LevelSchedule::adapt(double stress, std::size_t concurrency, Duration timeBase) {
    if (!(stress > 0.0)) throw std::invalid_argument("LevelSchedule: stress must be > 0");
    if (concurrency == 0) throw std::invalid_argument("LevelSchedule: concurrency must be > 0");
    stress_ = stress;
    const auto seq = sequence(concurrency);
    // Levels are indexed by level number; the builder numbers them without gaps.
    const std::size_t top = levels_.empty() ? 0 : levels_.back().level + 1;
    points_.assign(top + 1, Duration{0});
    double carried = 0;
    std::size_t next = 0;
    for (std::size_t l = 0; l < top; ++l) {
        if (next < levels_.size() && levels_[next].level == l) carried = seq[next++];
        points_[l + 1] = scaled(timeBase, carried / stress);
    }
    return *this;
}

LevelSchedule& LevelSchedule::baseExpense(Duration perNode) {
    baseExpense_ = perNode;
    return *this;
}

LevelSchedule& LevelSchedule::lifeWindow(Duration window) {
    lifeWindow_ = window;
    return *this;
}

Duration LevelSchedule::nodeStart(std::size_t index) const {
    return points_.at(nodeLevel_.at(index)) +
           scaled(baseExpense_, static_cast<double>(index) / stress_);
}

Duration LevelSchedule::expectedEnd() const {
    return points_.back() - points_.front() +
           scaled(baseExpense_, static_cast<double>(nodeLevel_.size()) / stress_);
}

}  // namespace pullsched::testchain
