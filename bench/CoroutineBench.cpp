// The recursive shapes of RecursiveBench.cpp written with Tasks (C++20 coroutines):
// fib(n) as `spawn(fib(n-1))`, `co_await fib(n-2)` inline, `co_await` the spawned handle;
// skynet as 10 spawned children per inner call, awaited one by one (`BM_Coro_Skynet`) or
// with one whenAll (`BM_Coro_SkynetWhenAll`). Each joins by suspending its job, not with
// the join counters of the continuation-style versions beside them.
//
// Two threads run the recursion: one worker and the benchmark thread, which spawns the
// root and helps in get() (helpWhileWaiting on). Their twins: BM_Sched_Fib/Skynet with
// workers:1 and PULLSCHED_BENCH_HELP=1 (one worker, the thread in drainFor() helping), and
// BM_Tbb_Fib/Skynet with workers:2 (a task_arena of 2, its calling thread one of them).
// Counters as there: `ns_per_call` (wall time per call of the recursion), `cpu_ns_per_call`
// (the process's CPU time per call), `jobs` per run (every slice of a Task is one).
// fib(30) comes without PULLSCHED_BENCH_LARGE here. Peak memory: `/usr/bin/time -v` on a
// run of one benchmark. Frames come from the FrameCache; the target
// scheduler_bench_nocache (not built by default) is this file with operator new instead.

#include <array>
#include <cstdint>
#include <ctime>
#include <string>
#include <tuple>
#include <utility>

#include <benchmark/benchmark.h>

#include "BenchCommon.hpp"
#include "RecursionCounters.hpp"
#include "pullsched/scheduler/Scheduler.hpp"

namespace pullsched::bench {
namespace {

constexpr std::uint64_t fibValue(unsigned n) {
    std::uint64_t a = 0, b = 1;
    for (unsigned i = 0; i < n; ++i)
        b = std::exchange(a, b) + b;
    return a;
}
constexpr std::uint64_t fibCallCount(unsigned n) {
    return 2 * fibValue(n + 1) - 1;
}
constexpr std::uint64_t tenTo(unsigned d) {
    std::uint64_t p = 1;
    for (unsigned i = 0; i < d; ++i)
        p *= 10;
    return p;
}
constexpr std::uint64_t skynetValue(unsigned depth) {
    return tenTo(depth) * (tenTo(depth) - 1) / 2;
}
constexpr std::uint64_t skynetCallCount(unsigned depth) {
    return (tenTo(depth + 1) - 1) / 9;
}

Task<std::uint64_t> fib(Scheduler& s, unsigned n) {
    if (n < 2) co_return n;
    auto a = s.spawn(fib(s, n - 1));
    const std::uint64_t b = co_await fib(s, n - 2);
    co_return co_await a + b;
}

Task<std::uint64_t> skynet(Scheduler& s, std::uint64_t num, unsigned levels) {
    if (levels == 0) co_return num;
    const std::uint64_t step = tenTo(levels - 1);
    std::array<JobHandleOf<std::uint64_t>, 10> kids;
    for (unsigned i = 0; i < 10; ++i)
        kids[i] = s.spawn(skynet(s, num + i * step, levels - 1));
    std::uint64_t sum = 0;
    for (const auto& k : kids)
        sum += co_await k;  // the first suspends; the later ones are mostly final by then
    co_return sum;
}

Task<std::uint64_t> skynetWhenAll(Scheduler& s, std::uint64_t num, unsigned levels) {
    if (levels == 0) co_return num;
    const std::uint64_t step = tenTo(levels - 1);
    std::array<JobHandleOf<std::uint64_t>, 10> kids;
    for (unsigned i = 0; i < 10; ++i)
        kids[i] = s.spawn(skynetWhenAll(s, num + i * step, levels - 1));
    // One suspension for all ten; whenAll of a pack keeps the handles in an array.
    const auto parts =
        co_await std::apply([](auto&... k) { return whenAll(std::move(k)...); }, kids);
    co_return std::apply([](auto... v) { return (v + ...); }, parts);
}

/// One worker, and the benchmark thread helping in get(): two threads.
template <class MakeRoot>
void runTasks(benchmark::State& state, std::uint64_t expected, std::uint64_t calls,
              MakeRoot&& makeRoot) {
    SchedulerConfig cfg = benchConfig();
    cfg.workers = 1;
    cfg.helpWhileWaiting = true;
    Scheduler sched(cfg);
    double wallNs = 0;
    double cpuNs = 0;
    for (auto _ : state) {
        const auto t0 = SteadyClock::now();
        const std::int64_t c0 = processCpuNow();
        const std::uint64_t result = sched.spawn(makeRoot(sched)).get();
        cpuNs += static_cast<double>(processCpuNow() - c0);
        wallNs += static_cast<double>((SteadyClock::now() - t0).count());
        if (result != expected)
            return state.SkipWithError(("wrong result " + std::to_string(result)).c_str());
    }
    if (!sched.drainFor(kHangLimit)) return state.SkipWithError("drainFor(10s) failed");
    recursionCounters(state, sched.stats(), static_cast<double>(calls), wallNs, cpuNs);
}

void BM_Coro_Fib(benchmark::State& state) {
    const auto n = static_cast<unsigned>(state.range(0));
    runTasks(state, fibValue(n), fibCallCount(n), [n](Scheduler& s) { return fib(s, n); });
}

void BM_Coro_Skynet(benchmark::State& state) {
    const auto depth = static_cast<unsigned>(state.range(0));
    runTasks(state, skynetValue(depth), skynetCallCount(depth),
             [depth](Scheduler& s) { return skynet(s, 0, depth); });
}

void BM_Coro_SkynetWhenAll(benchmark::State& state) {
    const auto depth = static_cast<unsigned>(state.range(0));
    runTasks(state, skynetValue(depth), skynetCallCount(depth),
             [depth](Scheduler& s) { return skynetWhenAll(s, 0, depth); });
}

BENCHMARK(BM_Coro_Fib)
    ->ArgName("n")
    ->Arg(25)
    ->Arg(30)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond)
    ->MinTime(0.5);
BENCHMARK(BM_Coro_Skynet)
    ->ArgName("depth")
    ->Arg(5)
    ->Arg(6)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond)
    ->MinTime(0.5);
BENCHMARK(BM_Coro_SkynetWhenAll)
    ->ArgName("depth")
    ->Arg(5)
    ->Arg(6)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond)
    ->MinTime(0.5);

}  // namespace
}  // namespace pullsched::bench
