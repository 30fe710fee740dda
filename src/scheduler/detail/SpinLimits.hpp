#pragma once
// How a thread with nothing to do watches for work before it sleeps: a worker's idle spin
// and a helping waiter's watch (see WorkerIdle.cpp, HelpingWait.cpp) share these limits.

#include "pullsched/scheduler/Time.hpp"

namespace pullsched::detail {

/// Pause rounds first, then yields. 64 pauses take ~2 us here (a pause is ~30 ns on this
/// kind of x86 VM), long enough to catch a post that follows at once, short enough to
/// cost nothing next to a wake-up (tens of us). An argument; no other count was measured.
inline constexpr unsigned kPauseRounds = 64;
/// A yield that returns later than this ran another thread meanwhile: a yield with nobody
/// else runnable takes ~1 us here, a time slice that went to another thread takes far
/// longer. 20 us is an argument between the two, not a tuned value.
inline constexpr Duration kYieldPreempted = std::chrono::microseconds(20);

}  // namespace pullsched::detail
