// Scheduler cost per job on small and wide graphs, pullsched vs oneTBB flow graph: the
// graphs of the dispatch-path issue, each in two variants.
//
//   BM_<lib>_Post_<graph>  posting timed: the whole graph is posted/built, run, waited for
//                          and torn down inside the timed region (like GraphBench.cpp).
//   BM_Sched_Batch_<graph> the same with the whole graph posted as one PostBatch; its
//                          twin is BM_Tbb_Post_<graph> too (build + run).
//   BM_<lib>_Exec_<graph>  execution only: the graph is posted/built behind a gate node
//                          that every root depends on; only opening the gate and waiting
//                          for the graph are timed (manual time).
//   BM_Sched_BatchExec_<graph>  execution of a prebuilt graph, pullsched's way: the graph
//                          is built into a PostBatch outside the timed span; submit() and
//                          drain() (the caller helping) are timed. Its twin is BM_Tbb_Exec.
//
// pullsched's gate is an ordinary job whose start lies 10 s ahead on an injected clock
// (the steady clock plus an offset). Opening it moves the clock by 10 s and calls
// Scheduler::wake(), so nothing can run before posting completes and no worker is held
// back by a waiting job. TBB's gate is a continue_node with an edge to every root,
// opened with try_put. Both count the gate as overhead, not as a job.
//
// Every benchmark first runs its graph once, untimed, through the same path with checking
// bodies: every node must run exactly once and after all its predecessors (and the gate).

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include <benchmark/benchmark.h>
#include <oneapi/tbb/flow_graph.h>
#include <oneapi/tbb/task_arena.h>

#include "BenchCommon.hpp"
#include "pullsched/scheduler/Scheduler.hpp"
#include "pullsched/testchain/Presets.hpp"
#include "pullsched/testchain/TestChainGraph.hpp"

namespace pullsched::bench {
namespace {

using tbb::flow::continue_msg;
using TbbNode = tbb::flow::continue_node<continue_msg>;

// ---------------------------------------------------------------------------------------
// Graphs: nodes in topological (index) order, predecessors as global indices.

struct Dag {
    std::uint32_t n = 0;
    std::vector<std::uint32_t> predBegin{0};  // preds of i: preds[predBegin[i]..predBegin[i+1])
    std::vector<std::uint32_t> preds;
    std::vector<std::uint32_t> roots;
    std::vector<bool> hasSucc;  // needs a handle (pullsched): somebody names it as predecessor

