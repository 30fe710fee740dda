#pragma once
// Decides what a worker does when nothing is ready, from how far away the next head is.
// Pure: time comes in as arguments, so every horizon can be tested exactly.

#include <cstdint>
#include <optional>
#include <string_view>

#include "pullsched/scheduler/Config.hpp"
#include "pullsched/scheduler/Time.hpp"

namespace pullsched::detail {

/// The reference design's capacity classes, by distance d = head - now.
enum class CapacityClass : std::uint8_t {
    Dispatch,  ///< d <= 0: due now
    SpinTime,  ///< 0 < d <= nearTime
    NearTime,  ///< nearTime < d <= workTime
    WorkTime,  ///< workTime < d <= idleWait
    IdleWait,  ///< d > idleWait, or nothing queued
};

std::string_view toString(CapacityClass c) noexcept;

struct WorkerAction {
    enum class Kind : std::uint8_t {
        Dispatch,  ///< groom again: something is due
        Spin,      ///< busy-wait (bounded by time) until `until`, then groom
        TendNext,  ///< become the tender: sleep until `until`, then spin to the head
        Park,      ///< OS wait until woken (another worker tends the head, or none queued)
    };
    Kind kind;
    TimePoint until;  ///< for Spin and TendNext; kNoDeadline for Park
};

class LoadController {
  public:
    explicit LoadController(const LoadHorizons& h) noexcept : h_(h) {}

    CapacityClass classify(std::optional<TimePoint> head, TimePoint now) const noexcept;

    /// `mayTend`: no other worker tends an earlier-or-equal head, so this one may become
    /// the tender (WakeProtocol::mayTend). Only one worker keeps a timed sleep; the rest park,
    /// which is what keeps sleepers from waking in lockstep and an idle scheduler from costing CPU.
    WorkerAction decide(std::optional<TimePoint> head, TimePoint now, bool mayTend) const noexcept;

  private:
    LoadHorizons h_;
};

}  // namespace pullsched::detail
