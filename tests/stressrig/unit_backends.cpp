// Every backend executes every kind of graph exactly once in dependency order: the graph
// hash equals the single-threaded recalculation and every node job ran once; with a
// schedule, no job starts before its start time. No timed assertions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <latch>
#include <string>
#include <thread>
#include <vector>

#include "RigTestSupport.hpp"
#include "backends/BackendComparison.hpp"
#include "backends/BackendRegistry.hpp"
#include "backends/BusiestThread.hpp"
#include "backends/GateLead.hpp"
#include "backends/GraphJobs.hpp"
#include "backends/PredecessorCounts.hpp"
#include "load/SyntheticGraphs.hpp"
#include "pullsched/testchain/Presets.hpp"
#include "report/BackendSeriesJson.hpp"

using namespace pullsched::rig;
using namespace pullsched::testchain;

namespace {

struct NamedGraph {
    std::string name;
    TestChainGraph graph;
    WeightPolicy policy;
};

std::vector<NamedGraph> testGraphs() {
    std::vector<NamedGraph> out;
    for (const char* p : {"burst", "stationary", "chains"}) {
        const RuleSet rules = preset(p);
        out.push_back({p, TestChainGraph::generate(rules, 128), rules.schedulingWeightPolicy()});
    }
    out.push_back({"isolated", isolatedGraph(300), WeightPolicy::Raw});
    out.push_back({"chain", chainGraph(100), WeightPolicy::Raw});
    out.push_back({"grid", gridGraph(12, 9), WeightPolicy::Raw});
    return out;
}

/// A load that does almost nothing (1 work step per µs, 1 µs per unit weight).
BackendSetup trivialSetup(unsigned workers, WeightPolicy policy) {
    BackendSetup s;
    s.workers = workers;
    s.timeBase = std::chrono::microseconds{1};
    ComputationalLoad load;
    load.setCalibration({.speed = 1.0});
    s.load = load;
    s.policy = policy;
    return s;
}

void expectExactlyOnce(const BackendRun& r, const TestChainGraph& g, const std::string& what) {
    EXPECT_TRUE(r.result.completed) << what << ": " << r.result.error;
    EXPECT_FALSE(r.result.timedOut) << what;
    EXPECT_TRUE(r.result.hashOk) << what;
    EXPECT_EQ(r.result.actualHash, r.result.expectedHash) << what;
    ASSERT_EQ(r.executions.size(), g.size()) << what;
    EXPECT_EQ(r.missed, 0u) << what;
    EXPECT_EQ(r.repeated, 0u) << what;
    for (std::size_t i = 0; i < g.size(); ++i)
        ASSERT_EQ(r.executions[i], 1u) << what << ": node " << i;
    EXPECT_EQ(r.result.completedJobs, g.size()) << what;
    EXPECT_TRUE(r.ok()) << what;
    // Dependency order: every job started after each of its predecessors ended.
    ASSERT_EQ(r.result.jobs.size(), g.size()) << what;
    for (std::size_t i = 0; i < g.size(); ++i) {
        const JobTiming& j = r.result.jobs[i];
        ASSERT_TRUE(j.ran()) << what << ": node " << i;
        for (auto p : g.node(i).predecessors())
            ASSERT_GE(j.actualStart, r.result.jobs[p].end)
                << what << ": node " << i << " started before predecessor " << p << " ended";
    }
}

class EveryBackend : public ::testing::TestWithParam<std::string> {};

}  // namespace

TEST(BackendRegistry, ListsPullschedFirstAndParsesLists) {
    const auto names = BackendRegistry::names();
    ASSERT_FALSE(names.empty());
    EXPECT_EQ(names.front(), "pullsched");
    EXPECT_EQ(BackendRegistry::parseList("all"), names);
    EXPECT_EQ(BackendRegistry::parseList("pullsched"), std::vector<std::string>{"pullsched"});
    EXPECT_EQ(BackendRegistry::parseList("pullsched,pullsched"),
              std::vector<std::string>{"pullsched"});
    EXPECT_THROW(BackendRegistry::parseList("nope"), std::invalid_argument);
    EXPECT_THROW(BackendRegistry::parseList("pullsched,"), std::invalid_argument);
    EXPECT_THROW(BackendRegistry::parseList("all,pullsched"), std::invalid_argument);
    EXPECT_THROW(BackendRegistry::graphRunner("nope"), std::invalid_argument);
    for (const auto& n : names)
        EXPECT_EQ(BackendRegistry::graphRunner(n)->name(), n);
}

