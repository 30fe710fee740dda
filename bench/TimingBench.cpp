// Time behaviour of pullsched at low load: start lateness of timed jobs, CPU used while
// idle, and how well busy jobs keep both workers occupied. One iteration each; the
// figures are counters (benchmark time is just the wall time of the run).

#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <benchmark/benchmark.h>
#include <oneapi/tbb/flow_graph.h>
#include <oneapi/tbb/task_arena.h>

#include "BenchCommon.hpp"
#include "pullsched/scheduler/Scheduler.hpp"

namespace pullsched::bench {
namespace {

using namespace std::chrono_literals;

double toUs(std::int64_t ns) {
    return static_cast<double>(ns) / 1000.0;
}

/// Settle a fresh scheduler the way a long-running one looks: it has run a job and is idle.
void settle(Scheduler& sched) {
    sched.post([] {});
    sched.drain();
    std::this_thread::sleep_for(10ms);
}

// ---------------------------------------------------------------------------------------
// Start lateness: one job per period, each posted `lead` ahead of its start; the job reads
// steady_clock first thing. Lateness = actual start - scheduled start. The poster sleeps
// between posts (sleep_until on an absolute grid), so load is one job per period.
// Args: lead in us, number of jobs. lead 1 ms is the case; 10 ms and 30 ms show the
// tend-next (> 5 ms) and park (> 20 ms) paths of the load controller.
void BM_Sched_StartLateness(benchmark::State& state) {
    const std::chrono::microseconds lead(state.range(0));
    const auto jobs = static_cast<std::size_t>(state.range(1));
    const auto period = lead + 1ms;
    Scheduler sched(benchConfig());
    settle(sched);
    std::vector<std::int64_t> lateNs(jobs, 0);
    // Control for OS noise: this thread's own sleep_until overshoot, with the same 1 us
    // timer slack the workers use. If it has the same tail, the tail is the machine's.
    std::vector<std::int64_t> osLateNs(jobs, 0);
    prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);

    for (auto _ : state) {
        const auto base = SteadyClock::now();
        for (std::size_t i = 0; i < jobs; ++i) {
            std::this_thread::sleep_until(base + i * period);
            osLateNs[i] = (SteadyClock::now() - (base + i * period)).count();
            const TimePoint start = sched.now() + lead;
            std::int64_t* slot = &lateNs[i];
            sched.postDetached([start, slot] { *slot = (SteadyClock::now() - start).count(); },
                               {.start = start});
        }
        if (!sched.drainFor(kHangLimit)) return state.SkipWithError("drainFor(10s) failed");
    }
    if (sched.stats().completed != jobs * state.iterations() + 1)
        return state.SkipWithError("not every timed job completed");

    prctl(PR_SET_TIMERSLACK, 0UL, 0, 0, 0);  // back to the default slack

