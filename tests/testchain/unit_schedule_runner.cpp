// ScheduleRunner: TestChainLoad graphs run on the scheduler reproduce the single-threaded
// hash; ordering, chunked planning, completion over all exits, faults. No timed assertions:
// the machines running this are shared and noisy (only orderings, counts, states, hashes).
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <tuple>

#include "pullsched/scheduler/Scheduler.hpp"
#include "pullsched/testchain/CalibrationCache.hpp"
#include "pullsched/testchain/ComputationalLoad.hpp"
#include "pullsched/testchain/GraphStatistics.hpp"
#include "pullsched/testchain/LevelSchedule.hpp"
#include "pullsched/testchain/Presets.hpp"
#include "pullsched/testchain/RuleSet.hpp"
#include "pullsched/testchain/ScheduleRunner.hpp"
#include "pullsched/testchain/TestChainGraph.hpp"

using namespace pullsched;
using namespace pullsched::testchain;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

/// A CPU load calibrated once per process, with its cache in a temporary directory.
const ComputationalLoad& cpuLoad() {
    struct Calibrated {
        fs::path dir;
        ComputationalLoad load;
        Calibrated()
            : dir(fs::path{::testing::TempDir()} /
                  ("pullsched-runner-" + std::to_string(::getpid()))) {
            load.calibrate(CalibrationCache{dir});
        }
        ~Calibrated() {
            std::error_code ec;
            fs::remove_all(dir, ec);
        }
    };
    static const Calibrated c;
    return c.load;
}

RunnerConfig fastConfig(Duration timeBase, bool withLoad, WeightPolicy policy = WeightPolicy::Raw) {
    RunnerConfig cfg;
    cfg.timeBase = timeBase;
    if (withLoad) cfg.load = cpuLoad();
    cfg.policy = policy;
    cfg.deadlines = false;  // sanitizer builds on 2 shared cores run late: no expiry here
    return cfg;
}

LevelSchedule adapted(const TestChainGraph& g, WeightPolicy policy, std::size_t concurrency,
                      Duration timeBase) {
    LevelSchedule s(g, policy);
    s.adapt(1.0, concurrency, timeBase);
    return s;
}

void expectCleanRun(const RunResult& r) {
    EXPECT_TRUE(r.completed) << r.error;
    EXPECT_FALSE(r.timedOut);
    EXPECT_TRUE(r.hashOk) << std::hex << r.actualHash << " vs " << r.expectedHash;
    EXPECT_TRUE(r.ok());
    EXPECT_EQ(r.completedJobs, r.nodes);
    EXPECT_EQ(r.failed + r.expired + r.cancelled, 0u);
    EXPECT_EQ(r.nodesPosted, r.nodes);
    ASSERT_EQ(r.jobs.size(), r.nodes);
    for (const JobTiming& j : r.jobs) {
        EXPECT_TRUE(j.posted);
        EXPECT_EQ(j.posts, 1u);
        EXPECT_EQ(j.state, JobState::Completed);
        EXPECT_TRUE(j.ran());
    }
}

/// Actual start not before the scheduled start, and not before any predecessor ended.
void expectOrdering(const TestChainGraph& g, const RunResult& r) {
    for (std::size_t i = 0; i < g.size(); ++i) {
        const JobTiming& j = r.jobs[i];
        ASSERT_TRUE(j.ran()) << i;
        EXPECT_GE(j.actualStart, j.scheduledStart) << "node " << i;
        EXPECT_GE(j.end, j.actualStart) << "node " << i;
        for (std::uint32_t p : g.node(i).predecessors())
            EXPECT_GE(j.actualStart, r.jobs[p].end) << "node " << i << " pred " << p;
    }
}

}  // namespace

// --- the burst graph on 2 and 8 workers, with and without load -----------------------

namespace {
class BurstRun : public ::testing::TestWithParam<std::tuple<std::size_t, unsigned, bool>> {};
}  // namespace