// One entry per backend: both runners carry its name and its one start-times capability,
// and only this project's scheduler is instrumented.
TEST(BackendRegistry, EachEntryGivesBothRunnersItsNameAndCapabilities) {
    for (const BackendInfo& info : BackendRegistry::all()) {
        const std::string name(info.name);
        ASSERT_TRUE(info.runsGraphs()) << name;
        ASSERT_TRUE(info.runsStreams()) << name;
        const auto graph = BackendRegistry::graphRunner(name);
        const auto stream = BackendRegistry::streamRunner(name);
        EXPECT_EQ(&graph->info(), &info) << name;
        EXPECT_EQ(stream->name(), info.name);
        EXPECT_EQ(graph->startTimes(), stream->arrivalTimes()) << name;
        EXPECT_EQ(graph->startTimesText(), info.graphStartTimesText) << name;
        EXPECT_EQ(stream->arrivalTimesText(), info.streamStartTimesText) << name;
        EXPECT_EQ(info.instrumented, name == "pullsched") << name;
    }
    EXPECT_EQ(&BackendRegistry::find("asio"), &BackendRegistry::all()[3]);
    EXPECT_THROW(BackendRegistry::find("nope"), std::invalid_argument);
    EXPECT_THROW(BackendRegistry::streamRunner("nope"), std::invalid_argument);
    EXPECT_EQ(graphStartTimesName(StartTimes::HeldByRig), "wait-in-job");
    EXPECT_EQ(arrivalTimesName(StartTimes::HeldByRig), "generator-posts");
    EXPECT_EQ(arrivalTimesName(StartTimes::Native), graphStartTimesName(StartTimes::Native));
}

// The one factory of a setup: what it is given, and nothing a mode must ask for itself.
TEST(BackendSetupFactory, TakesTheOptionsAndLeavesScheduleDeadlinesAndStopUnset) {
    ComputationalLoad load;
    load.setCalibration({.speed = 2.0});
    const BackendSetup s = backendSetup(3, Placement::Pinned, std::chrono::microseconds{7}, load,
                                        WeightPolicy::Raw, 5);
    EXPECT_EQ(s.workers, 3u);
    EXPECT_EQ(s.placement, Placement::Pinned);
    EXPECT_EQ(s.timeBase, std::chrono::microseconds{7});
    ASSERT_TRUE(s.load.has_value());
    EXPECT_EQ(s.policy, WeightPolicy::Raw);
    EXPECT_EQ(s.parallelism, 5u);
    EXPECT_FALSE(s.schedule.has_value());
    EXPECT_FALSE(s.deadlines);
    EXPECT_FALSE(static_cast<bool>(s.stop));
    EXPECT_EQ(s.observer, nullptr);
}

// past_deadline: a job of a measured run whose end is later than its node's deadline;
// one that ends on it is in time, one that never ran has no end, and the run a stop cut
// short counts in no figure.
TEST(BackendSeries, CountsTheJobsThatEndedAfterTheirDeadline) {
    using std::chrono::microseconds;
    using std::chrono::milliseconds;
    const TestChainGraph g = chainGraph(3);
    LevelSchedule schedule(g, WeightPolicy::Raw);
    schedule.useDefault(milliseconds{1}).lifeWindow(microseconds{100});  // node i: i ms + 100us
    const auto run = [&](std::vector<Duration> ends) {
        BackendRun r;
        for (std::uint32_t i = 0; i < ends.size(); ++i) {
            JobTiming j;
            j.node = i;
            j.scheduledStart = schedule.nodeStart(i);
            if (ends[i] != JobTiming::kNotRun) {
                j.actualStart = j.scheduledStart;
                j.end = ends[i];
            }
            r.result.jobs.push_back(j);
        }
        return r;
    };
    BackendSeries s;
    s.runs.push_back(run({microseconds{50}, microseconds{1100}, microseconds{2101}}));
    s.runs.push_back(run({JobTiming::kNotRun, milliseconds{5}, milliseconds{2}}));
    s.cutRun = run({milliseconds{9}, milliseconds{9}, milliseconds{9}});
    EXPECT_EQ(s.pastDeadline(schedule), 2u);  // node 2 of run 1, node 1 of run 2
    EXPECT_EQ(seriesJson(s, &schedule).at("past_deadline"), 2);
    EXPECT_TRUE(seriesJson(s, nullptr).at("past_deadline").is_null());  // no deadlines: no figure
    schedule.lifeWindow(milliseconds{10});
    EXPECT_EQ(s.pastDeadline(schedule), 0u);
}

