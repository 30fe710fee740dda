#pragma once
// The rig's measured job: what it records per executed job, beyond the reference's
// enter/leave brackets (the scheduler's own JobRecord is its pooled job state, not this).

#include <chrono>
#include <cstdint>
#include <string>

namespace pullsched::rig {

/// One executed job: when it was meant to start, when it did, and when it ended, so
/// that lateness and deadline misses are reported per job and the timeline can be
/// exported (ChromeTrace).
struct MeasuredJob {
    using TimePoint = std::chrono::steady_clock::time_point;

    unsigned worker = 0;  ///< worker (thread slot) that ran it
    std::string name;     ///< tag, e.g. "node 17" or the job kind
    TimePoint scheduledStart{};
    TimePoint actualStart{};
    TimePoint end{};
    std::uint64_t id = 0;  ///< e.g. node index; exported as an argument

    /// actual − scheduled start; negative when the job started early.
    std::chrono::nanoseconds lateness() const noexcept { return actualStart - scheduledStart; }
    std::chrono::nanoseconds runTime() const noexcept { return end - actualStart; }
};

}  // namespace pullsched::rig
