#include "load/ScheduledGraphRun.hpp"

#include <fmt/format.h>

namespace pullsched::rig {

std::string correctnessFailure(const testchain::RunResult& r) {
    if (r.interrupted || r.timedOut) return {};
    if (!r.error.empty()) return r.error;
    if (r.failed > 0) return fmt::format("{} of {} jobs failed", r.failed, r.nodes);
    if (runComplete(r) && !r.hashOk)
        return fmt::format("hash mismatch: got 0x{:016X}, expected 0x{:016X}", r.actualHash,
                           r.expectedHash);
    return {};
}

}  // namespace pullsched::rig