// The bookkeeping the backends share counts down the exit nodes only, and only for a
// backend without a wait of its own (one counter written by every job would be the rig's
// own cost in the empty-job figure): the run is complete once every exit ended, and not
// before, whatever else ran.
TEST(GraphJobs, ARunIsCompleteWhenEveryExitEndedAndNotBefore) {
    const RuleSet rules = preset("stationary");
    const TestChainGraph g = TestChainGraph::generate(rules, 64);
    BackendSetup setup = trivialSetup(2, rules.schedulingWeightPolicy());
    setup.completionLimit = std::chrono::milliseconds{1};  // waitAll() gives up after this
    GraphJobs jobs;
    jobs.prepare(g, setup, /*waitInJob=*/false, GraphJobs::Completion::CountDown);
    jobs.beginRun();
    std::vector<std::uint32_t> exits;
    for (std::uint32_t i = 0; i < g.size(); ++i) {
        if (g.node(i).isExit())
            exits.push_back(i);
        else
            jobs.runNode(i);  // index order is a topological order
    }
    ASSERT_GE(exits.size(), 2u);
    EXPECT_FALSE(jobs.waitAll()) << "complete with no exit run";
    for (std::size_t k = 0; k + 1 < exits.size(); ++k)
        jobs.runNode(exits[k]);
    EXPECT_FALSE(jobs.waitAll()) << "complete with an exit still to run";
    jobs.runNode(exits.back());
    EXPECT_TRUE(jobs.waitAll());
    const BackendRun run = jobs.finish(false);
    EXPECT_TRUE(run.result.hashOk);
    EXPECT_EQ(run.result.completedJobs, g.size());
    for (std::size_t i = 0; i < g.size(); ++i)
        EXPECT_EQ(run.executions[i], 1u) << "node " << i;
}

// A backend that waits its own way counts nothing down, and may not ask the rig to wait.
TEST(GraphJobs, ABackendWithItsOwnWaitCountsNothingDown) {
    const RuleSet rules = preset("stationary");
    const TestChainGraph g = TestChainGraph::generate(rules, 64);
    GraphJobs jobs;
    jobs.prepare(g, trivialSetup(2, rules.schedulingWeightPolicy()), /*waitInJob=*/false,
                 GraphJobs::Completion::OwnWait);
    jobs.beginRun();
    for (std::uint32_t i = 0; i < g.size(); ++i)
        jobs.runNode(i);
    EXPECT_THROW(jobs.waitAll(), std::logic_error);
    const BackendRun run = jobs.finish(false);
    EXPECT_TRUE(run.result.hashOk);
    EXPECT_EQ(run.result.completedJobs, g.size());
}

// The share of a run's jobs that its busiest thread ran: jobs that did not run (default
// ids) do not count.
TEST(BusiestThread, IsTheLargestShareOfTheJobsThatRan) {
    // Both alive at once: a finished thread's id may be given to the next one.
    std::thread::id a;
    std::thread::id b;
    std::latch bothKnown(2);
    {
        std::jthread ta([&] {
            a = std::this_thread::get_id();
            bothKnown.arrive_and_wait();
        });
        std::jthread tb([&] {
            b = std::this_thread::get_id();
            bothKnown.arrive_and_wait();
        });
    }
    ASSERT_NE(a, b);
    const std::thread::id none{};
    EXPECT_EQ(busiestThreadShare(std::vector<std::thread::id>{}), 0.0);
    EXPECT_EQ(busiestThreadShare(std::vector{none, none}), 0.0);
    EXPECT_EQ(busiestThreadShare(std::vector{a, a, a}), 1.0);
    EXPECT_EQ(busiestThreadShare(std::vector{a, b, a, a}), 0.75);
    EXPECT_EQ(busiestThreadShare(std::vector{b, a, b, a}), 0.5);
    EXPECT_EQ(busiestThreadShare(std::vector{b, none, a, none, b}), 2.0 / 3.0);
}

