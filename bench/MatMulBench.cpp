// A dense matrix product, row-blocked, written with each library's parallel loop:
// pullsched's Scheduler::parallelFor, oneTBB's parallel_for (an arena of kThreads slots)
// and OpenMP's `parallel for` (static schedule, kThreads threads). After Taskflow's
// matrix_multiplication benchmark: a[i][j] = i + j, b[i][j] = i * j, c = a * b, N x N
// doubles; each index of the loop is one row of c, the same i-k-j kernel everywhere.
//
//   BM_<lib>_MatMul/<N>      N = 256, 512; the product is timed, not the set-up
//
// Every entry is an integer below 2^53, so c is exact whatever the order of the sums:
// each run is checked against a serial product, entry by entry.

#include <omp.h>

#include <cstddef>
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

struct Matrices {
    std::size_t n;
    std::vector<double> a, b, c;

    explicit Matrices(std::size_t size) : n(size), a(n * n), b(n * n), c(n * n) {
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t j = 0; j < n; ++j) {
                a[i * n + j] = static_cast<double>(i + j);
                b[i * n + j] = static_cast<double>(i * j);
            }
        }
    }
    /// Row i of c = a * b.
    void row(std::size_t i) {
        double* ci = &c[i * n];
        for (std::size_t j = 0; j < n; ++j)
            ci[j] = 0;
        for (std::size_t k = 0; k < n; ++k) {
            const double aik = a[i * n + k];
            const double* bk = &b[k * n];
            for (std::size_t j = 0; j < n; ++j)
                ci[j] += aik * bk[j];
        }
    }
};

/// "" if `m.c` is the serial product, else the first entry that differs.
std::string verdict(const Matrices& m) {
    Matrices serial(m.n);
    for (std::size_t i = 0; i < m.n; ++i)
        serial.row(i);
    for (std::size_t e = 0; e < m.c.size(); ++e)
        if (m.c[e] != serial.c[e])
            return "c[" + std::to_string(e / m.n) + "][" + std::to_string(e % m.n) + "] differs";
    return "";
}

/// Runs `product(m)` once to check it, then in the timed loop, then checks again.
template <class Product>
void runProduct(benchmark::State& state, Product&& product) {
    Matrices m(static_cast<std::size_t>(state.range(0)));
    product(m);
    if (const auto err = verdict(m); !err.empty()) return state.SkipWithError(err.c_str());
    for (auto _ : state)
        product(m);
    if (const auto err = verdict(m); !err.empty()) return state.SkipWithError(err.c_str());
}

void BM_Sched_MatMul(benchmark::State& state) {
    Scheduler sched(benchConfig());
    runProduct(state, [&](Matrices& m) {
        sched.wait(sched.parallelFor(std::size_t{0}, m.n, [&m](std::size_t i) { m.row(i); }));
    });
}

void BM_Tbb_MatMul(benchmark::State& state) {
    tbb::task_arena arena(static_cast<int>(kThreads));
    arena.initialize();
    runProduct(state, [&](Matrices& m) {
        arena.execute(
            [&] { tbb::parallel_for(std::size_t{0}, m.n, [&m](std::size_t i) { m.row(i); }); });
    });
}

void BM_Omp_MatMul(benchmark::State& state) {
    runProduct(state, [](Matrices& m) {
        const auto n = static_cast<std::int64_t>(m.n);
#pragma omp parallel for schedule(static) num_threads(kThreads)
        for (std::int64_t i = 0; i < n; ++i)
            m.row(static_cast<std::size_t>(i));
    });
}

void matrixSizes(benchmark::internal::Benchmark* b) {
    b->Arg(256)->Arg(512)->Unit(benchmark::kMillisecond)->UseRealTime();
}

BENCHMARK(BM_Sched_MatMul)->Apply(matrixSizes);
BENCHMARK(BM_Tbb_MatMul)->Apply(matrixSizes);
BENCHMARK(BM_Omp_MatMul)->Apply(matrixSizes);

}  // namespace
}  // namespace pullsched::bench
