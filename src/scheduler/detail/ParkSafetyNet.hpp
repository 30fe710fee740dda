#pragma once
// How long a parked worker sleeps before it looks again without being notified.

#include <algorithm>
#include <chrono>

#include "pullsched/scheduler/Time.hpp"

namespace pullsched::detail {

/// A safety net against a lost wake-up, short right after activity, when one would
/// matter: 2 s after a notified wake-up, doubling with every check that found nothing, up
/// to 64 s. A check costs ~50 us of CPU (timer, two context switches, one look at the
/// queues); at a fixed 2 s two idle workers spent 0.06-0.08 ms/s on nothing but checks.
class ParkSafetyNet {
  public:
    static constexpr Duration kFirst = std::chrono::seconds(2);
    static constexpr Duration kMax = std::chrono::seconds(64);

    /// The period for the coming park. `lastRanOut`: the last park ended by its period and
    /// the worker has run no job since (else the net starts short again).
    Duration next(bool lastRanOut) noexcept {
        period_ = lastRanOut ? std::min(2 * period_, kMax) : kFirst;
        return period_;
    }

  private:
    Duration period_ = kFirst;
};

}  // namespace pullsched::detail
