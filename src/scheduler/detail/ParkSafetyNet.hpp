#pragma once
// How long a parked worker sleeps before it looks again without being notified.

#include <algorithm>
#include <atomic>
#include <chrono>

#include "pullsched/scheduler/Time.hpp"

namespace pullsched::detail {

/// A safety net against a lost wake-up, short right after activity, when one would
/// matter: 2 s after a notified wake-up, doubling with every check that found nothing, up
/// to 64 s. This is one worker's period; SafetyNetHolder says which waiting worker has the
/// net. A check costs ~50 us of CPU (timer, two context switches, one look at the queues);
/// at a fixed 2 s two idle workers spent 0.06-0.08 ms/s on nothing but checks.
///
/// With no job open (every posted job ended) the period is 64 s at once: a lost wake-up
/// can strand only a later post's job, and that one already waited for whatever was left
/// of the holder's period, up to 64 s (a post wakes some worker, not the holder). The
/// short period is for jobs open when the last worker went to sleep.
class ParkSafetyNet {
  public:
    static constexpr Duration kFirst = std::chrono::seconds(2);
    static constexpr Duration kMax = std::chrono::seconds(64);

    /// The period for the coming park. `lastRanOut`: the last park ended by its period and
    /// the worker has run no job since (else the net starts short again). `noneOpen`:
    /// every job posted so far has ended.
    Duration next(bool lastRanOut, bool noneOpen) noexcept {
        if (noneOpen) {
            period_ = kMax;
        } else {
            period_ = lastRanOut ? std::min(2 * period_, kMax) : kFirst;
        }
        return period_;
    }

  private:
    Duration period_ = kFirst;
};

/// Which waiting worker carries the safety net: only one at a time. One is enough, since
/// a worker that finds work after a wake-up wakes the next sleeper if more is left; every
/// other parked worker waits for a notification alone. With a net per parked worker,
/// each check costing ~50-70 us of CPU here, idle CPU grew with the worker count.
///
/// Waiting means parked or tending (the tender's timed sleep, which the net shortens
/// when the head is further away). Whenever every worker waits, one of them holds the
/// net: the last one to start waiting found it free, or held by a worker that was still
/// waiting then (a holder gives it back only after its wait, and takes it again, if
/// free, before its next one). Had the tender no part in it, a holder that woke to tend
/// a far head would leave the parked workers without a net.
class SafetyNetHolder {
  public:
    /// Take the net for `worker` if nobody has it. Returns whether `worker` now holds it.
    bool take(unsigned worker) noexcept {
        unsigned expected = kNobody;
        return holder_.compare_exchange_strong(expected, worker, std::memory_order_acq_rel);
    }
    /// Give it back after the wait (a no-op for a worker that did not hold it).
    void giveBack(unsigned worker) noexcept {
        unsigned expected = worker;
        holder_.compare_exchange_strong(expected, kNobody, std::memory_order_acq_rel);
    }
    bool held() const noexcept { return holder_.load(std::memory_order_acquire) != kNobody; }

  private:
    static constexpr unsigned kNobody = ~0u;
    std::atomic<unsigned> holder_{kNobody};
};

}  // namespace pullsched::detail
