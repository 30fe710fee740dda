// Throughput of empty jobs in four graph shapes, pullsched vs oneTBB flow graph.
//
// Timed region, the same for both systems: build/post the whole graph, run it, wait for
// it, and tear it down (pullsched: post + drain + handle release; TBB: graph and node
// construction + make_edge + try_put + wait_for_all + destruction). Outside the timed
// region: the pullsched Scheduler / the TBB task_arena (thread start-up), and one untimed
// warm-up run that also checks the run was complete (and, for pullsched, ordered).

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>
#include <oneapi/tbb/flow_graph.h>
#include <oneapi/tbb/task_arena.h>

#include "BenchCommon.hpp"
#include "pullsched/scheduler/Scheduler.hpp"

namespace pullsched::bench {
namespace {

using tbb::flow::continue_msg;
using TbbNode = tbb::flow::continue_node<continue_msg>;

constexpr auto kEmpty = [] {};
constexpr auto kTbbEmpty = [](const continue_msg&) { return continue_msg{}; };

std::span<const JobHandle> one(const JobHandle& h) {
    return {&h, 1};
}

// ---------------------------------------------------------------------------------------
// pullsched graphs. Every builder posts `job` for each node and returns the node count;
// the caller drains. `job` is the empty lambda when timed, a checking one in warm-up.
// `s`: the Scheduler, or a PostBatch of it (the same calls; the caller submits).

template <class Poster, class Job>
std::size_t postIndependent(Poster& s, const Job& job) {
    for (std::size_t i = 0; i < kIndependentJobs; ++i)
        s.postDetached(job);
    return kIndependentJobs;
}

template <class Poster, class JobFor>
std::size_t postChain(Poster& s, JobFor&& jobFor) {
    JobHandle prev = s.post(jobFor(0));
    for (std::size_t i = 1; i < kChainJobs; ++i)
        prev = s.post(jobFor(i), {}, one(prev));
    return kChainJobs;
}

template <class Poster, class Job>
std::size_t postFanOutIn(Poster& s, const Job& job) {
    std::vector<JobHandle> mids;
    mids.reserve(kFanWidth);
    JobHandle sink;
    for (std::size_t r = 0; r < kFanReps; ++r) {
        const JobHandle src = sink ? s.post(job, {}, one(sink)) : s.post(job);
        mids.clear();
        for (std::size_t w = 0; w < kFanWidth; ++w)
            mids.push_back(s.post(job, {}, one(src)));
        sink = s.post(job, {}, mids);
    }
    return kFanJobs;
}

template <class Poster, class JobFor>
std::size_t postLayeredDag(Poster& s, const LayeredDag& dag, JobFor&& jobFor) {
    std::vector<JobHandle> prev(dag.width), cur(dag.width);
    JobHandle preds[3];
    for (std::size_t layer = 0; layer < dag.layers; ++layer) {
        for (std::size_t k = 0; k < dag.width; ++k) {
            const std::size_t n = layer * dag.width + k;
            // The API takes contiguous handles, so copy the random predecessors together.
            std::size_t np = 0;
            for (std::uint32_t e = dag.predBegin[n]; e < dag.predBegin[n + 1]; ++e)
                preds[np++] = prev[dag.preds[e]];
            cur[k] = s.post(jobFor(n), {}, std::span<const JobHandle>(preds, np));
        }
        prev.swap(cur);
    }
    return dag.nodes();
}

/// Common driver: warm-up (checked), timed loop with hang detection, accounting check.
template <class Timed, class Warm>
void runSched(benchmark::State& state, Timed&& timed, Warm&& warm) {
    Scheduler sched(benchConfig());
    std::string warmError;
    const std::size_t jobs = warm(sched, warmError);
    if (!sched.drainFor(kHangLimit)) return state.SkipWithError("warm-up did not drain (hang?)");
    if (!warmError.empty()) return state.SkipWithError(warmError.c_str());

    const Statistics before = sched.stats();
    for (auto _ : state) {
        timed(sched);
        if (!sched.drainFor(kHangLimit)) {
            state.SkipWithError("drainFor(10s) failed (hang?)");
            break;
        }
    }
    const Statistics after = sched.stats();
    const auto iters = static_cast<std::uint64_t>(state.iterations());
    if (after.completed - before.completed != iters * jobs || !after.balanced())
        return state.SkipWithError("completed count does not match posted jobs");
    state.SetItemsProcessed(static_cast<std::int64_t>(iters * jobs));
    const double perIter = iters ? 1.0 / static_cast<double>(iters) : 0.0;
    state.counters["s_per_job"] =
        benchmark::Counter(static_cast<double>(iters * jobs),
                           benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
    state.counters["contin_per_iter"] =
        static_cast<double>(after.continuations - before.continuations) * perIter;
    state.counters["contention_per_iter"] =
        static_cast<double>(after.tokenContention - before.tokenContention) * perIter;
    state.counters["parks_per_iter"] = static_cast<double>(after.parks - before.parks) * perIter;
}

/// Warm-up job that marks itself done and checks its predecessors are done.
struct CheckedJob {
    std::atomic<bool>* done;
    const std::uint32_t* predBegin;  // null: chain, the predecessor is node - 1 (or none)
    const std::uint32_t* preds;
    std::uint32_t node;
    std::uint32_t width;
    std::atomic<bool>* failed;

    void operator()() const {
        if (predBegin) {
            // Layer 0 has an empty range, so the base is never used there.
            for (std::uint32_t e = predBegin[node]; e < predBegin[node + 1]; ++e) {
                const std::uint32_t p = (node / width - 1) * width + preds[e];
                if (!done[p].load(std::memory_order_acquire)) failed->store(true);
            }
        } else if (node > 0 && !done[node - 1].load(std::memory_order_acquire)) {
            failed->store(true);
        }
        done[node].store(true, std::memory_order_release);
    }
};
// Fits the record's inline storage, like the empty job: no allocation in either.
static_assert(detail::InlineTask::fitsInline<CheckedJob>());

void BM_Sched_Independent(benchmark::State& state) {
    runSched(
        state, [](Scheduler& s) { postIndependent(s, kEmpty); },
        [](Scheduler& s, std::string&) { return postIndependent(s, kEmpty); });
}

void BM_Sched_Chain(benchmark::State& state) {
    std::unique_ptr<std::atomic<bool>[]> done(new std::atomic<bool>[kChainJobs]());
    std::atomic<bool> failed{false};
    runSched(
        state, [](Scheduler& s) { postChain(s, [](std::size_t) { return kEmpty; }); },
        [&](Scheduler& s, std::string& err) {
            const std::size_t n = postChain(s, [&](std::size_t i) {
                return CheckedJob{done.get(), nullptr, nullptr, static_cast<std::uint32_t>(i),
                                  1,          &failed};
            });
            if (!s.drainFor(kHangLimit)) return n;
            if (failed.load()) err = "chain ran a job before its predecessor";
            return n;
        });
}

void BM_Sched_FanOutIn(benchmark::State& state) {
    runSched(
        state, [](Scheduler& s) { postFanOutIn(s, kEmpty); },
        [](Scheduler& s, std::string&) { return postFanOutIn(s, kEmpty); });
}

void BM_Sched_LayeredDag(benchmark::State& state) {
    const LayeredDag& dag = benchDag();
    std::unique_ptr<std::atomic<bool>[]> done(new std::atomic<bool>[dag.nodes()]());
    std::atomic<bool> failed{false};
    runSched(
        state, [&](Scheduler& s) { postLayeredDag(s, dag, [](std::size_t) { return kEmpty; }); },
        [&](Scheduler& s, std::string& err) {
            const std::size_t n = postLayeredDag(s, dag, [&](std::size_t i) {
                return CheckedJob{done.get(),
                                  dag.predBegin.data(),
                                  dag.preds.data(),
                                  static_cast<std::uint32_t>(i),
                                  static_cast<std::uint32_t>(dag.width),
                                  &failed};
            });
            if (!s.drainFor(kHangLimit)) return n;
            if (failed.load()) err = "layered DAG ran a job before a predecessor";
            return n;
        });
    state.counters["edges"] = static_cast<double>(dag.edges());
}

/// Posts into PostBatches of `chunk` jobs, submitting each as it fills (0: one batch for
/// the whole graph). A predecessor in an earlier chunk is an ordinary submitted job.
class ChunkedBatch {
  public:
    ChunkedBatch(Scheduler& s, std::size_t chunk, std::size_t jobs)
        : sched_(s), chunk_(chunk == 0 ? jobs : chunk), batch_(s.batch(chunk_)) {}
    template <class F, class... Preds>
    JobHandle post(F&& work, const JobOptions& opts = {}, Preds&&... preds) {
        JobHandle h = batch_.post(std::forward<F>(work), opts, std::forward<Preds>(preds)...);
        if (batch_.size() == chunk_) nextChunk();
        return h;
    }
    template <class F>
    void postDetached(F&& work) {
        batch_.postDetached(std::forward<F>(work));
        if (batch_.size() == chunk_) nextChunk();
    }
    void submit() { batch_.submit(); }

  private:
    void nextChunk() {
        batch_.submit();
        batch_ = sched_.batch(chunk_);
    }
    Scheduler& sched_;
    std::size_t chunk_;
    PostBatch batch_;
};

/// The same graphs posted through PostBatches (post + submit + drain timed; range(0): jobs
/// per batch, 0 = the whole graph in one), with the same accounting check; ordering is
/// checked by the single-post twins above.
template <class Post>
void runBatched(benchmark::State& state, std::size_t jobs, Post&& post) {
    const auto chunk = static_cast<std::size_t>(state.range(0));
    const auto batched = [&](Scheduler& s) {
        ChunkedBatch batch(s, chunk, jobs);
        const std::size_t n = post(batch);
        batch.submit();
        return n;
    };
    runSched(
        state, [&](Scheduler& s) { batched(s); },
        [&](Scheduler& s, std::string&) { return batched(s); });
}

void BM_Sched_BatchIndependent(benchmark::State& state) {
    runBatched(state, kIndependentJobs, [](auto& b) { return postIndependent(b, kEmpty); });
}

void BM_Sched_BatchChain(benchmark::State& state) {
    runBatched(state, kChainJobs,
               [](auto& b) { return postChain(b, [](std::size_t) { return kEmpty; }); });
}

void BM_Sched_BatchFanOutIn(benchmark::State& state) {
    runBatched(state, kFanJobs, [](auto& b) { return postFanOutIn(b, kEmpty); });
}

void BM_Sched_BatchLayeredDag(benchmark::State& state) {
    const LayeredDag& dag = benchDag();
    runBatched(state, dag.nodes(),
               [&](auto& b) { return postLayeredDag(b, dag, [](std::size_t) { return kEmpty; }); });
}

// ---------------------------------------------------------------------------------------
// oneTBB flow graph. Nodes live in a deque (continue_node is not movable); the graph is
// declared first so it outlives its nodes.

template <class Body>
std::size_t tbbIndependent(const Body& body) {
    tbb::flow::graph g;
    std::deque<TbbNode> nodes;
    for (std::size_t i = 0; i < kIndependentJobs; ++i)
        nodes.emplace_back(g, body);
    for (TbbNode& n : nodes)
        n.try_put(continue_msg{});
    g.wait_for_all();
    return kIndependentJobs;
}

template <class Body>
std::size_t tbbChain(const Body& body) {
    tbb::flow::graph g;
    std::deque<TbbNode> nodes;
    nodes.emplace_back(g, body);
    for (std::size_t i = 1; i < kChainJobs; ++i) {
        nodes.emplace_back(g, body);
        tbb::flow::make_edge(nodes[i - 1], nodes[i]);
    }
    nodes.front().try_put(continue_msg{});
    g.wait_for_all();
    return kChainJobs;
}

template <class Body>
std::size_t tbbFanOutIn(const Body& body) {
    tbb::flow::graph g;
    std::deque<TbbNode> nodes;
    TbbNode* sink = nullptr;
    TbbNode* first = nullptr;
    for (std::size_t r = 0; r < kFanReps; ++r) {
        TbbNode& src = nodes.emplace_back(g, body);
        if (sink) tbb::flow::make_edge(*sink, src);
        if (!first) first = &src;
        const std::size_t midBegin = nodes.size();
        for (std::size_t w = 0; w < kFanWidth; ++w) {
            tbb::flow::make_edge(src, nodes.emplace_back(g, body));
        }
        sink = &nodes.emplace_back(g, body);
        for (std::size_t w = 0; w < kFanWidth; ++w)
            tbb::flow::make_edge(nodes[midBegin + w], *sink);
    }
    first->try_put(continue_msg{});
    g.wait_for_all();
    return kFanJobs;
}

template <class Body>
std::size_t tbbLayeredDag(const LayeredDag& dag, const Body& body) {
    tbb::flow::graph g;
    std::deque<TbbNode> nodes;
    for (std::size_t n = 0; n < dag.nodes(); ++n) {
        TbbNode& node = nodes.emplace_back(g, body);
        if (n < dag.width) continue;
        const std::size_t base = (n / dag.width - 1) * dag.width;
        for (std::uint32_t e = dag.predBegin[n]; e < dag.predBegin[n + 1]; ++e)
            tbb::flow::make_edge(nodes[base + dag.preds[e]], node);
    }
    for (std::size_t k = 0; k < dag.width; ++k)
        nodes[k].try_put(continue_msg{});
    g.wait_for_all();
    return dag.nodes();
}

/// Common driver: the arena (kThreads slots, one is the calling thread) is created outside
/// the timed region, like the Scheduler; the warm-up counts executions.
template <class Build>
void runTbb(benchmark::State& state, Build&& build) {
    tbb::task_arena arena(static_cast<int>(kThreads));
    arena.initialize();
    std::atomic<std::size_t> ran{0};
    const auto counting = [&ran](const continue_msg&) {
        ran.fetch_add(1, std::memory_order_relaxed);
        return continue_msg{};
    };
    std::size_t jobs = 0;
    arena.execute([&] { jobs = build(counting); });
    if (ran.load() != jobs) return state.SkipWithError("TBB warm-up ran a wrong node count");

    for (auto _ : state)
        arena.execute([&] { build(kTbbEmpty); });
    const auto total = static_cast<std::uint64_t>(state.iterations()) * jobs;
    state.SetItemsProcessed(static_cast<std::int64_t>(total));
    state.counters["s_per_job"] = benchmark::Counter(
        static_cast<double>(total), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_Tbb_Independent(benchmark::State& state) {
    runTbb(state, [](const auto& body) { return tbbIndependent(body); });
}
void BM_Tbb_Chain(benchmark::State& state) {
    runTbb(state, [](const auto& body) { return tbbChain(body); });
}
void BM_Tbb_FanOutIn(benchmark::State& state) {
    runTbb(state, [](const auto& body) { return tbbFanOutIn(body); });
}
void BM_Tbb_LayeredDag(benchmark::State& state) {
    runTbb(state, [](const auto& body) { return tbbLayeredDag(benchDag(), body); });
}

// Each iteration is 20-200 ms; MinTime keeps each benchmark near a second on a slow box.
#define PULLSCHED_GRAPH_BENCH(fn)       \
    BENCHMARK(fn)                       \
        ->UseRealTime()                 \
        ->MeasureProcessCPUTime()       \
        ->Unit(benchmark::kMillisecond) \
        ->MinTime(0.5)

PULLSCHED_GRAPH_BENCH(BM_Sched_Independent);
PULLSCHED_GRAPH_BENCH(BM_Sched_BatchIndependent)->ArgName("chunk")->Arg(0)->Arg(1024);
PULLSCHED_GRAPH_BENCH(BM_Tbb_Independent);
PULLSCHED_GRAPH_BENCH(BM_Sched_Chain);
PULLSCHED_GRAPH_BENCH(BM_Sched_BatchChain)->ArgName("chunk")->Arg(0)->Arg(1024);
PULLSCHED_GRAPH_BENCH(BM_Tbb_Chain);
PULLSCHED_GRAPH_BENCH(BM_Sched_FanOutIn);
PULLSCHED_GRAPH_BENCH(BM_Sched_BatchFanOutIn)->ArgName("chunk")->Arg(0)->Arg(1024);
PULLSCHED_GRAPH_BENCH(BM_Tbb_FanOutIn);
PULLSCHED_GRAPH_BENCH(BM_Sched_LayeredDag);
PULLSCHED_GRAPH_BENCH(BM_Sched_BatchLayeredDag)->ArgName("chunk")->Arg(0)->Arg(1024);
PULLSCHED_GRAPH_BENCH(BM_Tbb_LayeredDag);

}  // namespace
}  // namespace pullsched::bench
