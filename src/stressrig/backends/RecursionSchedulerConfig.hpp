#pragma once
// The scheduler of pullsched's recursion runners (PullschedRecursion.cpp in the
// continuation idiom, PullschedCoroutineRecursion.cpp with Tasks), so both count threads
// alike. Threads that run jobs: `workers`, as in every backend, the caller counted as
// oneTBB's and OpenMP's count theirs: `workers - 1` workers and the caller, which posts
// the root and helps while it waits (helpWhileWaiting), so the recursion starts on a
// running thread as it does in oneTBB's arena. With one thread the caller cannot help (a
// scheduler has a worker): one worker, and the caller waits. Measured against `workers`
// workers and a caller that only waits (continuation idiom, --settle=20ms, medians of 7
// runs, 2 threads, two sets): fib-15 96-119 -> 65-76 ns per call, skynet-3 171-195 ->
// 96-108, fib-25 and skynet-5 alike within their spread.

#include <stdexcept>
#include <string>

#include "pullsched/scheduler/Config.hpp"

namespace pullsched::rig {

/// std::invalid_argument naming `who` for 0 workers.
inline SchedulerConfig recursionSchedulerConfig(unsigned workers, const std::string& who) {
    if (workers == 0) throw std::invalid_argument(who + " recursion: 0 workers");
    SchedulerConfig cfg;
    const bool callerHelps = workers > 1;
    cfg.workers = callerHelps ? workers - 1 : workers;
    cfg.helpWhileWaiting = callerHelps;
    return cfg;
}

}  // namespace pullsched::rig