// GraphJobs notes which thread ran each node: a run whose first 40 nodes ran on one thread
// and the other 24 on another reports 40 / 64; the next run starts afresh.
TEST(GraphJobs, ReportsTheShareOfTheJobsItsBusiestThreadRan) {
    const RuleSet rules = preset("stationary");
    const TestChainGraph g = TestChainGraph::generate(rules, 64);
    ASSERT_EQ(g.size(), 64u);
    GraphJobs jobs;
    jobs.prepare(g, trivialSetup(2, rules.schedulingWeightPolicy()), /*waitInJob=*/false,
                 GraphJobs::Completion::OwnWait);
    jobs.beginRun();
    {
        // The first thread stays alive until the second is done: a finished thread's id
        // may be given to the next one.
        std::latch firstPartRan(1);
        std::latch secondPartRan(1);
        std::jthread first([&] {
            for (std::uint32_t i = 0; i < 40; ++i)
                jobs.runNode(i);  // index order is a topological order
            firstPartRan.count_down();
            secondPartRan.wait();
        });
        std::jthread second([&] {
            firstPartRan.wait();
            for (std::uint32_t i = 40; i < g.size(); ++i)
                jobs.runNode(i);
            secondPartRan.count_down();
        });
    }
    const BackendRun split = jobs.finish(false);
    EXPECT_TRUE(split.result.hashOk);
    EXPECT_EQ(split.busiestThreadShare, 40.0 / 64.0);

    jobs.beginRun();
    for (std::uint32_t i = 0; i < g.size(); ++i)
        jobs.runNode(i);
    EXPECT_EQ(jobs.finish(false).busiestThreadShare, 1.0);
}

// The pool's and Asio's dependency tracking: a node is handed out once, by the end of its
// last predecessor, and a reset makes the next run hand out every node again.
TEST(PredecessorCounts, ReleaseEachNodeOnceWhenItsLastPredecessorEnded) {
    const TestChainGraph g = gridGraph(6, 5);
    PredecessorCounts counts;
    counts.prepare(g);
    for (int run = 0; run < 2; ++run) {
        counts.reset();
        std::vector<std::uint32_t> ready;
        counts.forEachRoot([&](std::uint32_t root) { ready.push_back(root); });
        for (const std::uint32_t root : ready)
            EXPECT_TRUE(g.node(root).predecessors().empty()) << "run " << run;
        std::vector<bool> ended(g.size(), false);
        // Whatever is ready ends; each node must become ready after all of its
        // predecessors ended, and only once.
        for (std::size_t next = 0; next < ready.size(); ++next) {
            const std::uint32_t node = ready[next];
            for (const std::uint32_t p : g.node(node).predecessors())
                EXPECT_TRUE(ended[p]) << "node " << node << " ready before " << p;
            ended[node] = true;
            counts.ended(g, node, [&](std::uint32_t s) { ready.push_back(s); });
        }
        EXPECT_EQ(ready.size(), g.size()) << "run " << run;
        EXPECT_TRUE(std::all_of(ended.begin(), ended.end(), [](bool e) { return e; }));
    }
}

TEST_P(EveryBackend, RunsEachGraphExactlyOnceInDependencyOrder) {
    if (rigtest::skipUnderThreadSanitizer(GetParam()))
        GTEST_SKIP() << "uninstrumented runtime under TSan";
    auto backend = BackendRegistry::graphRunner(GetParam());
    for (const NamedGraph& ng : testGraphs()) {
        for (unsigned workers : {1u, 3u}) {
            backend->prepare(ng.graph, trivialSetup(workers, ng.policy));
            TestChainGraph ref = ng.graph;
            ref.recalculate();
            EXPECT_EQ(backend->expectedHash(), ref.graphHash()) << ng.name;
            for (int rep = 0; rep < 3; ++rep)  // repeatable on the same preparation
                expectExactlyOnce(backend->run(), ng.graph,
                                  GetParam() + " " + ng.name + " workers " +
                                      std::to_string(workers) + " rep " + std::to_string(rep));
        }
    }
}

