// Work created inside jobs, pullsched vs oneTBB's task_group: two recursive computations
// whose jobs spawn their own children, the shape of Taskflow's benchmarks/fibonacci and
// benchmarks/skynet.
//
//   BM_<lib>_Fib/n:N/workers:W        fib(N) by recursion, no cut-off
//   BM_<lib>_Skynet/depth:D/workers:W each job spawns 10 until depth D; the leaves carry
//                                     their number, every parent sums its children
//
// oneTBB (the Taskflow suite's shape): fib runs fib(n-1) as a task and computes fib(n-2)
// on the calling thread before task_group::wait(); skynet runs its 10 children as tasks
// and waits. pullsched has no waiting inside a job, so a call posts its children and
// leaves the sum to a join counter: the child that fills its parent's last slot sums the
// parent and delivers upwards (a continuation posted with the children as predecessors
// would run when the children's jobs end, before their subtrees delivered). Its fib has
// oneTBB's shape: a call posts fib(n-1) and goes on with fib(n-2) in the same job, so both
// create one job or task per inner fib call (and one per skynet call). The figure compared
// is the wall time of the whole computation; `ns_per_call` divides it by the recursion's
// calls, the same count for both.
//
// Timed region: post the root (pullsched: from the benchmark thread) and wait until the
// result is there (pullsched: drainFor; oneTBB: the root call inside task_arena::execute).
// Not timed: the Scheduler and the task_arena. Both run the recursion on W threads:
// oneTBB's calling thread is one of its arena's W; pullsched's W workers, with the thread
// in drainFor() not helping (helpWhileWaiting off; the rig's --mode=spawn counts the caller
// as oneTBB does: W - 1 workers and a helping caller). With
// helping on, the waiting thread ran jobs beside the W workers: 3 threads on the 2-vCPU
// machines at workers:2, which made the second worker look useless (fib(25): 14.1 ms with
// 2 workers + helper against 11.8 ms with 2 workers alone, base 093901b).
// PULLSCHED_BENCH_HELP=1 measures that configuration.
// `cpu_ns_per_call` is the process's CPU time (every thread, idle spinning included) over
// the timed region per call: unlike the wall time it hardly depends on how much of the
// shared machine the process got, so it tells whether a second worker costs CPU per call.
// Every iteration checks the result, and pullsched's accounting is checked at the end.

#include <array>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <string>
#include <utility>

#include <benchmark/benchmark.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>

#include "BenchCommon.hpp"
#include "RecursionCounters.hpp"
#include "pullsched/scheduler/Scheduler.hpp"

namespace pullsched::bench {
namespace {

constexpr std::uint64_t fibOf(unsigned n) {
    std::uint64_t a = 0, b = 1;
    for (unsigned i = 0; i < n; ++i) {
        const std::uint64_t next = a + b;
        a = b;
        b = next;
    }
    return a;
}
/// Calls of the recursion fib(n) -> fib(n-1), fib(n-2), down to n < 2: 2 fib(n+1) - 1.
constexpr std::uint64_t fibCalls(unsigned n) {
    return 2 * fibOf(n + 1) - 1;
}

constexpr std::uint64_t pow10(unsigned d) {
    std::uint64_t p = 1;
    for (unsigned i = 0; i < d; ++i)
        p *= 10;
    return p;
}
/// Leaves 0 .. 10^d - 1.
constexpr std::uint64_t skynetSum(unsigned depth) {
    const std::uint64_t leaves = pow10(depth);
    return leaves * (leaves - 1) / 2;
}
/// 1 + 10 + ... + 10^d.
constexpr std::uint64_t skynetCalls(unsigned depth) {
    return (pow10(depth + 1) - 1) / 9;
}

// ---------------------------------------------------------------------------------------
// pullsched: a join counter per inner call. A job cannot wait, and a continuation posted
// with the children as predecessors would run when the children's *jobs* end, before
// their own subtrees delivered; so the child that completes a node's last slot sums it
// and delivers upwards, on its own thread.

/// An inner call's pending result: `Arity` slots, filled by its children.
template <std::size_t Arity>
struct Join {
    std::array<std::uint64_t, Arity> part{};
    std::atomic<unsigned> left{Arity};
    Join* parent;
    unsigned slot;       ///< which of parent's slots this call fills
    std::uint64_t* out;  ///< the root's result, when parent is null

