#pragma once
// The life cycle of one job.

#include <cstdint>
#include <string_view>

namespace pullsched {

/// Waiting -> Scheduled -> Running -> Completed | Failed, or, without running,
/// Waiting/Scheduled -> Expired (deadline passed) | Cancelled (a predecessor did not
/// complete, or shutdown). Every job ends in exactly one of the four final states.
enum class JobState : std::uint8_t {
    Waiting,    ///< gate closed: predecessors outstanding
    Scheduled,  ///< gate open, in a queue, not yet started
    Running,
    Completed,
    Failed,     ///< the job threw; the exception is kept in its record
    Expired,    ///< not started before its deadline
    Cancelled,  ///< a predecessor failed/expired/was cancelled, or cancelled at shutdown
};

constexpr bool isFinal(JobState s) noexcept {
    return s >= JobState::Completed;
}

constexpr std::string_view toString(JobState s) noexcept {
    switch (s) {
        case JobState::Waiting:
            return "waiting";
        case JobState::Scheduled:
            return "scheduled";
        case JobState::Running:
            return "running";
        case JobState::Completed:
            return "completed";
        case JobState::Failed:
            return "failed";
        case JobState::Expired:
            return "expired";
        case JobState::Cancelled:
            return "cancelled";
    }
    return "?";
}

}  // namespace pullsched