TEST_P(BurstRun, ReproducesTheSingleThreadedHash) {
    const auto [nodes, workers, withLoad] = GetParam();
    const TestChainGraph g = TestChainGraph::generate(preset("burst"), nodes);
    TestChainGraph ref = g;
    const std::uint64_t expected = ref.recalculate().graphHash();

    Scheduler sched({.workers = workers});
    const Duration tb = 20us;
    ScheduleRunner runner(sched, g, adapted(g, WeightPolicy::Raw, workers, tb),
                          fastConfig(tb, withLoad));
    EXPECT_EQ(runner.expectedHash(), expected);
    const RunResult r = runner.run();
    expectCleanRun(r);
    EXPECT_EQ(r.actualHash, expected);
    EXPECT_EQ(r.workers, workers);
    EXPECT_EQ(r.planningJobs, (nodes + 63) / 64);
    EXPECT_EQ(r.lowerBound, GraphStatistics(g).lowerBound(workers, tb));
    EXPECT_EQ(r.expectedEnd, runner.schedule().expectedEnd());
    EXPECT_GT(r.runTime, Duration{0});
    EXPECT_EQ(r.stats.submitted, nodes + r.planningJobs);  // private scheduler
    EXPECT_EQ(r.stats.completed, nodes + r.planningJobs);
    expectOrdering(g, r);
    if (nodes == 64) {
        EXPECT_EQ(r.actualHash, 0x258C8DEF5E0791BFull);  // spec §3 reference
    }
}

INSTANTIATE_TEST_SUITE_P(Runner, BurstRun,
                         ::testing::Combine(::testing::Values(std::size_t{64}, std::size_t{1024}),
                                            ::testing::Values(2u, 8u), ::testing::Bool()),
                         [](const auto& info) {
                             return "n" + std::to_string(std::get<0>(info.param)) + "_w" +
                                    std::to_string(std::get<1>(info.param)) +
                                    (std::get<2>(info.param) ? "_load" : "_empty");
                         });

// --- stationary shapes (no weight rule: each node one base load) ----------------------

TEST(ScheduleRunner, StationaryPresetsReproduceTheirHash) {
    Scheduler sched({.workers = 2});
    for (const char* name : {"stationary", "chains"}) {
        SCOPED_TRACE(name);
        const RuleSet rules = preset(name);
        ASSERT_EQ(rules.schedulingWeightPolicy(), WeightPolicy::UnitIfZero);
        const TestChainGraph g = TestChainGraph::generate(rules, 256);
        TestChainGraph ref = g;
        // Not the hash right after buildTopology: that differs for "stationary".
        const std::uint64_t expected = ref.recalculate().graphHash();
        const Duration tb = 20us;
        ScheduleRunner runner(sched, g, adapted(g, WeightPolicy::UnitIfZero, 2, tb),
                              fastConfig(tb, true, WeightPolicy::UnitIfZero));
        const RunResult r = runner.run();
        expectCleanRun(r);
        EXPECT_EQ(r.actualHash, expected);
        for (const JobTiming& j : r.jobs)
            EXPECT_GE(j.weight, 1u);  // UnitIfZero
        expectOrdering(g, r);
    }
}

// --- faults are caught by the hash check ----------------------------------------------

TEST(ScheduleRunner, DroppedDependencyIsDetectedByTheHash) {
    const TestChainGraph g = TestChainGraph::generate(preset("burst"), 64);
    // An edge whose predecessor is not a start node (a start node's hash never changes).
    Fault::Edge edge{};
    bool found = false;
    for (std::size_t i = 0; i < g.size() && !found; ++i)
        for (std::uint32_t p : g.node(i).predecessors())
            if (!g.node(p).isStart() && g.node(i).predecessors().size() > 1) {
                edge = {p, i};
                found = true;
                break;
            }
    ASSERT_TRUE(found);
    Scheduler sched({.workers = 2});
    RunnerConfig cfg = fastConfig(20us, false);
    cfg.fault.dropEdge = edge;
    ScheduleRunner runner(sched, g, adapted(g, WeightPolicy::Raw, 2, 20us), cfg);
    const RunResult r = runner.run();
    EXPECT_TRUE(r.completed) << r.error;
    EXPECT_FALSE(r.hashOk);
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(r.completedJobs, g.size());
    // The fault forced the order the missing edge allowed: succ ended before pred did.
    EXPECT_LE(r.jobs[edge.succ].end, r.jobs[edge.pred].end);
}

