#pragma once
// How long a weight unit of job work really took, over the jobs of many runs.

#include <cstddef>
#include <optional>

#include "pullsched/scheduler/Time.hpp"
#include "pullsched/testchain/RunResult.hpp"

namespace pullsched::rig {

/// Σ run time / Σ weight of every job that ran with a weight above 0. The job bodies are
/// calibrated once, at the start; on a machine whose load changes they then run shorter or
/// longer than planned, and every figure judged against the plan moves with them. This
/// says by how much.
class JobTimePerUnit {
  public:
    void add(const testchain::RunResult& run) noexcept;
    /// The mean time of one weight unit; nullopt before any weighted job ran.
    std::optional<Duration> perUnit() const noexcept;
    /// perUnit / planned − 1 (+0.05: the jobs took 5 % longer); nullopt before any job.
    std::optional<double> driftFrom(Duration planned) const noexcept;
    std::size_t jobs() const noexcept { return jobs_; }

  private:
    Duration time_{0};
    std::size_t weight_ = 0;
    std::size_t jobs_ = 0;
};

}  // namespace pullsched::rig
