#include "measure/JobTimePerUnit.hpp"

namespace pullsched::rig {

void JobTimePerUnit::add(const testchain::RunResult& run) noexcept {
    for (const testchain::JobTiming& j : run.jobs) {
        if (j.weight == 0 || !j.ran()) continue;
        time_ += j.runTime();
        weight_ += j.weight;
        ++jobs_;
    }
}

std::optional<Duration> JobTimePerUnit::perUnit() const noexcept {
    if (weight_ == 0) return std::nullopt;
    return time_ / static_cast<Duration::rep>(weight_);
}

std::optional<double> JobTimePerUnit::driftFrom(Duration planned) const noexcept {
    const std::optional<Duration> unit = perUnit();
    if (!unit || planned.count() <= 0) return std::nullopt;
    return static_cast<double>(unit->count()) / static_cast<double>(planned.count()) - 1.0;
}

}  // namespace pullsched::rig