TEST(ScheduleRunner, SkippedNodeIsDetectedByTheHash) {
    const TestChainGraph g = TestChainGraph::generate(preset("burst"), 64);
    Scheduler sched({.workers = 2});
    RunnerConfig cfg = fastConfig(20us, false);
    cfg.fault.skipNode = 5;  // an inner node of the initial chain
    ASSERT_FALSE(g.node(5).isStart());
    ScheduleRunner runner(sched, g, adapted(g, WeightPolicy::Raw, 2, 20us), cfg);
    const RunResult r = runner.run();
    EXPECT_TRUE(r.completed) << r.error;
    EXPECT_FALSE(r.hashOk);
    EXPECT_EQ(r.nodesPosted, g.size() - 1);
    EXPECT_EQ(r.completedJobs, g.size() - 1);
    EXPECT_FALSE(r.jobs[5].posted);
    EXPECT_FALSE(r.jobs[5].ran());
}

TEST(ScheduleRunner, RejectsBadConfigurations) {
    const TestChainGraph g = TestChainGraph::generate(preset("burst"), 64);
    const TestChainGraph other = TestChainGraph::generate(preset("burst"), 65);
    Scheduler sched({.workers = 2});
    EXPECT_THROW(ScheduleRunner(sched, g, LevelSchedule(other)), std::invalid_argument);
    RunnerConfig noChunk;
    noChunk.chunkSize = 0;
    EXPECT_THROW(ScheduleRunner(sched, g, noChunk), std::invalid_argument);
    RunnerConfig uncalibrated;
    uncalibrated.load = ComputationalLoad{};
    EXPECT_THROW(ScheduleRunner(sched, g, uncalibrated), std::invalid_argument);
    RunnerConfig notAnEdge;
    notAnEdge.fault.dropEdge = Fault::Edge{0, 63};
    EXPECT_THROW(ScheduleRunner(sched, g, notAnEdge), std::invalid_argument);
    RunnerConfig outOfRange;
    outOfRange.fault.skipNode = 64;
    EXPECT_THROW(ScheduleRunner(sched, g, outOfRange), std::invalid_argument);
}

// --- planning in chunks ---------------------------------------------------------------

TEST(ScheduleRunner, SmallChunksPlanEveryNodeExactlyOnce) {
    const TestChainGraph g = TestChainGraph::generate(preset("burst"), 1024);
    Scheduler sched({.workers = 2});
    RunnerConfig cfg = fastConfig(20us, false);
    cfg.chunkSize = 8;
    ScheduleRunner runner(sched, g, adapted(g, WeightPolicy::Raw, 2, 20us), cfg);
    EXPECT_EQ(runner.planningJobCount(), 128u);
    EXPECT_EQ(runner.preRoll(), 800us);
    // Planning runs ahead: no later than its chunk's earliest node minus the pre-roll, and
    // in order.
    for (std::size_t k = 0; k < runner.planningJobCount(); ++k) {
        Duration earliest = Duration::max();
        for (std::size_t i = k * 8; i < std::min<std::size_t>(g.size(), k * 8 + 8); ++i)
            earliest = std::min(earliest, runner.schedule().nodeStart(i));
        EXPECT_LE(runner.planningStart(k), earliest - runner.preRoll()) << k;
        if (k > 0) {
            EXPECT_GE(runner.planningStart(k), runner.planningStart(k - 1)) << k;
        }
    }
    const RunResult r = runner.run();
    expectCleanRun(r);  // includes: every node posted exactly once
    EXPECT_EQ(r.planningJobs, 128u);
    EXPECT_EQ(r.stats.submitted, 1024u + 128u);
    expectOrdering(g, r);
}

