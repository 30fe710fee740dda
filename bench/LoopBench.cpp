// A flat parallel loop, pullsched's Scheduler::parallelFor against oneTBB's parallel_for
// (auto partitioner, in an arena of kThreads slots) and OpenMP's `parallel for` (static
// schedule, kThreads threads), on the same body and index counts:
//
//   BM_<lib>_Loop/<n>        body: one increment of out[i] (the loop's own cost)
//   BM_<lib>_Loop1us/<n>     body: ~1 us of spinning per index
//
// pullsched runs kThreads workers beside the caller, which helps in wait() (PULLSCHED_BENCH_
// WORKERS=1: one worker and the caller, the same thread count as the peers). Every
// benchmark first checks that each index ran exactly once.

#include <omp.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include "BenchCommon.hpp"
#include "pullsched/scheduler/ParallelFor.hpp"
#include "pullsched/scheduler/Scheduler.hpp"

namespace pullsched::bench {
namespace {

/// About 1 us of work that the compiler cannot drop.
void spinOneMicrosecond() {
    const auto end = std::chrono::steady_clock::now() + std::chrono::microseconds(1);
    while (std::chrono::steady_clock::now() < end)
        benchmark::ClobberMemory();
}

/// "" if every element of `out` is `expected`, else which one is not.
std::string verdict(const std::vector<std::uint32_t>& out, std::uint32_t expected) {
    for (std::size_t i = 0; i < out.size(); ++i)
        if (out[i] != expected)
            return "index " + std::to_string(i) + " ran " + std::to_string(out[i]) +
                   " times, not " + std::to_string(expected);
    return "";
}

/// Runs `loop(out, spin)` once to check it, then in the timed loop.
template <class Loop>
void runLoop(benchmark::State& state, bool spin, Loop&& loop) {
    const auto n = static_cast<std::size_t>(state.range(0));
    std::vector<std::uint32_t> out(n, 0);
    loop(out, spin);
    if (const auto err = verdict(out, 1); !err.empty()) return state.SkipWithError(err.c_str());
    for (auto _ : state)
        loop(out, spin);
    if (const auto err = verdict(out, 1 + static_cast<std::uint32_t>(state.iterations()));
        !err.empty())
        return state.SkipWithError(err.c_str());
    state.counters["ns_per_index"] =
        benchmark::Counter(static_cast<double>(n) * static_cast<double>(state.iterations()),
                           benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

inline void body(std::vector<std::uint32_t>& out, std::size_t i, bool spin) {
    if (spin) spinOneMicrosecond();
    ++out[i];
}

void BM_Sched_Loop(benchmark::State& state, bool spin) {
    Scheduler sched(benchConfig());
    runLoop(state, spin, [&](std::vector<std::uint32_t>& out, bool s) {
        sched.wait(sched.parallelFor(std::size_t{0}, out.size(),
                                     [&out, s](std::size_t i) { body(out, i, s); }));
    });
}

void BM_Tbb_Loop(benchmark::State& state, bool spin) {
    tbb::task_arena arena(static_cast<int>(kThreads));
    arena.initialize();
    runLoop(state, spin, [&](std::vector<std::uint32_t>& out, bool s) {
        arena.execute([&] {
            tbb::parallel_for(std::size_t{0}, out.size(),
                              [&out, s](std::size_t i) { body(out, i, s); });
        });
    });
}

void BM_Omp_Loop(benchmark::State& state, bool spin) {
    runLoop(state, spin, [](std::vector<std::uint32_t>& out, bool s) {
        const auto n = static_cast<std::int64_t>(out.size());
#pragma omp parallel for schedule(static) num_threads(kThreads)
        for (std::int64_t i = 0; i < n; ++i)
            body(out, static_cast<std::size_t>(i), s);
    });
}

void loopSizes(benchmark::internal::Benchmark* b) {
    for (const std::int64_t n : {64, 4096, 262'144, 1'048'576})
        b->Arg(n);
    b->Unit(benchmark::kMicrosecond)->UseRealTime();
}

void spinSizes(benchmark::internal::Benchmark* b) {
    for (const std::int64_t n : {64, 4096, 65'536})
        b->Arg(n);
    b->Unit(benchmark::kMicrosecond)->UseRealTime();
}

BENCHMARK_CAPTURE(BM_Sched_Loop, empty, false)->Name("BM_Sched_Loop")->Apply(loopSizes);
BENCHMARK_CAPTURE(BM_Tbb_Loop, empty, false)->Name("BM_Tbb_Loop")->Apply(loopSizes);
BENCHMARK_CAPTURE(BM_Omp_Loop, empty, false)->Name("BM_Omp_Loop")->Apply(loopSizes);
BENCHMARK_CAPTURE(BM_Sched_Loop, spin, true)->Name("BM_Sched_Loop1us")->Apply(spinSizes);
BENCHMARK_CAPTURE(BM_Tbb_Loop, spin, true)->Name("BM_Tbb_Loop1us")->Apply(spinSizes);
BENCHMARK_CAPTURE(BM_Omp_Loop, spin, true)->Name("BM_Omp_Loop1us")->Apply(spinSizes);

}  // namespace
}  // namespace pullsched::bench
