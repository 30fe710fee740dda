#include "load/JobBody.hpp"

#include <fmt/format.h>

#include "load/Progress.hpp"
#include "pullsched/testchain/CalibrationCache.hpp"

namespace pullsched::rig {

using testchain::ComputationalLoad;

JobBody::JobBody(std::string_view kind, Progress* progress)
    : kind_(kind),
      load_(kind == "memory" ? ComputationalLoad::Mode::Memory : ComputationalLoad::Mode::Cpu) {
    load_.calibrate(testchain::CalibrationCache::fromEnvironment());
    if (progress) progress->note(fmt::format("calibrated {} load: {}", kind_, text()));
}

std::string JobBody::text() const {
    const testchain::Calibration& c = load_.calibration();
    std::string text = fmt::format(
        "speed {:.4g}/us, error {:.2f} %, {}", c.speed, c.errorPercent,
        c.fromCache ? "cached (re-checked)" : fmt::format("fresh ({} samples)", c.samples));
    if (c.slowerAtCheckPercent > 0.0)
        text += fmt::format(", the CPU {:.0f} % slower at the re-check", c.slowerAtCheckPercent);
    return text;
}

nlohmann::json JobBody::json() const {
    const testchain::Calibration& c = load_.calibration();
    return {{"kind", kind_},
            {"speed_per_us", c.speed},
            {"error_percent", c.errorPercent},
            {"cached", c.fromCache},
            {"samples", c.samples},
            {"slower_at_check_percent", c.slowerAtCheckPercent}};
}

}  // namespace pullsched::rig