    const auto early = std::count_if(lateNs.begin(), lateNs.end(), [](auto v) { return v < 0; });
    const auto over100 =
        std::count_if(lateNs.begin(), lateNs.end(), [](auto v) { return v > 100'000; });
    std::sort(lateNs.begin(), lateNs.end());
    std::sort(osLateNs.begin(), osLateNs.end());
    const auto rank = [&](double p) {
        return static_cast<std::size_t>(p * static_cast<double>(jobs - 1) + 0.5);
    };
    const auto pct = [&](double p) { return toUs(lateNs[rank(p)]); };
    double sum = 0;
    for (const auto v : lateNs)
        sum += toUs(v);
    state.counters["jobs"] = static_cast<double>(jobs);
    state.counters["min_us"] = toUs(lateNs.front());
    state.counters["p50_us"] = pct(0.50);
    state.counters["p90_us"] = pct(0.90);
    state.counters["p99_us"] = pct(0.99);
    state.counters["max_us"] = toUs(lateNs.back());
    state.counters["mean_us"] = sum / static_cast<double>(jobs);
    // A job started before its start time would be a scheduler bug.
    state.counters["early"] = static_cast<double>(early);
    state.counters["over_100us"] = static_cast<double>(over100);
    state.counters["os_p99_us"] = toUs(osLateNs[rank(0.99)]);
    state.counters["os_max_us"] = toUs(osLateNs.back());
}
BENCHMARK(BM_Sched_StartLateness)
    ->ArgNames({"lead_us", "jobs"})
    ->Args({1000, 1000})
    ->Args({10000, 100})
    ->Args({30000, 50})
    ->Iterations(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// ---------------------------------------------------------------------------------------
// Start lateness with many timed jobs pending: all jobs posted up front, one due every
// spacing, the first 20 ms after posting began (posting 2000 takes about a millisecond).
// The control is a plain thread that sleeps until spinWindow before each start and spins
// the rest, with the workers' 1 us timer slack: what the machine allows.

constexpr auto kPendingLead = 20ms;

void latenessCounters(benchmark::State& state, std::vector<std::int64_t> ns) {
    const auto early = std::count_if(ns.begin(), ns.end(), [](auto v) { return v < 0; });
    const auto over100 = std::count_if(ns.begin(), ns.end(), [](auto v) { return v > 100'000; });
    std::sort(ns.begin(), ns.end());
    const auto pct = [&](double p) {
        return toUs(ns[static_cast<std::size_t>(p * static_cast<double>(ns.size() - 1) + 0.5)]);
    };
    state.counters["jobs"] = static_cast<double>(ns.size());
    state.counters["p50_us"] = pct(0.50);
    state.counters["p90_us"] = pct(0.90);
    state.counters["p99_us"] = pct(0.99);
    state.counters["max_us"] = toUs(ns.back());
    state.counters["early"] = static_cast<double>(early);  // must be 0
    state.counters["over_100us"] = static_cast<double>(over100);
}

void BM_Sched_PendingLateness(benchmark::State& state) {
    const auto jobs = static_cast<std::size_t>(state.range(0));
    const std::chrono::microseconds spacing(state.range(1));
    Scheduler sched(benchConfig());
    settle(sched);
    std::vector<std::int64_t> lateNs(jobs, 0);
    Statistics s0, s1;
    for (auto _ : state) {
        s0 = sched.stats();
        const TimePoint base = sched.now() + kPendingLead;
        for (std::size_t i = 0; i < jobs; ++i) {
            const TimePoint start = base + i * spacing;
            std::int64_t* slot = &lateNs[i];
            sched.postDetached([start, slot] { *slot = (SteadyClock::now() - start).count(); },
                               {.start = start});
        }
        if (!sched.drainFor(kHangLimit)) return state.SkipWithError("drainFor(10s) failed");
        s1 = sched.stats();
    }
    if (s1.completed - s0.completed != jobs) return state.SkipWithError("not every job completed");
    latenessCounters(state, lateNs);
    // Hand-offs per due job: wake-ups sent, OS waits entered.
    state.counters["wakeups_per_job"] =
        static_cast<double>(s1.wakeups - s0.wakeups) / static_cast<double>(jobs);
    state.counters["parks_per_job"] =
        static_cast<double>(s1.parks - s0.parks) / static_cast<double>(jobs);
}
BENCHMARK(BM_Sched_PendingLateness)
    ->ArgNames({"jobs", "spacing_us"})
    ->Args({2000, 1000})
    ->Iterations(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

void BM_Ctl_SleepSpinLateness(benchmark::State& state) {
    const auto jobs = static_cast<std::size_t>(state.range(0));
    const std::chrono::microseconds spacing(state.range(1));
    const Duration spinWindow = LoadHorizons{}.spinWindow;
    std::vector<std::int64_t> lateNs(jobs, 0);
    for (auto _ : state) {
        std::thread t([&] {
            prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);  // per thread, as the workers do
            const auto base = SteadyClock::now() + kPendingLead;
            for (std::size_t i = 0; i < jobs; ++i) {
                const auto start = base + i * spacing;
                std::this_thread::sleep_until(start - spinWindow);
                auto now = SteadyClock::now();
                while (now < start)
                    now = SteadyClock::now();
                lateNs[i] = (now - start).count();
            }
        });
        t.join();
    }
    latenessCounters(state, lateNs);
}
BENCHMARK(BM_Ctl_SleepSpinLateness)
    ->ArgNames({"jobs", "spacing_us"})
    ->Args({2000, 1000})
    ->Iterations(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// ---------------------------------------------------------------------------------------
// Idle CPU. Process CPU (getrusage: all threads) over an idle window while this thread
// sleeps, and the workers' own CPU via their per-thread CPU clocks (found as the threads
// the Scheduler constructor added to /proc/self/task), which excludes anything else in the
// process (e.g. oneTBB's sleeping worker from earlier benchmarks).

std::vector<int> taskIds() {
    std::vector<int> ids;
    for (const auto& e : std::filesystem::directory_iterator("/proc/self/task"))
        ids.push_back(std::stoi(e.path().filename().string()));
    std::sort(ids.begin(), ids.end());
    return ids;
}

std::int64_t processCpuNs() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    const auto ns = [](const timeval& tv) {
        return static_cast<std::int64_t>(tv.tv_sec) * 1'000'000'000 +
               static_cast<std::int64_t>(tv.tv_usec) * 1000;
    };
    return ns(ru.ru_utime) + ns(ru.ru_stime);
}

/// CPU time of another thread of this process, by kernel thread id. Linux encodes a
/// thread's CPU clock as ((~tid) << 3) | CPUCLOCK_PERTHREAD | CPUCLOCK_SCHED (= 6), the same
/// id pthread_getcpuclockid() returns; we only have tids here, not pthread_t.
std::int64_t threadCpuNs(int tid) {
    const auto clock = static_cast<clockid_t>((~static_cast<unsigned>(tid) << 3) | 6u);
    timespec ts{};
    if (clock_gettime(clock, &ts) != 0) return 0;
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

/// CPU over `window` while the benchmark thread sleeps: the process (getrusage) and the
/// threads in `workers` (per-thread clocks). Scheduler counters too if `sched` is given.
void idleWindow(benchmark::State& state, std::chrono::milliseconds window,
                const std::vector<int>& workers, const Scheduler* sched) {
    const Statistics s0 = sched ? sched->stats() : Statistics{};
    std::int64_t w0 = 0, w1 = 0;
    for (const int tid : workers)
        w0 += threadCpuNs(tid);
    const std::int64_t p0 = processCpuNs();
    const auto t0 = SteadyClock::now();
    std::this_thread::sleep_for(window);  // sleeps, so this thread adds ~nothing
    const auto t1 = SteadyClock::now();
    const std::int64_t p1 = processCpuNs();
    for (const int tid : workers)
        w1 += threadCpuNs(tid);
    const Statistics s1 = sched ? sched->stats() : Statistics{};

    const double secs = std::chrono::duration<double>(t1 - t0).count();
    state.counters["cpu_ms_per_s"] = static_cast<double>(p1 - p0) / 1e6 / secs;
    state.counters["worker_cpu_ms_per_s"] = static_cast<double>(w1 - w0) / 1e6 / secs;
    state.counters["worker_threads"] = static_cast<double>(workers.size());
    if (!sched) return;
    state.counters["parks_per_s"] = static_cast<double>(s1.parks - s0.parks) / secs;
    state.counters["wakeups_per_s"] = static_cast<double>(s1.wakeups - s0.wakeups) / secs;
}

/// Idle pullsched, with no job (far_job 0) or with one job an hour ahead (far_job 1),
/// which keeps one worker tending the far head. rest_ms: idle time before the window. Right
/// after activity (0) the window holds the first safety-net check (2 s) if a job is open
/// (far_job 1; with none open the net's first period is 64 s);
/// after 6.1 s it shows a scheduler that has been idle a while (the next checks come at
/// 14 s: each quiet check doubles the period).
void BM_Sched_IdleCpu(benchmark::State& state) {
    const auto window = std::chrono::milliseconds(state.range(0));
    const bool farJob = state.range(1) != 0;
    const auto rest = std::chrono::milliseconds(state.range(2));
    const std::vector<int> before = taskIds();
    Scheduler sched(benchConfig());
    std::vector<int> workers;
    std::ranges::set_difference(taskIds(), before, std::back_inserter(workers));
    settle(sched);
    if (farJob) {
        sched.postDetached([] {}, {.start = sched.now() + std::chrono::hours(1)});
        std::this_thread::sleep_for(10ms);  // the post woke a worker; let it settle
    }
    std::this_thread::sleep_for(rest);
    for (auto _ : state)
        idleWindow(state, window, workers, &sched);
}
BENCHMARK(BM_Sched_IdleCpu)
    ->ArgNames({"window_ms", "far_job", "rest_ms"})
    ->Args({2000, 0, 0})
    ->Args({2000, 1, 0})
    ->Args({2000, 0, 6100})
    ->Args({2000, 1, 6100})
    ->Iterations(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

/// The same for oneTBB: an arena of kThreads that ran one small graph, then idles.
void BM_Tbb_IdleCpu(benchmark::State& state) {
    const auto window = std::chrono::milliseconds(state.range(0));
    const std::vector<int> before = taskIds();
    tbb::task_arena arena(static_cast<int>(kThreads));
    arena.initialize();
    arena.execute([] {
        tbb::flow::graph g;
        tbb::flow::continue_node<tbb::flow::continue_msg> a(
            g, [](const tbb::flow::continue_msg&) { return tbb::flow::continue_msg{}; });
        tbb::flow::continue_node<tbb::flow::continue_msg> b(
            g, [](const tbb::flow::continue_msg&) { return tbb::flow::continue_msg{}; });
        tbb::flow::make_edge(a, b);
        a.try_put(tbb::flow::continue_msg{});
        g.wait_for_all();
    });
    // TBB's worker threads start lazily, so they are the threads that exist now.
    std::vector<int> workers;
    std::ranges::set_difference(taskIds(), before, std::back_inserter(workers));
    std::this_thread::sleep_for(10ms);
    for (auto _ : state)
        idleWindow(state, window, workers, nullptr);
}
BENCHMARK(BM_Tbb_IdleCpu)
    ->ArgName("window_ms")
    ->Arg(2000)
    ->Iterations(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// ---------------------------------------------------------------------------------------
// Busy-job concurrency: independent jobs that spin for a fixed time. Average concurrency =
// sum of job busy time / (wall time * workers); 1.0 means both workers busy all the time.
// Args: busy time per job in us, jobs per iteration (0.4 s of total work either way).
void BM_Sched_BusyConcurrency(benchmark::State& state) {
    const std::chrono::microseconds busy(state.range(0));
    const auto jobs = static_cast<std::size_t>(state.range(1));
    Scheduler sched(benchConfig());
    settle(sched);
    std::atomic<std::int64_t> busyNs{0};
    const auto job = [busy, &busyNs] {
        const auto t0 = SteadyClock::now();
        auto t = t0;
        while (t - t0 < busy)
            t = SteadyClock::now();
        busyNs.fetch_add((t - t0).count(), std::memory_order_relaxed);
    };

    std::int64_t wallNs = 0;
    for (auto _ : state) {
        const auto t0 = SteadyClock::now();
        for (std::size_t i = 0; i < jobs; ++i)
            sched.postDetached(job);
        if (!sched.drainFor(kHangLimit)) return state.SkipWithError("drainFor(10s) failed");
        wallNs += (SteadyClock::now() - t0).count();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(jobs * state.iterations()));
    state.counters["avg_concurrency"] =
        static_cast<double>(busyNs.load()) / (static_cast<double>(wallNs) * kThreads);
}
BENCHMARK(BM_Sched_BusyConcurrency)
    ->ArgNames({"busy_us", "jobs"})
    ->Args({200, 2000})
    ->Args({2000, 200})
    ->Iterations(3)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// ---------------------------------------------------------------------------------------
// Where the workers run: 10 000 independent jobs of 1 us behind a gate job with a real
// start (the rig's path), two workers, the poster waiting in drain(). Each job notes the
// CPU it ran on; per graph run: the makespan from the gate to the last job's end, and the
// share of jobs that ran on the CPU the other worker used most in that run (0: two CPUs,
// ~0.5: both workers on one CPU all along). The OS left both workers on one vCPU for most
// of a run in about two runs of three here (docs/decisions.md, "Busy workers spread themselves");
// PULLSCHED_BENCH_SPREAD=0 runs the same without CpuSpread. Fixed iterations: each waits
// for its gate.
void BM_Sched_Placement(benchmark::State& state) {
    const auto jobs = static_cast<std::size_t>(state.range(0));
    const std::chrono::nanoseconds work(state.range(1));
    Scheduler sched(benchConfig());
    settle(sched);
    struct Run {
        std::atomic<std::int64_t> gateAt{0}, lastEnd{0};
        // Jobs per (worker slot, CPU): slot = order in which the workers first ran a job.
        std::atomic<unsigned> perSlotCpu[2][64]{};
        std::atomic<unsigned> slots{0};
    };
    std::vector<double> makespanMs, sharedShare;
    const Statistics s0 = sched.stats();
    for (auto _ : state) {
        auto run = std::make_unique<Run>();
        Run* r = run.get();
        const JobHandle gate =
            sched.post([r] { r->gateAt.store(SteadyClock::now().time_since_epoch().count()); },
                       {.start = sched.now() + 2ms + jobs * 1us});
        for (std::size_t i = 0; i < jobs; ++i) {
            sched.postDetached(
                [r, work] {
                    thread_local Run* seen = nullptr;
                    thread_local unsigned slot = 0;
                    if (seen != r) {
                        seen = r;
                        slot = std::min(1u, r->slots.fetch_add(1, std::memory_order_relaxed));
                    }
                    const auto t0 = SteadyClock::now();
                    const int cpu = sched_getcpu();
                    if (cpu >= 0 && cpu < 64)
                        r->perSlotCpu[slot][cpu].fetch_add(1, std::memory_order_relaxed);
                    auto t = t0;
                    while (t - t0 < work)
                        t = SteadyClock::now();
                    const auto end = t.time_since_epoch().count();
                    auto last = r->lastEnd.load(std::memory_order_relaxed);
                    while (last < end && !r->lastEnd.compare_exchange_weak(last, end)) {
                    }
                },
                {}, {&gate, 1});
        }
        if (!sched.drainFor(kHangLimit)) return state.SkipWithError("drainFor(10s) failed");
        const double ms = static_cast<double>(r->lastEnd.load() - r->gateAt.load()) / 1e6;
        state.SetIterationTime(ms / 1e3);
        makespanMs.push_back(ms);
        // Jobs of each slot on the CPU the other slot used most.
        const auto busiest = [&](int slot) {
            int best = 0;
            for (int c = 1; c < 64; ++c)
                if (r->perSlotCpu[slot][c].load() > r->perSlotCpu[slot][best].load()) best = c;
            return best;
        };
        const unsigned onOthers =
            r->perSlotCpu[0][busiest(1)].load() + r->perSlotCpu[1][busiest(0)].load();
        sharedShare.push_back(static_cast<double>(onOthers) / static_cast<double>(2 * jobs));
    }
    const Statistics s1 = sched.stats();
    std::ranges::sort(makespanMs);
    const auto at = [&](double q) {
        return makespanMs[static_cast<std::size_t>(q * static_cast<double>(makespanMs.size() - 1))];
    };
    const double ideal = static_cast<double>(jobs) * static_cast<double>(work.count()) / 2e6;
    state.counters["p50_ms"] = at(0.5);
    state.counters["p90_ms"] = at(0.9);
    state.counters["ideal_ms"] = ideal;
    state.counters["slow_runs"] = static_cast<double>(
        std::ranges::count_if(makespanMs, [&](double m) { return m > 1.5 * ideal; }));
    std::ranges::sort(sharedShare);
    state.counters["shared_p50"] = sharedShare[sharedShare.size() / 2];
    state.counters["moves_per_run"] = static_cast<double>(s1.spreadMoves - s0.spreadMoves) /
                                      static_cast<double>(state.iterations());
}
BENCHMARK(BM_Sched_Placement)
    ->ArgNames({"jobs", "work_ns"})
    ->Args({10'000, 1000})
    ->Iterations(24)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace pullsched::bench