TEST(ScheduleRunner, CompletionWaitsForExitsOfEarlierChunks) {
    // Node 1 is an exit in chunk 0 and carries all the load; the chain 0 → 2 → … → 39
    // ends in the last chunk and is empty. The run must still wait for node 1.
    TestChainGraph g(40);
    g.link(0, 1);
    g.link(0, 2);
    g.node(1).level = 1;
    g.node(2).level = 1;
    for (std::size_t i = 2; i + 1 < g.size(); ++i) {
        g.link(i, i + 1);
        g.node(i + 1).level = i;
    }
    g.node(1).weight = 200;  // 200 × 20 µs of CPU load
    ASSERT_EQ(g.exitCount(), 2u);
    Scheduler sched({.workers = 2});
    RunnerConfig cfg = fastConfig(20us, true);
    cfg.chunkSize = 8;
    LevelSchedule schedule(g);
    schedule.useDefault(10us);
    ScheduleRunner runner(sched, g, schedule, cfg);
    const RunResult r = runner.run();
    expectCleanRun(r);
    EXPECT_EQ(r.planningJobs, 5u);
    EXPECT_EQ(r.runTime, std::max(r.jobs[1].end, r.jobs[39].end));
    expectOrdering(g, r);
}

// --- repetitions ------------------------------------------------------------------------

TEST(ScheduleRunner, RepetitionsOnOneSchedulerEachVerify) {
    Scheduler sched({.workers = 2});
    const TestChainGraph burst = TestChainGraph::generate(preset("burst"), 256);
    const TestChainGraph chains = TestChainGraph::generate(preset("chains"), 128);
    ScheduleRunner a(sched, burst, adapted(burst, WeightPolicy::Raw, 2, 20us),
                     fastConfig(20us, true));
    ScheduleRunner b(sched, chains, adapted(chains, WeightPolicy::UnitIfZero, 2, 20us),
                     fastConfig(20us, false, WeightPolicy::UnitIfZero));
    const auto ra = a.runReps(4);
    ASSERT_EQ(ra.size(), 4u);
    for (const RunResult& r : ra)
        expectCleanRun(r);
    const RunResult rb = b.run();  // another graph in between, same scheduler
    expectCleanRun(rb);
    const RunResult again = a.run();
    expectCleanRun(again);
    EXPECT_GT(again.anchor, ra.back().anchor);
    // The runner's graph holds the hashes of the last run.
    EXPECT_EQ(a.graph().graphHash(), a.expectedHash());
}

// --- runs that do not complete must not hang --------------------------------------------

TEST(ScheduleRunner, ExpiredJobIsReportedAndDoesNotHang) {
    // 0 → 1 → 2: node 0 runs ~50 ms of load, node 1 may only start within 1 ms of its
    // start, so it expires (or, on a badly overloaded machine, already node 0 does); either
    // way the chain cannot complete and the run must end instead of waiting for the exit.
    TestChainGraph g(3);
    g.link(0, 1);
    g.link(1, 2);
    g.node(1).level = 1;
    g.node(2).level = 2;
    g.node(0).weight = 1;
    Scheduler sched({.workers = 2});
    RunnerConfig cfg;
    cfg.timeBase = 50ms;
    cfg.load = cpuLoad();
    LevelSchedule schedule(g);
    schedule.useDefault(100us).lifeWindow(1ms);
    ScheduleRunner runner(sched, g, schedule, cfg);
    const RunResult r = runner.run();
    EXPECT_FALSE(r.completed);
    EXPECT_FALSE(r.timedOut);
    EXPECT_FALSE(r.ok());
    EXPECT_GE(r.expired, 1u);
    EXPECT_EQ(r.completedJobs + r.expired + r.cancelled, 3u);
    EXPECT_NE(r.jobs[2].state, JobState::Completed);
    for (std::size_t i = 0; i < 3; ++i) {
        const JobTiming& j = r.jobs[i];
        EXPECT_EQ(j.ran(), j.state == JobState::Completed) << i;
        if (j.state == JobState::Cancelled) {  // only because its predecessor did not complete
            EXPECT_NE(r.jobs[i - 1].state, JobState::Completed) << i;
        }
    }
    if (r.jobs[0].state == JobState::Completed) {
        EXPECT_EQ(r.jobs[1].state, JobState::Expired);
    }
    // The scheduler stays usable for a run without deadlines.
    LevelSchedule relaxed(g);
    relaxed.useDefault(100us);
    cfg.deadlines = false;
    cfg.timeBase = 20us;
    ScheduleRunner again(sched, g, relaxed, cfg);
    expectCleanRun(again.run());
}

