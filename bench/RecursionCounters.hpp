#pragma once
// What the recursion benchmarks (continuation style and coroutines) share: the process's
// CPU clock, and the accounting check and per-call counters they report after a run.

#include <time.h>

#include <cstdint>

#include <benchmark/benchmark.h>

#include "pullsched/scheduler/Statistics.hpp"

namespace pullsched::bench {

/// CPU time of the whole process (every thread), ns.
inline std::int64_t processCpuNow() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

/// After the timed loop: false (the benchmark skipped with an error) unless every posted
/// job completed; else the jobs, steals and records per run and the wall and CPU ns per
/// call of the recursion (`calls` per iteration).
inline bool recursionCounters(benchmark::State& state, const Statistics& s, double calls,
                              double wallNs, double cpuNs) {
    if (!s.balanced() || s.pending != 0 || s.completed != s.submitted) {
        state.SkipWithError("accounting does not balance");
        return false;
    }
    const double iters = static_cast<double>(state.iterations());
    state.counters["jobs"] = static_cast<double>(s.submitted) / iters;
    state.counters["steals"] = static_cast<double>(s.steals) / iters;
    state.counters["records"] = static_cast<double>(s.jobRecords);
    state.counters["ns_per_call"] = wallNs / (calls * iters);
    state.counters["cpu_ns_per_call"] = cpuNs / (calls * iters);
    return true;
}

}  // namespace pullsched::bench