    Join(Join* p, unsigned s, std::uint64_t* o) : parent(p), slot(s), out(o) {}
};

/// `value` is the result of the call in `slot` of `node`: store it, and while that
/// completes a node, sum the node and go up.
template <std::size_t Arity>
void deliver(Join<Arity>* node, unsigned slot, std::uint64_t value, std::uint64_t* rootOut) {
    while (node) {
        node->part[slot] = value;
        if (node->left.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
        value = 0;
        for (const std::uint64_t p : node->part)
            value += p;
        Join<Arity>* done = std::exchange(node, node->parent);
        slot = done->slot;
        rootOut = done->out;
        delete done;
    }
    *rootOut = value;
}

using FibJoin = Join<2>;

/// fib(n) for slot `slot` of `parent` (or into `out` at the root), in oneTBB's shape: a
/// call posts fib(n-1) and goes on with fib(n-2) itself, down to n < 2, so that there is
/// one job per inner call, as there is one task per inner call there.
void fibJob(Scheduler& s, unsigned n, FibJoin* parent, unsigned slot, std::uint64_t* out) {
    while (n >= 2) {
        auto* node = new FibJoin(parent, slot, out);
        s.postDetached([&s, n, node] { fibJob(s, n - 1, node, 0, nullptr); });
        parent = node;  // fib(n-2) fills the node's second slot, on this thread
        slot = 1;
        out = nullptr;
        n -= 2;
    }
    deliver(parent, slot, n, out);
}

using SkyJoin = Join<10>;

/// `levels` below this call; its leaves are num, num + 1, ..., num + 10^levels - 1.
void skynetJob(Scheduler& s, std::uint64_t num, unsigned levels, SkyJoin* parent, unsigned slot,
               std::uint64_t* out) {
    if (levels == 0) return deliver(parent, slot, num, out);
    const std::uint64_t step = pow10(levels - 1);
    auto* node = new SkyJoin(parent, slot, out);
    for (unsigned i = 0; i < 10; ++i)
        s.postDetached([&s, n = num + i * step, levels, node, i] {
            skynetJob(s, n, levels - 1, node, i, nullptr);
        });
}

/// CPU time of every thread of this process so far.
/// `workers` threads run the recursion, as in oneTBB's arena: the thread in drainFor()
/// does not help unless PULLSCHED_BENCH_HELP=1 (see the header).
SchedulerConfig recursionConfig(unsigned workers) {
    SchedulerConfig cfg = benchConfig();
    cfg.workers = workers;
    const char* help = std::getenv("PULLSCHED_BENCH_HELP");
    cfg.helpWhileWaiting = help && help[0] == '1';
    return cfg;
}

SchedulerConfig withWorkers(unsigned workers) {
    SchedulerConfig cfg = benchConfig();
    cfg.workers = workers;
    return cfg;
}

/// Runs `root` (which posts the computation's root job into `result`) once per iteration.
template <class Root>
void runSched(benchmark::State& state, unsigned workers, std::uint64_t expected,
              std::uint64_t calls, Root&& root) {
    Scheduler sched(recursionConfig(workers));
    std::uint64_t result = 0;
    double wallNs = 0;
    double cpuNs = 0;
    for (auto _ : state) {
        const auto t0 = SteadyClock::now();
        const std::int64_t c0 = processCpuNow();
        result = ~std::uint64_t{0};
        root(sched, &result);
        if (!sched.drainFor(kHangLimit)) return state.SkipWithError("drainFor(10s) failed");
        cpuNs += static_cast<double>(processCpuNow() - c0);
        wallNs += static_cast<double>((SteadyClock::now() - t0).count());
        if (result != expected)
            return state.SkipWithError(("wrong result " + std::to_string(result)).c_str());
    }
    const Statistics s = sched.stats();
    if (!recursionCounters(state, s, static_cast<double>(calls), wallNs, cpuNs)) return;
    const double iters = static_cast<double>(state.iterations());
    state.counters["parks"] = static_cast<double>(s.parks) / iters;
    state.counters["wakeups"] = static_cast<double>(s.wakeups) / iters;
}

void BM_Sched_Fib(benchmark::State& state) {
    const auto n = static_cast<unsigned>(state.range(0));
    runSched(state, static_cast<unsigned>(state.range(1)), fibOf(n), fibCalls(n),
             [n](Scheduler& s, std::uint64_t* out) {
                 s.postDetached([&s, n, out] { fibJob(s, n, nullptr, 0, out); });
             });
}

void BM_Sched_Skynet(benchmark::State& state) {
    const auto depth = static_cast<unsigned>(state.range(0));
    runSched(state, static_cast<unsigned>(state.range(1)), skynetSum(depth), skynetCalls(depth),
             [depth](Scheduler& s, std::uint64_t* out) {
                 s.postDetached([&s, depth, out] { skynetJob(s, 0, depth, nullptr, 0, out); });
             });
}

// ---------------------------------------------------------------------------------------
// oneTBB task_group

std::uint64_t fibTbb(unsigned n) {
    if (n < 2) return n;
    std::uint64_t x = 0;
    tbb::task_group g;
    g.run([&x, n] { x = fibTbb(n - 1); });
    const std::uint64_t y = fibTbb(n - 2);
    g.wait();
    return x + y;
}

std::uint64_t skynetTbb(std::uint64_t num, unsigned levels) {
    if (levels == 0) return num;
    const std::uint64_t step = pow10(levels - 1);
    std::array<std::uint64_t, 10> part{};
    tbb::task_group g;
    for (unsigned i = 0; i < 10; ++i)
        g.run([&part, i, n = num + i * step, levels] { part[i] = skynetTbb(n, levels - 1); });
    g.wait();
    std::uint64_t sum = 0;
    for (const std::uint64_t p : part)
        sum += p;
    return sum;
}

template <class Root>
void runTbb(benchmark::State& state, int threads, std::uint64_t expected, std::uint64_t calls,
            Root&& root) {
    tbb::task_arena arena(threads);
    arena.initialize();
    double wallNs = 0;
    double cpuNs = 0;
    for (auto _ : state) {
        const auto t0 = SteadyClock::now();
        const std::int64_t c0 = processCpuNow();
        const std::uint64_t result = arena.execute(root);
        cpuNs += static_cast<double>(processCpuNow() - c0);
        wallNs += static_cast<double>((SteadyClock::now() - t0).count());
        if (result != expected)
            return state.SkipWithError(("wrong result " + std::to_string(result)).c_str());
    }
    const double iters = static_cast<double>(state.iterations());
    state.counters["ns_per_call"] = wallNs / (static_cast<double>(calls) * iters);
    state.counters["cpu_ns_per_call"] = cpuNs / (static_cast<double>(calls) * iters);
}

void BM_Tbb_Fib(benchmark::State& state) {
    const auto n = static_cast<unsigned>(state.range(0));
    runTbb(state, static_cast<int>(state.range(1)), fibOf(n), fibCalls(n),
           [n] { return fibTbb(n); });
}

void BM_Tbb_Skynet(benchmark::State& state) {
    const auto depth = static_cast<unsigned>(state.range(0));
    runTbb(state, static_cast<int>(state.range(1)), skynetSum(depth), skynetCalls(depth),
           [depth] { return skynetTbb(0, depth); });
}

// ---------------------------------------------------------------------------------------
// 16 independent empty jobs posted from outside and waited for: pullsched post x 16 +
// drain() (2 workers), oneTBB task_group::run x 16 + wait() inside task_arena(2)::execute.

constexpr int kSmallJobs = 16;

void BM_Sched_Spawn16(benchmark::State& state) {
    Scheduler sched(withWorkers(kThreads));
    std::atomic<int> ran{0};
    for (auto _ : state) {
        for (int i = 0; i < kSmallJobs; ++i)
            sched.postDetached([&ran] { ran.fetch_add(1, std::memory_order_relaxed); });
        if (!sched.drainFor(kHangLimit)) return state.SkipWithError("drainFor(10s) failed");
    }
    if (ran.load() != kSmallJobs * state.iterations())
        return state.SkipWithError("a job did not run exactly once");
    const Statistics s = sched.stats();
    state.counters["wakeups"] = static_cast<double>(s.wakeups) / state.iterations();
}

/// The same 16 jobs as one PostBatch.
void BM_Sched_BatchSpawn16(benchmark::State& state) {
    Scheduler sched(withWorkers(kThreads));
    std::atomic<int> ran{0};
    for (auto _ : state) {
        PostBatch batch = sched.batch(kSmallJobs);
        for (int i = 0; i < kSmallJobs; ++i)
            batch.postDetached([&ran] { ran.fetch_add(1, std::memory_order_relaxed); });
        batch.submit();
        if (!sched.drainFor(kHangLimit)) return state.SkipWithError("drainFor(10s) failed");
    }
    if (ran.load() != kSmallJobs * state.iterations())
        return state.SkipWithError("a job did not run exactly once");
}

void BM_Tbb_Spawn16(benchmark::State& state) {
    tbb::task_arena arena(static_cast<int>(kThreads));
    arena.initialize();
    std::atomic<int> ran{0};
    for (auto _ : state) {
        arena.execute([&] {
            tbb::task_group g;
            for (int i = 0; i < kSmallJobs; ++i)
                g.run([&ran] { ran.fetch_add(1, std::memory_order_relaxed); });
            g.wait();
        });
    }
    if (ran.load() != kSmallJobs * state.iterations())
        return state.SkipWithError("a task did not run exactly once");
}

BENCHMARK(BM_Sched_Spawn16)->UseRealTime()->Unit(benchmark::kMicrosecond)->MinTime(0.5);
BENCHMARK(BM_Sched_BatchSpawn16)->UseRealTime()->Unit(benchmark::kMicrosecond)->MinTime(0.5);
BENCHMARK(BM_Tbb_Spawn16)->UseRealTime()->Unit(benchmark::kMicrosecond)->MinTime(0.5);

/// PULLSCHED_BENCH_LARGE=1 adds fib(30) and skynet depth 7 (2.7 and 11.1 million calls,
/// 0.2-1 s each): the sizes at which a breadth-first expansion used to take hundreds of
/// megabytes, for a peak-memory check (`/usr/bin/time -v`, one benchmark per process).
bool largeSizes() {
    const char* v = std::getenv("PULLSCHED_BENCH_LARGE");
    return v && v[0] == '1';  // as PULLSCHED_BENCH_HELP and _PIN
}

/// Each benchmark at 1 and 2 workers (threads), at least 0.5 s of iterations.
void fibArgs(benchmark::internal::Benchmark* b) {
    b->ArgNames({"n", "workers"});
    for (const long n : {20L, 25L, largeSizes() ? 30L : 0L})
        for (const long w : {1, 2})
            if (n) b->Args({n, w});
    b->UseRealTime()->Unit(benchmark::kMillisecond)->MinTime(0.5);
}
void skynetArgs(benchmark::internal::Benchmark* b) {
    b->ArgNames({"depth", "workers"});
    for (const long d : {4L, 5L, 6L, largeSizes() ? 7L : 0L})
        for (const long w : {1, 2})
            if (d) b->Args({d, w});
    b->UseRealTime()->Unit(benchmark::kMillisecond)->MinTime(0.5);
}

BENCHMARK(BM_Sched_Fib)->Apply(fibArgs);
BENCHMARK(BM_Tbb_Fib)->Apply(fibArgs);
BENCHMARK(BM_Sched_Skynet)->Apply(skynetArgs);
BENCHMARK(BM_Tbb_Skynet)->Apply(skynetArgs);

}  // namespace
}  // namespace pullsched::bench