TEST(ScheduleRunner, PlanningErrorIsReportedAndDoesNotHang) {
    const TestChainGraph g = TestChainGraph::generate(preset("burst"), 64);
    Scheduler sched({.workers = 2});
    LevelSchedule schedule(g);
    schedule.useDefault(10us).lifeWindow(-1ms);  // deadline before start: post() throws
    RunnerConfig cfg;
    cfg.chunkSize = 16;
    ScheduleRunner runner(sched, g, schedule, cfg);
    const RunResult r = runner.run();
    EXPECT_FALSE(r.completed);
    EXPECT_FALSE(r.timedOut);
    EXPECT_FALSE(r.error.empty());
    EXPECT_EQ(r.nodesPosted, 0u);
    EXPECT_EQ(r.stats.failed, 1u);     // planning job 0
    EXPECT_EQ(r.stats.cancelled, 3u);  // planning jobs 1..3
}

TEST(ScheduleRunner, TimeoutIsReportedAndTheRunnerRefusesFurtherRuns) {
    // A clock that never moves: the planning job (due now) runs, the nodes never get due.
    ManualClock clock;
    const TestChainGraph g = TestChainGraph::generate(preset("burst"), 64);
    {
        Scheduler sched({.workers = 2, .clock = &clock});
        RunnerConfig cfg;
        cfg.completionLimit = 50ms;
        ScheduleRunner runner(sched, g, cfg);
        const RunResult r = runner.run();
        EXPECT_TRUE(r.timedOut);
        EXPECT_FALSE(r.completed);
        EXPECT_FALSE(r.ok());
        EXPECT_FALSE(r.error.empty());
        EXPECT_TRUE(runner.broken());
        EXPECT_THROW(runner.run(), std::logic_error);
    }  // the scheduler cancels the pending jobs; the run state they reference stays alive
}

TEST(ScheduleRunner, StopRequestCutsARunShort) {
    // A clock that never moves: the nodes never get due, so only the stop can end the
    // run (without it, the run would wait for its completion limit and time out).
    ManualClock clock;
    const TestChainGraph g = TestChainGraph::generate(preset("burst"), 256);
    {
        Scheduler sched({.workers = 2, .clock = &clock});
        RunnerConfig cfg;
        cfg.completionLimit = 30s;  // a hang guard: the stop must come long before
        bool running = false;
        int polls = 0;
        // the third poll of run(): after the planning job was posted and the wait began
        cfg.stop = [&] { return running && ++polls > 2; };
        ScheduleRunner runner(sched, g, cfg);
        running = true;
        const RunResult r = runner.run();
        EXPECT_TRUE(r.interrupted);
        EXPECT_FALSE(r.timedOut);
        EXPECT_FALSE(r.completed);
        EXPECT_TRUE(r.error.empty()) << r.error;  // an interruption is no error of the run
        EXPECT_TRUE(runner.broken());
        EXPECT_THROW(runner.run(), std::logic_error);
        const ShutdownReport rep = sched.shutdown(ShutdownMode::Cancel);  // what the caller does
        EXPECT_GT(rep.cancelled, 0u);  // the nodes that had not started
        EXPECT_EQ(sched.stats().pending, 0u);
    }
}

TEST(ScheduleRunner, StopBeforeARunPostsNothing) {
    const TestChainGraph g = TestChainGraph::generate(preset("burst"), 64);
    Scheduler sched({.workers = 2});
    bool stop = false;
    RunnerConfig cfg = fastConfig(10us, false);
    cfg.stop = [&stop] { return stop; };
    ScheduleRunner runner(sched, g, cfg);
    stop = true;
    const RunResult r = runner.run();
    EXPECT_TRUE(r.interrupted);
    EXPECT_EQ(sched.stats().submitted, 0u);
    EXPECT_FALSE(runner.broken());  // nothing pending: it may run again
    stop = false;
    EXPECT_TRUE(runner.run().ok());
}

TEST(ScheduleRunner, StopWhilePreparingThrowsStopped) {
    const TestChainGraph g = TestChainGraph::generate(preset("burst"), 64);
    Scheduler sched({.workers = 1});
    RunnerConfig cfg;
    cfg.stop = [] { return true; };
    EXPECT_THROW(ScheduleRunner(sched, g, cfg), Stopped);
}

