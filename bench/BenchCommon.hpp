#pragma once
// Shared shapes and settings for scheduler_bench: both systems (pullsched and oneTBB's
// flow graph) run exactly the graphs described here, with the same worker count.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "pullsched/scheduler/Config.hpp"

namespace pullsched::bench {

/// Threads doing work: pullsched workers, or TBB arena slots (incl. the calling thread).
inline constexpr unsigned kThreads = 2;

inline constexpr std::size_t kIndependentJobs = 100'000;
inline constexpr std::size_t kChainJobs = 100'000;
/// Fan-out/fan-in: kFanReps diamonds 1 -> kFanWidth -> 1, chained (each source waits for
/// the previous sink), so the graph alternates wide and serial phases.
inline constexpr std::size_t kFanWidth = 1000;
inline constexpr std::size_t kFanReps = 100;
inline constexpr std::size_t kFanJobs = kFanReps * (kFanWidth + 2);
inline constexpr std::size_t kDagLayers = 100;
inline constexpr std::size_t kDagWidth = 1000;
inline constexpr std::uint64_t kDagSeed = 20240611;

/// drainFor() limit: far above any sane run, turns a scheduler hang into a reported error.
inline constexpr std::chrono::seconds kHangLimit{10};

inline SchedulerConfig benchConfig() {
    SchedulerConfig cfg;
    cfg.workers = kThreads;
    // PULLSCHED_BENCH_WORKERS=N: N workers instead (1 = one worker beside the helping caller).
    if (const char* e = std::getenv("PULLSCHED_BENCH_WORKERS"); e && std::atoi(e) > 0)
        cfg.workers = static_cast<unsigned>(std::atoi(e));
    // For A/B runs of one binary: PULLSCHED_BENCH_SPREAD=0 without CpuSpread,
    // PULLSCHED_BENCH_PIN=1 with worker i bound to the i-th allowed CPU.
    if (const char* e = std::getenv("PULLSCHED_BENCH_SPREAD")) cfg.spreadWorkers = e[0] != '0';
    if (const char* e = std::getenv("PULLSCHED_BENCH_PIN"); e && e[0] == '1')
        cfg.pinWorkers = WorkerPinning::FirstCpus;
    // PULLSCHED_BENCH_HELP=0: the thread in drain() runs no jobs (helpWhileWaiting off).
    if (const char* e = std::getenv("PULLSCHED_BENCH_HELP")) cfg.helpWhileWaiting = e[0] != '0';
    return cfg;
}

/// Random layered DAG: layer 0 has no predecessors; every node in a later layer has 1-3
/// distinct predecessors drawn uniformly from the previous layer.
struct LayeredDag {
    std::size_t layers = 0;
    std::size_t width = 0;
    /// Predecessors of node n (global index layer * width + k) are
    /// preds[predBegin[n] .. predBegin[n + 1]), as indices within the previous layer.
    std::vector<std::uint32_t> predBegin;
    std::vector<std::uint32_t> preds;

    std::size_t nodes() const noexcept { return layers * width; }
    std::size_t edges() const noexcept { return preds.size(); }
};

LayeredDag makeLayeredDag(std::size_t layers, std::size_t width, std::uint64_t seed);
/// The one DAG every LayeredDag benchmark uses (built once, outside any timing).
const LayeredDag& benchDag();

}  // namespace pullsched::bench
