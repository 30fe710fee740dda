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

std::optional<testchain::Duration> JobTimePerUnit::perUnit() const noexcept {
    if (weight_ == 0) return std::nullopt;
    return time_ / static_cast<testchain::Duration::rep>(weight_);
}

}  // namespace pullsched::rig