TEST(ScheduleRunner, LowerBoundUsesTheConfiguredParallelism) {
    // burst/64 at 500 us: work 33 ms, critical path 15.5 ms. With 8 workers the bound
    // would be 15.5 ms; a run planned 2-way reports max(33 / 2, 15.5) = 16.5 ms.
    const TestChainGraph g = TestChainGraph::generate(preset("burst"), 64);
    Scheduler sched({.workers = 8});
    RunnerConfig rc;
    rc.timeBase = std::chrono::microseconds{500};
    rc.deadlines = false;
    rc.parallelism = 2;
    ScheduleRunner planned(sched, g, rc);
    const RunResult r = planned.run();
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_EQ(r.workers, 8u);
    EXPECT_EQ(r.lowerBound, std::chrono::microseconds{16500});
    rc.parallelism = 0;  // default: the scheduler's worker count
    ScheduleRunner byWorkers(sched, g, rc);
    EXPECT_EQ(byWorkers.run().lowerBound, std::chrono::microseconds{15500});
}

// --- config.group: one run's jobs, on a scheduler shared with others ---------------------

namespace {

void expectGroupBalanced(const GroupStatistics& g) {
    EXPECT_EQ(g.submitted, g.completed + g.failed + g.expired + g.cancelled + g.pending);
}

}  // namespace

TEST(ScheduleRunner, GroupCountsOneRunsJobsOnASharedScheduler) {
    Scheduler sched({.workers = 2});
    const TestChainGraph burst = TestChainGraph::generate(preset("burst"), 256);
    const TestChainGraph chains = TestChainGraph::generate(preset("chains"), 100);
    RunnerConfig ca = fastConfig(20us, false);
    ca.chunkSize = 64;
    ca.group = sched.group();
    RunnerConfig cb = fastConfig(20us, false, WeightPolicy::UnitIfZero);
    cb.chunkSize = 32;
    cb.group = sched.group();
    ScheduleRunner a(sched, burst, adapted(burst, WeightPolicy::Raw, 2, 20us), ca);
    ScheduleRunner b(sched, chains, adapted(chains, WeightPolicy::UnitIfZero, 2, 20us), cb);
    const RunResult ra = a.run();
    const RunResult rb = b.run();
    expectCleanRun(ra);
    expectCleanRun(rb);
    ca.group.wait();
    cb.group.wait();
    // every node job and every planning job of its own run, each counted once
    const GroupStatistics ga = ca.group.stats(), gb = cb.group.stats();
    EXPECT_EQ(ga.submitted, 256u + 4u);
    EXPECT_EQ(ga.completed, ga.submitted);
    EXPECT_EQ(gb.submitted, 100u + 4u);
    EXPECT_EQ(gb.completed, gb.submitted);
    EXPECT_EQ(ga.pending + gb.pending, 0u);
    expectGroupBalanced(ga);
    expectGroupBalanced(gb);
}

TEST(ScheduleRunner, CancellingTheGroupEndsATimedOutRunAlone) {
    // A clock that stands still until the run timed out: the nodes were posted, none got
    // due. Cancelling the group ends them (at their start, so the clock then moves past
    // it) without a shutdown: the scheduler stays usable.
    ManualClock clock;
    const TestChainGraph g = TestChainGraph::generate(preset("burst"), 64);
    Scheduler sched({.workers = 2, .clock = &clock});
    RunnerConfig cfg;
    cfg.completionLimit = 50ms;
    cfg.deadlines = false;  // the count below is about cancelling alone
    cfg.group = sched.group();
    ScheduleRunner runner(sched, g, cfg);
    const RunResult r = runner.run();
    ASSERT_TRUE(r.timedOut);
    cfg.group.cancel();
    clock.advance(1h);
    sched.wake();
    cfg.group.wait();
    const GroupStatistics s = cfg.group.stats();
    EXPECT_EQ(s.submitted, 64u + 1u);  // the planning job ran while the clock stood still
    EXPECT_EQ(s.completed, 1u);
    EXPECT_EQ(s.cancelled, 64u);
    EXPECT_EQ(s.pending, 0u);
    expectGroupBalanced(s);
    const JobHandle after = sched.post([] {});
    sched.wait(after);
    EXPECT_EQ(after.state(), JobState::Completed);
}
