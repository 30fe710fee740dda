#pragma once
// The body every rig job executes: the calibrated computational load, calibrated once
// per run (with the per-machine cache), and its calibration for the result.

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "pullsched/testchain/ComputationalLoad.hpp"

namespace pullsched::rig {

class Progress;

class JobBody {
  public:
    /// kind: "cpu" or "memory". Calibrates now; the outcome goes to `progress`.
    JobBody(std::string_view kind, Progress* progress = nullptr);

    const testchain::ComputationalLoad& load() const noexcept { return load_; }
    /// "speed 726.2/us, error 4.05 %, cached (re-checked)".
    std::string text() const;
    /// { "kind", "speed_per_us", "error_percent", "cached", "samples",
    ///   "slower_at_check_percent" }.
    nlohmann::json json() const;

  private:
    std::string kind_;
    testchain::ComputationalLoad load_;
};

}  // namespace pullsched::rig