    std::span<const std::uint32_t> predsOf(std::uint32_t i) const {
        return {preds.data() + predBegin[i], predBegin[i + 1] - predBegin[i]};
    }
    void addNode(std::span<const std::uint32_t> ps) {
        if (ps.empty()) roots.push_back(n);
        for (const std::uint32_t p : ps) {
            preds.push_back(p);
            hasSucc[p] = true;
        }
        ++n;
        hasSucc.push_back(false);
        predBegin.push_back(static_cast<std::uint32_t>(preds.size()));
    }
};

Dag testChainDag(const char* preset, std::size_t nodes) {
    const auto g = testchain::TestChainGraph::generate(testchain::preset(preset), nodes);
    Dag d;
    for (const auto& node : g.nodes())
        d.addNode(node.predecessors().span());
    return d;
}

Dag isolatedDag(std::uint32_t n) {
    Dag d;
    for (std::uint32_t i = 0; i < n; ++i)
        d.addNode({});
    return d;
}

Dag chainDag(std::uint32_t n) {
    Dag d;
    d.addNode({});
    for (std::uint32_t i = 1; i < n; ++i) {
        const std::uint32_t p = i - 1;
        d.addNode({&p, 1});
    }
    return d;
}

/// Row-major w x h grid; each node after its left and its upper neighbour.
Dag gridDag(std::uint32_t w, std::uint32_t h) {
    Dag d;
    for (std::uint32_t y = 0; y < h; ++y) {
        for (std::uint32_t x = 0; x < w; ++x) {
            std::uint32_t ps[2];
            std::size_t k = 0;
            if (x > 0) ps[k++] = y * w + x - 1;
            if (y > 0) ps[k++] = (y - 1) * w + x;
            d.addNode({ps, k});
        }
    }
    return d;
}

/// 1 -> width -> 1.
Dag fanDag(std::uint32_t width) {
    Dag d;
    d.addNode({});
    const std::uint32_t src = 0;
    std::vector<std::uint32_t> mids;
    for (std::uint32_t i = 0; i < width; ++i) {
        mids.push_back(d.n);
        d.addNode({&src, 1});
    }
    d.addNode(mids);
    return d;
}

enum class GraphId {
    Burst16,
    Burst64,
    Burst1024,
    Stationary256,
    Chains1024,
    Isolated10k,
    Chain10k,
    Grid100x100,
    Fan1000,
};

/// Built once per process, outside any timing.
const Dag& dagOf(GraphId id) {
    static const Dag dags[] = {
        testChainDag("burst", 16),
        testChainDag("burst", 64),
        testChainDag("burst", 1024),
        testChainDag("stationary", 256),
        testChainDag("chains", 1024),
        isolatedDag(10'000),
        chainDag(10'000),
        gridDag(100, 100),
        fanDag(1000),
    };
    return dags[static_cast<int>(id)];
}

// ---------------------------------------------------------------------------------------
// Warm-up check, the same for both libraries: exactly once, after every predecessor and
// (for roots) after the gate.

struct Check {
    const Dag& dag;
    std::unique_ptr<std::atomic<std::uint32_t>[]> runs;
    std::atomic<bool> gateOpen{false};
    std::atomic<bool> badOrder{false};

    explicit Check(const Dag& d) : dag(d), runs(new std::atomic<std::uint32_t>[d.n]()) {}

    void visit(std::uint32_t i) {
        const auto ps = dag.predsOf(i);
        if (ps.empty() && !gateOpen.load(std::memory_order_acquire)) badOrder.store(true);
        for (const std::uint32_t p : ps)
            if (runs[p].load(std::memory_order_acquire) != 1) badOrder.store(true);
        runs[i].fetch_add(1, std::memory_order_acq_rel);
    }
    std::string verdict() const {
        for (std::uint32_t i = 0; i < dag.n; ++i) {
            const auto r = runs[i].load();
            if (r != 1) return "node " + std::to_string(i) + " ran " + std::to_string(r) + " times";
        }
        return badOrder.load() ? "a node ran before a predecessor or the gate" : "";
    }
};

struct CheckedNode {
    Check* check;
    std::uint32_t node;
    void operator()() const { check->visit(node); }
};
static_assert(detail::InlineTask::fitsInline<CheckedNode>());

// ---------------------------------------------------------------------------------------
// pullsched

/// Steady clock plus an offset that only grows: opening a gate moves it forward.
class GateClock final : public ClockSource {
  public:
    TimePoint now() const noexcept override {
        return SteadyClock::now() + Duration{offset_.load(std::memory_order_acquire)};
    }
    void jump(Duration d) noexcept { offset_.fetch_add(d.count(), std::memory_order_acq_rel); }

  private:
    std::atomic<std::int64_t> offset_{0};
};

/// Far beyond the idle horizon (workers park, one tends) and any posting time.
constexpr Duration kGateLead = std::chrono::seconds(10);

/// The gate job: records whether it ran before the poster opened it (posting unfinished).
struct GateJob {
    const std::atomic<bool>* opened;
    std::atomic<bool>* early;
    Check* check;                                // warm-up only
    std::atomic<std::int64_t>* ranAt = nullptr;  // steady-clock ticks when it ran (Exec)
    void operator()() const {
        if (ranAt)
            ranAt->store(SteadyClock::now().time_since_epoch().count(), std::memory_order_relaxed);
        if (!opened->load(std::memory_order_acquire)) early->store(true);
        if (check) check->gateOpen.store(true, std::memory_order_release);
    }
};

/// Posts `dag` in index order; roots get `gate` as their one predecessor if given. Handles
/// are kept only for nodes with successors, and moved (not copied: no reference-count
/// traffic) into a contiguous scratch list for each post. `s`: the Scheduler, or a
/// PostBatch of it (the same calls).
template <class Poster, class JobFor>
void postDag(Poster& s, const Dag& dag, std::vector<JobHandle>& h, std::vector<JobHandle>& scratch,
             const JobHandle* gate, JobFor&& jobFor) {
    for (std::uint32_t i = 0; i < dag.n; ++i) {
        const auto ps = dag.predsOf(i);
        std::span<const JobHandle> preds;
        if (ps.empty()) {
            if (gate) preds = {gate, 1};
        } else {
            for (std::size_t k = 0; k < ps.size(); ++k)
                scratch[k] = std::move(h[ps[k]]);
            preds = {scratch.data(), ps.size()};
        }
        if (dag.hasSucc[i]) {
            h[i] = s.post(jobFor(i), {}, preds);
        } else {
            s.postDetached(jobFor(i), {}, preds);
        }
        for (std::size_t k = 0; k < ps.size(); ++k)
            h[ps[k]] = std::move(scratch[k]);
    }
}

std::size_t maxPreds(const Dag& dag) {
    std::size_t m = 1;
    for (std::uint32_t i = 0; i < dag.n; ++i)
        m = std::max<std::size_t>(m, dag.predsOf(i).size());
    return m;
}

/// Involuntary context switches of the calling (posting) thread.
struct ThreadUsage {
    double invol = 0;
    static ThreadUsage now() {
        rusage ru{};
        getrusage(RUSAGE_THREAD, &ru);
        return {static_cast<double>(ru.ru_nivcsw)};
    }
};

/// Both libraries: jobs per graph, and timed wall time per job (the figure compared).
void jobCounters(benchmark::State& state, double jobs, double timedNs) {
    state.counters["jobs"] = jobs;
    state.counters["ns_per_job"] = timedNs / (jobs * static_cast<double>(state.iterations()));
}

/// The median iteration's ns per job: a mean over iterations follows the few that lost
/// their core on a busy machine, the median what an iteration usually costs.
void medianCounter(benchmark::State& state, double jobs, std::vector<double>& iterationNs) {
    if (iterationNs.empty()) return;
    const auto mid = iterationNs.begin() + static_cast<std::ptrdiff_t>(iterationNs.size() / 2);
    std::nth_element(iterationNs.begin(), mid, iterationNs.end());
    state.counters["median_ns_per_job"] = *mid / jobs;
}

void schedCounters(benchmark::State& state, const Statistics& d) {
    const double iters = static_cast<double>(state.iterations());
    const auto per = [&](std::uint64_t v) { return static_cast<double>(v) / iters; };
    state.counters["wakeups"] = per(d.wakeups);  // futex wakes sent to parked workers
    state.counters["parks"] = per(d.parks);
    state.counters["contin"] = per(d.continuations);
    state.counters["steals"] = per(d.steals);
    state.counters["token_acq"] = per(d.tokenAcquisitions);
    state.counters["token_cont"] = per(d.tokenContention);
    state.counters["backoff_sleeps"] = per(d.backoffSleeps);
    state.counters["moves"] = per(d.spreadMoves);
    state.counters["steers"] = per(d.spreadSteers);
}

Statistics minus(const Statistics& a, const Statistics& b) {
    Statistics d;
    d.completed = a.completed - b.completed;
    d.wakeups = a.wakeups - b.wakeups;
    d.parks = a.parks - b.parks;
    d.continuations = a.continuations - b.continuations;
    d.steals = a.steals - b.steals;
    d.tokenAcquisitions = a.tokenAcquisitions - b.tokenAcquisitions;
    d.tokenContention = a.tokenContention - b.tokenContention;
    d.backoffSleeps = a.backoffSleeps - b.backoffSleeps;
    d.spreadMoves = a.spreadMoves - b.spreadMoves;
    d.spreadSteers = a.spreadSteers - b.spreadSteers;
    return d;
}

void add(Statistics& sum, const Statistics& d) {
    sum.completed += d.completed;
    sum.wakeups += d.wakeups;
    sum.parks += d.parks;
    sum.continuations += d.continuations;
    sum.steals += d.steals;
    sum.tokenAcquisitions += d.tokenAcquisitions;
    sum.tokenContention += d.tokenContention;
    sum.backoffSleeps += d.backoffSleeps;
    sum.spreadMoves += d.spreadMoves;
    sum.spreadSteers += d.spreadSteers;
}

/// PULLSCHED_BENCH_REST_US=N: every Exec-style run (Exec, BatchExec, TBB's Exec) sleeps N us
/// untimed before its timed span, so its workers have gone to sleep (about 2000 is enough):
/// the start then includes waking one. Unset: back to back, the workers still spinning.
void restBeforeRun() {
    static const long restUs = [] {
        const char* env = std::getenv("PULLSCHED_BENCH_REST_US");
        return env ? std::strtol(env, nullptr, 10) : 0L;
    }();
    if (restUs > 0) std::this_thread::sleep_for(std::chrono::microseconds(restUs));
}

/// Posts the whole graph one job at a time (Post) or as one batch (Batch).
enum class Posting { Single, Batch };

template <class JobFor>
void postGraph(Posting how, Scheduler& sched, const Dag& dag, std::vector<JobHandle>& h,
               std::vector<JobHandle>& scratch, JobFor&& jobFor) {
    if (how == Posting::Single) {
        postDag(sched, dag, h, scratch, nullptr, jobFor);
    } else {
        PostBatch batch = sched.batch(dag.n);
        postDag(batch, dag, h, scratch, nullptr, jobFor);
        batch.submit();
    }
    std::ranges::fill(h, JobHandle{});
}

/// Post (or batch) + run, timed together: the twin of TBB's build + run (BM_Tbb_Post).
void runPosted(benchmark::State& state, GraphId id, Posting how) {
    const Dag& dag = dagOf(id);
    Scheduler sched(benchConfig());
    std::vector<JobHandle> h(dag.n), scratch(maxPreds(dag));
    {
        Check check(dag);
        check.gateOpen = true;
        postGraph(how, sched, dag, h, scratch, [&](std::uint32_t i) {
            return CheckedNode{&check, i};
        });
        if (!sched.drainFor(kHangLimit)) return state.SkipWithError("warm-up did not drain");
        if (const auto err = check.verdict(); !err.empty()) return state.SkipWithError(err.c_str());
    }

    const Statistics before = sched.stats();
    const ThreadUsage u0 = ThreadUsage::now();
    double postNs = 0, wallNs = 0;
    for (auto _ : state) {
        const auto t0 = SteadyClock::now();
        postGraph(how, sched, dag, h, scratch, [](std::uint32_t) { return [] {}; });
        const auto t1 = SteadyClock::now();
        if (!sched.drainFor(kHangLimit)) return state.SkipWithError("drainFor(10s) failed");
        postNs += static_cast<double>((t1 - t0).count());
        wallNs += static_cast<double>((SteadyClock::now() - t0).count());
    }
    const ThreadUsage u1 = ThreadUsage::now();
    const Statistics d = minus(sched.stats(), before);
    const double iters = static_cast<double>(state.iterations());
    if (d.completed != static_cast<std::uint64_t>(state.iterations()) * dag.n ||
        !sched.stats().balanced())
        return state.SkipWithError("completed count does not match posted jobs");
    jobCounters(state, dag.n, wallNs);
    schedCounters(state, d);
    // How long the poster takes to post, and how often it lost its core meanwhile (it
    // competes with 2 workers for 2 cores; waiting in drain is a voluntary switch).
    state.counters["post_ns_per_job"] = postNs / (iters * dag.n);
    state.counters["poster_invol_cs"] = (u1.invol - u0.invol) / iters;
}

void BM_Sched_Post(benchmark::State& state, GraphId id) {
    runPosted(state, id, Posting::Single);
}

/// The whole graph as one PostBatch: submit() publishes it.
void BM_Sched_Batch(benchmark::State& state, GraphId id) {
    runPosted(state, id, Posting::Batch);
}

/// About 1 us of spinning; counts the jobs a thread helping in drain() ran.
struct BusyJob {
    const Scheduler* sched;
    std::atomic<std::uint64_t>* onCaller;
    void operator()() const {
        const auto end = SteadyClock::now() + std::chrono::microseconds(1);
        while (SteadyClock::now() < end)
            benchmark::ClobberMemory();
        if (const auto t = sched->threadIndex(); t && *t >= sched->workerCount())
            onCaller->fetch_add(1, std::memory_order_relaxed);
    }
};

/// Nodes on the longest path of `dag` (its nodes are in topological order).
std::uint32_t criticalPath(const Dag& dag) {
    std::vector<std::uint32_t> depth(dag.n, 1);
    std::uint32_t longest = 0;
    for (std::uint32_t i = 0; i < dag.n; ++i) {
        for (const std::uint32_t p : dag.predsOf(i))
            depth[i] = std::max(depth[i], depth[p] + 1);
        longest = std::max(longest, depth[i]);
    }
    return longest;
}

/// Single posts + drain() with ~1 us bodies, as a user who never configured anything
/// writes it: the study behind the default worker count (PULLSCHED_BENCH_WORKERS and
/// PULLSCHED_BENCH_HELP choose the setting). `efficiency`: max(work / 2 CPUs, critical
/// path) over the median iteration's wall time; `caller_share`: the jobs the thread in
/// drain() ran.
void BM_Sched_Post1us(benchmark::State& state, GraphId id) {
    const Dag& dag = dagOf(id);
    Scheduler sched(benchConfig());
    std::vector<JobHandle> h(dag.n), scratch(maxPreds(dag));
    std::atomic<std::uint64_t> onCaller{0};
    const BusyJob job{&sched, &onCaller};
    const Statistics before = sched.stats();
    std::vector<double> iterationNs;
    for (auto _ : state) {
        const auto t0 = SteadyClock::now();
        postGraph(Posting::Single, sched, dag, h, scratch, [&](std::uint32_t) { return job; });
        if (!sched.drainFor(kHangLimit)) return state.SkipWithError("drainFor(10s) failed");
        iterationNs.push_back(static_cast<double>((SteadyClock::now() - t0).count()));
    }
    const Statistics d = minus(sched.stats(), before);
    const double iters = static_cast<double>(state.iterations());
    if (d.completed != static_cast<std::uint64_t>(state.iterations()) * dag.n ||
        !sched.stats().balanced())
        return state.SkipWithError("completed count does not match posted jobs");
    medianCounter(state, dag.n, iterationNs);
    const double idealNs = std::max(dag.n * 1000.0 / kThreads, criticalPath(dag) * 1000.0);
    state.counters["efficiency"] = idealNs / (state.counters["median_ns_per_job"] * dag.n);
    state.counters["caller_share"] = static_cast<double>(onCaller.load()) / (iters * dag.n);
    schedCounters(state, d);
}

void BM_Sched_Exec(benchmark::State& state, GraphId id) {
    const Dag& dag = dagOf(id);
    GateClock clock;
    SchedulerConfig cfg = benchConfig();
    cfg.clock = &clock;
    Scheduler sched(cfg);
    std::vector<JobHandle> h(dag.n), scratch(maxPreds(dag));
    std::atomic<bool> opened{false}, early{false};
    std::atomic<std::int64_t> gateRan{0};
    double gateNs = 0;  // from opening until the gate job ran: the wake-up's share

    // Posts the gated graph, opens the gate, drains. Returns the nanoseconds from opening
    // to drained (-1 on a hang) and adds the counters of that span to `d`.
    Statistics d;
    const auto once = [&](auto&& jobFor, Check* check) -> double {
        opened.store(false);
        const JobHandle gate = sched.post(GateJob{&opened, &early, check, &gateRan},
                                          {.start = sched.now() + kGateLead});
        postDag(sched, dag, h, scratch, &gate, jobFor);
        std::ranges::fill(h, JobHandle{});
        restBeforeRun();
        const Statistics s0 = sched.stats();
        opened.store(true, std::memory_order_release);
        const auto t0 = SteadyClock::now();
        clock.jump(kGateLead);
        sched.wake();
        if (!sched.drainFor(kHangLimit)) return -1;
        const auto t1 = SteadyClock::now();
        add(d, minus(sched.stats(), s0));
        gateNs += static_cast<double>(gateRan.load() - t0.time_since_epoch().count());
        return static_cast<double>((t1 - t0).count());
    };
    {
        Check check(dag);
        if (once([&](std::uint32_t i) { return CheckedNode{&check, i}; }, &check) < 0)
            return state.SkipWithError("warm-up did not drain");
        if (const auto err = check.verdict(); !err.empty()) return state.SkipWithError(err.c_str());
    }

    d = Statistics{};
    gateNs = 0;
    double timedNs = 0;
    std::vector<double> iterationNs;
    for (auto _ : state) {
        const double ns = once([](std::uint32_t) { return [] {}; }, nullptr);
        if (ns < 0) return state.SkipWithError("drainFor(10s) failed");
        timedNs += ns;
        iterationNs.push_back(ns);
        state.SetIterationTime(ns * 1e-9);
    }
    medianCounter(state, dag.n, iterationNs);
    if (early.load()) return state.SkipWithError("the gate ran before posting completed");
    state.counters["gate_ns"] = gateNs / static_cast<double>(state.iterations());
    if (d.completed != static_cast<std::uint64_t>(state.iterations()) * (dag.n + 1) ||
        !sched.stats().balanced())
        return state.SkipWithError("completed count does not match posted jobs");
    jobCounters(state, dag.n, timedNs);
    schedCounters(state, d);
}

/// A prebuilt graph run, pullsched's way: the graph is built into a PostBatch outside the
/// timed span (one per iteration: a batch is submitted once), then submit() and drain()
/// are timed; the caller helps in drain(), as oneTBB's caller works in wait_for_all.
void BM_Sched_BatchExec(benchmark::State& state, GraphId id) {
    const Dag& dag = dagOf(id);
    Scheduler sched(benchConfig());
    std::vector<JobHandle> h(dag.n), scratch(maxPreds(dag));
    const auto build = [&](auto&& jobFor) {
        PostBatch batch = sched.batch(dag.n);
        postDag(batch, dag, h, scratch, nullptr, jobFor);
        std::ranges::fill(h, JobHandle{});
        return batch;
    };
    {
        Check check(dag);
        check.gateOpen = true;  // no gate: submit() is the start
        PostBatch batch = build([&](std::uint32_t i) { return CheckedNode{&check, i}; });
        batch.submit();
        if (!sched.drainFor(kHangLimit)) return state.SkipWithError("warm-up did not drain");
        if (const auto err = check.verdict(); !err.empty()) return state.SkipWithError(err.c_str());
    }
    Statistics d;
    double timedNs = 0;
    std::vector<double> iterationNs;
    for (auto _ : state) {
        PostBatch batch = build([](std::uint32_t) { return [] {}; });
        restBeforeRun();
        const Statistics s0 = sched.stats();
        const auto t0 = SteadyClock::now();
        batch.submit();
        sched.drain();
        const auto t1 = SteadyClock::now();
        add(d, minus(sched.stats(), s0));
        const auto ns = static_cast<double>((t1 - t0).count());
        timedNs += ns;
        iterationNs.push_back(ns);
        state.SetIterationTime(ns * 1e-9);
    }
    if (d.completed != static_cast<std::uint64_t>(state.iterations()) * dag.n ||
        !sched.stats().balanced())
        return state.SkipWithError("completed count does not match posted jobs");
    medianCounter(state, dag.n, iterationNs);
    jobCounters(state, dag.n, timedNs);
    schedCounters(state, d);
}

/// Diagnostic, pullsched only: the graph behind a gate with a real start 2 ms + 1.5 us/job ahead,
/// the way the rig starts graphs. The tender runs the gate and releases the roots while the other
/// worker is parked, which the Exec variant (wake() wakes both) never shows. Timed from the gate
/// job's start to drained; fixed iterations, as each waits for its start.
void BM_Sched_Timed(benchmark::State& state, GraphId id) {
    const Dag& dag = dagOf(id);
    Scheduler sched(benchConfig());
    std::vector<JobHandle> h(dag.n), scratch(maxPreds(dag));
    std::atomic<bool> opened{false}, early{false};
    std::atomic<std::int64_t> gateRan{0};
    // Posting must end before the start; 1.5 us per job allows for a loaded machine.
    const Duration lead = std::chrono::milliseconds(2) + dag.n * std::chrono::nanoseconds(1500);
    struct TimedGate {
        GateJob gate;
        std::atomic<std::int64_t>* ran;
        void operator()() const {
            ran->store(SteadyClock::now().time_since_epoch().count(), std::memory_order_relaxed);
            gate();
        }
    };
    Statistics d;
    std::int64_t startNs = 0;
    double lateNs = 0, tailNs = 0;
    std::atomic<std::int64_t> lastEnd{0};
    const auto once = [&](auto&& jobFor, Check* check) -> double {
        opened.store(false);
        const TimePoint startAt = sched.now() + lead;
        const JobHandle gate =
            sched.post(TimedGate{{&opened, &early, check}, &gateRan}, {.start = startAt});
        startNs = startAt.time_since_epoch().count();
        postDag(sched, dag, h, scratch, &gate, jobFor);
        std::ranges::fill(h, JobHandle{});
        opened.store(true, std::memory_order_release);
        const Statistics s0 = sched.stats();
        if (!sched.drainFor(kHangLimit)) return -1;
        const auto t1 = SteadyClock::now().time_since_epoch().count();
        add(d, minus(sched.stats(), s0));
        lateNs += static_cast<double>(gateRan.load() - startNs);
        tailNs += static_cast<double>(t1 - lastEnd.load());  // meaningful with the tail bodies
        return static_cast<double>(t1 - gateRan.load());
    };
    {
        Check check(dag);
        if (once([&](std::uint32_t i) { return CheckedNode{&check, i}; }, &check) < 0)
            return state.SkipWithError("warm-up did not drain");
        if (const auto err = check.verdict(); !err.empty()) return state.SkipWithError(err.c_str());
    }
    d = Statistics{};
    double timedNs = 0;
    lateNs = tailNs = 0;
    std::vector<double> iterationNs;
    // PULLSCHED_BENCH_TAIL=1: every job notes when it ended and whether the caller (helping
    // in drain()) ran it, for the counters tail_ns (last job's end to drain()'s return) and
    // caller_jobs; that costs a clock read per job, so the default bodies stay empty.
    const char* tailEnv = std::getenv("PULLSCHED_BENCH_TAIL");
    const bool tail = tailEnv && tailEnv[0] == '1';
    std::atomic<std::int64_t> onCaller{0};
    const std::thread::id caller = std::this_thread::get_id();
    for (auto _ : state) {
        const double ns =
            tail ? once(
                       [&](std::uint32_t) {
                           return [&lastEnd, &onCaller, caller] {
                               lastEnd.store(SteadyClock::now().time_since_epoch().count(),
                                             std::memory_order_relaxed);
                               if (std::this_thread::get_id() == caller)
                                   onCaller.fetch_add(1, std::memory_order_relaxed);
                           };
                       },
                       nullptr)
                 : once([](std::uint32_t) { return [] {}; }, nullptr);
        if (ns < 0) return state.SkipWithError("drainFor(10s) failed");
        timedNs += ns;
        iterationNs.push_back(ns);
        state.SetIterationTime(ns * 1e-9);
    }
    if (early.load()) return state.SkipWithError("the gate ran before posting completed");
    const auto iters = static_cast<double>(state.iterations());
    state.counters["late_ns"] = lateNs / iters;  // the gate's start to its run
    if (tail) {
        state.counters["tail_ns"] = tailNs / iters;
        state.counters["caller_jobs"] = static_cast<double>(onCaller.load()) / iters;
    }
    medianCounter(state, dag.n, iterationNs);
    jobCounters(state, dag.n, timedNs);
    schedCounters(state, d);
}

// ---------------------------------------------------------------------------------------
// oneTBB flow graph. Nodes live in a deque (continue_node is not movable); the graph is
// declared first so it outlives its nodes, and built inside the arena it runs in.

struct TbbDag {
    tbb::flow::graph g;
    std::deque<TbbNode> nodes;
    std::unique_ptr<TbbNode> gate;

    template <class BodyFor>
    TbbDag(const Dag& dag, BodyFor&& bodyFor, bool withGate) {
        for (std::uint32_t i = 0; i < dag.n; ++i) {
            TbbNode& node = nodes.emplace_back(g, bodyFor(i));
            for (const std::uint32_t p : dag.predsOf(i))
                tbb::flow::make_edge(nodes[p], node);
        }
        if (withGate) {
            gate = std::make_unique<TbbNode>(g, [](const continue_msg&) { return continue_msg{}; });
            for (const std::uint32_t r : dag.roots)
                tbb::flow::make_edge(*gate, nodes[r]);
        }
    }
    void start(const Dag& dag) {
        if (gate) {
            gate->try_put(continue_msg{});
        } else {
            for (const std::uint32_t r : dag.roots)
                nodes[r].try_put(continue_msg{});
        }
    }
    ~TbbDag() { g.wait_for_all(); }
};

constexpr auto kTbbEmpty = [](std::uint32_t) {
    return [](const continue_msg&) { return continue_msg{}; };
};

/// Warm-up with checking bodies through the same path as the timed runs.
std::string tbbWarmUp(tbb::task_arena& arena, const Dag& dag, bool withGate) {
    Check check(dag);
    arena.execute([&] {
        TbbDag t(
            dag,
            [&](std::uint32_t i) {
                return [&check, i](const continue_msg&) {
                    check.visit(i);
                    return continue_msg{};
                };
            },
            withGate);
        // TBB has no body on the gate here; roots see it open once it is put.
        check.gateOpen.store(true);
        t.start(dag);
        t.g.wait_for_all();
    });
    return check.verdict();
}

void BM_Tbb_Post(benchmark::State& state, GraphId id) {
    const Dag& dag = dagOf(id);
    tbb::task_arena arena(static_cast<int>(kThreads));
    arena.initialize();
    if (const auto err = tbbWarmUp(arena, dag, false); !err.empty())
        return state.SkipWithError(err.c_str());
    double wallNs = 0;
    for (auto _ : state) {
        const auto t0 = SteadyClock::now();
        arena.execute([&] {
            TbbDag t(dag, kTbbEmpty, false);
            t.start(dag);
            t.g.wait_for_all();
        });
        wallNs += static_cast<double>((SteadyClock::now() - t0).count());
    }
    jobCounters(state, dag.n, wallNs);
}

void BM_Tbb_Exec(benchmark::State& state, GraphId id) {
    const Dag& dag = dagOf(id);
    tbb::task_arena arena(static_cast<int>(kThreads));
    arena.initialize();
    if (const auto err = tbbWarmUp(arena, dag, true); !err.empty())
        return state.SkipWithError(err.c_str());
    double timedNs = 0;
    std::vector<double> iterationNs;
    for (auto _ : state) {
        double ns = 0;
        arena.execute([&] {
            TbbDag t(dag, kTbbEmpty, true);
            restBeforeRun();
            const auto t0 = SteadyClock::now();
            t.start(dag);
            t.g.wait_for_all();
            ns = static_cast<double>((SteadyClock::now() - t0).count());
        });
        timedNs += ns;
        iterationNs.push_back(ns);
        state.SetIterationTime(ns * 1e-9);
    }
    medianCounter(state, dag.n, iterationNs);  // as pullsched's Exec, BatchExec and Timed
    jobCounters(state, dag.n, timedNs);
}

// Timed work per benchmark. Untimed posting/building and warm-up come on top, so one
// process (16 benchmarks of one library) takes about 20-40 s on 2 busy cores.
constexpr double kMinTime = 0.5;

/// Run length: kMinTime, or exactly PULLSCHED_BENCH_ITERATIONS iterations if that is set
/// (for instruction counts under callgrind, where a time-based run length would make the
/// counts depend on valgrind's speed; this Google Benchmark has no `--benchmark_min_time=Nx`).
void runLength(benchmark::internal::Benchmark* b) {
    const char* env = std::getenv("PULLSCHED_BENCH_ITERATIONS");
    const long n = env ? std::strtol(env, nullptr, 10) : 0;
    if (n > 0) {
        b->Iterations(n);
    } else {
        b->MinTime(kMinTime);
    }
}

#define PULLSCHED_DISPATCH_BENCH(graph)                          \
    BENCHMARK_CAPTURE(BM_Sched_Post, graph, GraphId::graph)      \
        ->Name("BM_Sched_Post_" #graph)                          \
        ->UseRealTime()                                          \
        ->MeasureProcessCPUTime()                                \
        ->Unit(benchmark::kMicrosecond)                          \
        ->Apply(runLength);                                      \
    BENCHMARK_CAPTURE(BM_Sched_Batch, graph, GraphId::graph)     \
        ->Name("BM_Sched_Batch_" #graph)                         \
        ->UseRealTime()                                          \
        ->MeasureProcessCPUTime()                                \
        ->Unit(benchmark::kMicrosecond)                          \
        ->Apply(runLength);                                      \
    BENCHMARK_CAPTURE(BM_Tbb_Post, graph, GraphId::graph)        \
        ->Name("BM_Tbb_Post_" #graph)                            \
        ->UseRealTime()                                          \
        ->MeasureProcessCPUTime()                                \
        ->Unit(benchmark::kMicrosecond)                          \
        ->Apply(runLength);                                      \
    BENCHMARK_CAPTURE(BM_Sched_Exec, graph, GraphId::graph)      \
        ->Name("BM_Sched_Exec_" #graph)                          \
        ->UseManualTime()                                        \
        ->Unit(benchmark::kMicrosecond)                          \
        ->Apply(runLength);                                      \
    BENCHMARK_CAPTURE(BM_Tbb_Exec, graph, GraphId::graph)        \
        ->Name("BM_Tbb_Exec_" #graph)                            \
        ->UseManualTime()                                        \
        ->Unit(benchmark::kMicrosecond)                          \
        ->Apply(runLength);                                      \
    BENCHMARK_CAPTURE(BM_Sched_BatchExec, graph, GraphId::graph) \
        ->Name("BM_Sched_BatchExec_" #graph)                     \
        ->UseManualTime()                                        \
        ->Unit(benchmark::kMicrosecond)                          \
        ->Apply(runLength)

#define PULLSCHED_POST_1US_BENCH(graph)                        \
    BENCHMARK_CAPTURE(BM_Sched_Post1us, graph, GraphId::graph) \
        ->Name("BM_Sched_Post1us_" #graph)                     \
        ->UseRealTime()                                        \
        ->Unit(benchmark::kMicrosecond)                        \
        ->Apply(runLength)

#define PULLSCHED_TIMED_BENCH(graph)                         \
    BENCHMARK_CAPTURE(BM_Sched_Timed, graph, GraphId::graph) \
        ->Name("BM_Sched_Timed_" #graph)                     \
        ->UseManualTime()                                    \
        ->Unit(benchmark::kMicrosecond)                      \
        ->Iterations(100)

PULLSCHED_DISPATCH_BENCH(Burst16);
PULLSCHED_DISPATCH_BENCH(Burst64);
PULLSCHED_DISPATCH_BENCH(Burst1024);
PULLSCHED_DISPATCH_BENCH(Stationary256);
PULLSCHED_DISPATCH_BENCH(Chains1024);
PULLSCHED_DISPATCH_BENCH(Isolated10k);
PULLSCHED_DISPATCH_BENCH(Chain10k);
PULLSCHED_DISPATCH_BENCH(Grid100x100);
PULLSCHED_DISPATCH_BENCH(Fan1000);

PULLSCHED_POST_1US_BENCH(Burst64);
PULLSCHED_POST_1US_BENCH(Burst1024);
PULLSCHED_POST_1US_BENCH(Stationary256);
PULLSCHED_POST_1US_BENCH(Chains1024);
PULLSCHED_POST_1US_BENCH(Grid100x100);

PULLSCHED_TIMED_BENCH(Burst64);
PULLSCHED_TIMED_BENCH(Burst1024);
PULLSCHED_TIMED_BENCH(Stationary256);
PULLSCHED_TIMED_BENCH(Chains1024);
PULLSCHED_TIMED_BENCH(Isolated10k);
PULLSCHED_TIMED_BENCH(Chain10k);
PULLSCHED_TIMED_BENCH(Grid100x100);
PULLSCHED_TIMED_BENCH(Fan1000);

}  // namespace
}  // namespace pullsched::bench
