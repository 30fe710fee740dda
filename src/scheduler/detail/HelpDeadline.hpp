#pragma once
// Whether the limit of a helping wait (drainFor, wait with a limit) has passed, asked after
// every job the waiting thread runs (see helpUntil). One steady_clock read per helped job
// was the helping thread's largest cost: 17 % of the process's CPU for fib(25) with one
// worker and a helping drainFor (perf, base 093901b), a read costing ~115 ns on the
// project's 2-vCPU VM under load, more than a job of the recursion. The coarse monotonic
// clock (Linux: the time of the last timer tick, on steady_clock's epoch) reads ~25 ns
// there; it never runs ahead of steady_clock and trails it by about one tick. So while the
// coarse time plus twice its resolution (one tick of lag, one to spare) is before the
// limit, the limit has not passed and steady_clock is not read; only near the limit is it.
// Without a limit (drain(), wait()) nothing is read at all.

#include "pullsched/scheduler/Time.hpp"

namespace pullsched::detail {

class HelpDeadline {
  public:
    /// `steadyDeadline` on SteadyClock; kNoDeadline: none.
    explicit HelpDeadline(TimePoint steadyDeadline) noexcept;

    bool passed() const noexcept;

    /// The coarse look: `coarse` read from the coarse clock, `margin` twice its
    /// resolution. True: the limit is certainly ahead; false: ask steady_clock.
    static bool certainlyAhead(TimePoint coarse, Duration margin, TimePoint deadline) noexcept {
        return saturatingAdd(coarse, margin) < deadline;
    }

  private:
    TimePoint deadline_;
    /// Twice the coarse clock's resolution; Duration::max(): no coarse clock here.
    Duration margin_;
};

}  // namespace pullsched::detail