// BackendSetup::planInRun: the graph built inside each run (oneTBB constructs its nodes and
// edges again, pullsched posts without its gate) still runs every node once, in order.
TEST_P(EveryBackend, RunsEachGraphExactlyOnceWhenItPlansInsideTheRun) {
    if (rigtest::skipUnderThreadSanitizer(GetParam()))
        GTEST_SKIP() << "uninstrumented runtime under TSan";
    auto backend = BackendRegistry::graphRunner(GetParam());
    for (const NamedGraph& ng : testGraphs()) {
        BackendSetup setup = trivialSetup(2, ng.policy);
        setup.planInRun = true;
        backend->prepare(ng.graph, setup);
        for (int rep = 0; rep < 3; ++rep)
            expectExactlyOnce(backend->run(), ng.graph,
                              GetParam() + " " + ng.name + " planned, rep " + std::to_string(rep));
    }
}

// planInRun moves the building of the graph into each run; without it a backend that can
// build ahead (pullsched behind its gate, oneTBB in prepare()) times none. Counted where
// each backend builds, so a backend that ignores the flag fails here.
TEST_P(EveryBackend, BuildsItsGraphInsideTheRunExactlyWhenPlanningIsTimed) {
    if (rigtest::skipUnderThreadSanitizer(GetParam()))
        GTEST_SKIP() << "uninstrumented runtime under TSan";
    auto backend = BackendRegistry::graphRunner(GetParam());
    const bool everyRun = backend->info().buildsGraphEveryRun;
    const TestChainGraph g = gridGraph(6, 5);
    for (const bool planInRun : {true, false, true}) {
        BackendSetup setup = trivialSetup(2, WeightPolicy::Raw);
        setup.planInRun = planInRun;
        backend->prepare(g, setup);
        const std::uint32_t expected = planInRun || everyRun ? 1 : 0;
        std::uint32_t builds = 0;
        constexpr int kRuns = 3;
        for (int rep = 0; rep < kRuns; ++rep) {
            const BackendRun r = backend->run();
            expectExactlyOnce(r, g, GetParam());
            EXPECT_EQ(r.timedGraphBuilds, expected)
                << GetParam() << (planInRun ? " planned" : " prebuilt") << ", rep " << rep;
            builds += r.timedGraphBuilds;
        }
        EXPECT_EQ(builds, expected * kRuns) << GetParam();
    }
}

// BackendSetup::prebuiltBatch: a backend that can (pullsched) submits its prebuilt graph
// as one batch, with no gate and nothing built in the timed run; the others ignore it.
// Either way every node runs once, in order.
TEST_P(EveryBackend, RunsEachGraphExactlyOnceAsAPrebuiltBatch) {
    if (rigtest::skipUnderThreadSanitizer(GetParam()))
        GTEST_SKIP() << "uninstrumented runtime under TSan";
    auto backend = BackendRegistry::graphRunner(GetParam());
    const bool batch = backend->info().submitsPrebuiltBatch;
    EXPECT_EQ(batch, GetParam() == "pullsched");
    for (const NamedGraph& ng : testGraphs()) {
        BackendSetup setup = trivialSetup(2, ng.policy);
        setup.prebuiltBatch = true;
        backend->prepare(ng.graph, setup);
        for (int rep = 0; rep < 3; ++rep) {
            const BackendRun r = backend->run();
            const std::string what = GetParam() + " " + ng.name + " rep " + std::to_string(rep);
            expectExactlyOnce(r, ng.graph, what);
            EXPECT_EQ(r.timedGraphBuilds, backend->info().buildsGraphEveryRun ? 1u : 0u) << what;
            if (batch) {
                EXPECT_EQ(r.gateLead, Duration::zero()) << what;  // no gate
            }
        }
    }
}

TEST_P(EveryBackend, HonoursStartTimes) {
    if (rigtest::skipUnderThreadSanitizer(GetParam()))
        GTEST_SKIP() << "uninstrumented runtime under TSan";
    auto backend = BackendRegistry::graphRunner(GetParam());
    for (const NamedGraph& ng : testGraphs()) {
        if (ng.name == "isolated") continue;  // one level: every start is 0, nothing waits
        BackendSetup setup = trivialSetup(2, ng.policy);
        LevelSchedule schedule(ng.graph, ng.policy);
        schedule.useDefault(std::chrono::microseconds{100});
        setup.schedule = schedule;
        backend->prepare(ng.graph, setup);
        const BackendRun r = backend->run();
        const std::string what = GetParam() + " " + ng.name;
        expectExactlyOnce(r, ng.graph, what);
        for (std::size_t i = 0; i < ng.graph.size(); ++i) {
            const JobTiming& j = r.result.jobs[i];
            EXPECT_EQ(j.scheduledStart, schedule.nodeStart(i)) << what;
            ASSERT_GE(j.actualStart, j.scheduledStart) << what << ": node " << i;
        }
    }
}

TEST_P(EveryBackend, CountsTheStartWaitOfJobsThatWaitInTheirWorker) {
    if (rigtest::skipUnderThreadSanitizer(GetParam()))
        GTEST_SKIP() << "uninstrumented runtime under TSan";
    // Node 1 of a 3-chain is released microseconds after the anchor but due 200 ms after
    // it: a backend without timed starts must hold it in its worker and count that wait;
    // a native one never blocks a worker for it. (No time is compared, only > 0 / == 0.)
    auto backend = BackendRegistry::graphRunner(GetParam());
    const TestChainGraph g = chainGraph(3);
    BackendSetup setup = trivialSetup(2, WeightPolicy::Raw);
    LevelSchedule schedule(g, WeightPolicy::Raw);
    schedule.useDefault(std::chrono::milliseconds{200});
    setup.schedule = schedule;
    backend->prepare(g, setup);
    const BackendRun r = backend->run();
    expectExactlyOnce(r, g, GetParam());
    if (backend->startTimes() == StartTimes::HeldByRig)
        EXPECT_GT(r.startWait.count(), 0);
    else
        EXPECT_EQ(r.startWait.count(), 0);
}

TEST_P(EveryBackend, RejectsRunBeforePrepareAndBadSetups) {
    auto backend = BackendRegistry::graphRunner(GetParam());
    EXPECT_THROW(backend->run(), std::logic_error);
    const TestChainGraph g = chainGraph(10);
    BackendSetup setup = trivialSetup(0, WeightPolicy::Raw);
    EXPECT_THROW(backend->prepare(g, setup), std::invalid_argument);
    setup.workers = 2;
    ComputationalLoad uncalibrated;
    setup.load = uncalibrated;
    EXPECT_THROW(backend->prepare(g, setup), std::invalid_argument);
    EXPECT_FALSE(backend->startTimesText().empty());
}

INSTANTIATE_TEST_SUITE_P(Backends, EveryBackend, ::testing::ValuesIn(BackendRegistry::names()),
                         [](const auto& info) { return info.param; });

// pullsched's prebuilt run: the gate leaves room for the posting the last run measured.
TEST(GateLead, FollowsTheLastPostingWithAFloorAndDoublesAfterAnEarlyGate) {
    using std::chrono::microseconds;
    using std::chrono::milliseconds;
    // nothing measured yet: 2 ms + 2 us per node
    EXPECT_EQ(gateLead(Duration::zero(), false, 10'000), microseconds{22'000});
    EXPECT_EQ(gateLead(Duration::zero(), true, 0), microseconds{2'000});
    // measured: 1.5x + 0.5 ms, at least 2 ms
    EXPECT_EQ(gateLead(milliseconds{4}, false, 10'000), microseconds{6'500});
    EXPECT_EQ(gateLead(microseconds{100}, false, 64), microseconds{2'000});
    // the last gate opened before its posting ended: the posting counts twice
    EXPECT_EQ(gateLead(milliseconds{4}, true, 10'000), microseconds{12'500});
}

// ... and the backend puts its gate there: each run's lead is gateLead() of the run before
// it (the first of the graph's, with nothing measured), whatever the posting took.
TEST(GateLead, ThePullschedBackendPutsEachGateWhereTheLastPostingSays) {
    auto backend = BackendRegistry::graphRunner("pullsched");
    const TestChainGraph g = chainGraph(2'000);
    backend->prepare(g, trivialSetup(2, WeightPolicy::Raw));
    BackendRun previous;
    for (int run = 0; run < 4; ++run) {
        const BackendRun r = backend->run();
        expectExactlyOnce(r, g, "pullsched");
        EXPECT_GT(r.posting.count(), 0) << "run " << run;
        EXPECT_EQ(r.gateLead, run == 0 ? gateLead(Duration::zero(), false, g.size())
                                       : gateLead(previous.posting, previous.gateEarly, g.size()))
            << "run " << run;
        previous = r;
    }
    // A new graph starts over: nothing measured for it yet.
    backend->prepare(g, trivialSetup(2, WeightPolicy::Raw));
    EXPECT_EQ(backend->run().gateLead, gateLead(Duration::zero(), false, g.size()));
}
