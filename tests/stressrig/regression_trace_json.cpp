// --trace-json in every mode that runs jobs (issue 47, item 4): each writes a Chrome trace
// per backend whose jobs sit on one lane per thread, in time order, holding the jobs of
// the run it names; spawn and topology refuse it with the reason (exit 2, nothing written).
// Tiny runs on two workers; nothing is timed.
#include <filesystem>
#include <regex>
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "RigTestSupport.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using rigtest::Result;
using rigtest::rig;

namespace {

/// What a test reads of a trace file.
struct Trace {
    std::size_t ran = 0;         ///< complete events of jobs (rep spans left out)
    std::size_t nodeEvents = 0;  ///< graph traces: every node job, ran or not
    std::set<int> lanes;         ///< the tracks of the jobs that ran
    bool timeOrdered = true;     ///< every event's ts at or after the one before it
    json notes;                  ///< the trace's metadata ("otherData")
};

/// `file` parsed (a test failure, and an empty trace, if it is missing or no JSON).
Trace readTrace(const fs::path& file) {
    Trace t;
    if (!fs::exists(file)) {
        ADD_FAILURE() << file << " was not written";
        return t;
    }
    const json j = rigtest::fileEnvelope(file);
    if (!j.contains("traceEvents")) {
        ADD_FAILURE() << file << " has no traceEvents";
        return t;
    }
    double last = -1e300;
    for (const json& e : j.at("traceEvents")) {
        if (e.at("ph") == "M") continue;
        const double ts = e.at("ts").get<double>();
        t.timeOrdered = t.timeOrdered && ts >= last;
        last = ts;
        if (e.contains("args") && e.at("args").contains("node")) ++t.nodeEvents;
        if (e.at("ph") == "X" && e.value("cat", "") != "rep") {
            ++t.ran;
            t.lanes.insert(e.at("tid").get<int>());
        }
    }
    t.notes = j.value("otherData", json::object());
    return t;
}

/// The jobs of `t` ran on at most `threads` lanes, numbered from 0, in time order.
void expectLanes(const Trace& t, int threads, const std::string& what) {
    EXPECT_TRUE(t.timeOrdered) << what << ": events out of time order";
    EXPECT_FALSE(t.lanes.empty()) << what;
    for (const int lane : t.lanes) {
        EXPECT_GE(lane, 0) << what;
        EXPECT_LT(lane, threads) << what << ": a lane beyond the " << threads << " threads";
    }
}

/// The number after `prefix` in `text` (e.g. "step 2 of the table"); -1 if none.
long numberAfter(const std::string& text, const std::string& prefix) {
    std::smatch m;
    if (!std::regex_search(text, m, std::regex(prefix + "([0-9]+)"))) return -1;
    return std::stol(m[1]);
}

/// Runs `args --trace-json --quiet --no-render --out=res` in a fresh directory; exit 0.
struct TracedRun {
    fs::path dir, out;
    Result r;
    json envelope;
};
TracedRun tracedRun(const std::string& name, const std::string& args) {
    TracedRun t;
    t.dir = rigtest::scratch("trace-json", name);
    t.r = rig(args + " --trace-json --quiet --no-render --out=res", t.dir);
    EXPECT_EQ(t.r.code, 0) << args << "\n" << t.r.err;
    t.out = rigtest::latestRun(t.dir / "res");
    fs::path manifest;
    for (const auto& e : fs::directory_iterator(t.out))
        if (e.path().extension() == ".json" &&
            e.path().filename().string().find("trace") == std::string::npos)
            manifest = e.path();
    if (!manifest.empty()) t.envelope = rigtest::fileEnvelope(manifest);
    return t;
}

/// Whether the manifest lists `file`.
bool listed(const TracedRun& t, const std::string& file) {
    for (const json& f : t.envelope.value("files", json::array()))
        if (f == file) return true;
    return false;
}

}  // namespace

TEST(TraceJson, OpenTracesEveryArrivalThatRan) {
    const TracedRun t = tracedRun("open",
                                  "--mode=open --rate=500 --duration=200ms --warmup=50ms "
                                  "--load=50us --workers=2");
    const Trace trace = readTrace(t.out / "open-trace.json");
    EXPECT_EQ(trace.ran, t.envelope.at("result").at("jobs_completed").get<std::size_t>());
    expectLanes(trace, 2, "open");
    EXPECT_TRUE(listed(t, "open-trace.json"));
    fs::remove_all(t.dir);
}

TEST(TraceJson, ClosedTracesTheUsersJobsAndTheOpenComparison) {
    const TracedRun t = tracedRun("closed",
                                  "--mode=closed --users=2 --duration=200ms --warmup=50ms "
                                  "--load=100us --workers=2");
    const json& res = t.envelope.at("result");
    const Trace closed = readTrace(t.out / "closed-trace.json");
    EXPECT_EQ(closed.ran, res.at("closed").at("jobs_completed").get<std::size_t>());
    expectLanes(closed, 2, "closed");
    EXPECT_TRUE(listed(t, "closed-trace.json"));
    if (res.at("open").is_object()) {
        const Trace open = readTrace(t.out / "closed-open-trace.json");
        EXPECT_EQ(open.ran, res.at("open").at("jobs_completed").get<std::size_t>());
        expectLanes(open, 2, "open comparison");
    }
    fs::remove_all(t.dir);
}

TEST(TraceJson, SweepTracesTheStepItNames) {
    const TracedRun t = tracedRun("sweep",
                                  "--mode=sweep --workers=2 --from=200/s --to=400/s "
                                  "--step=200/s --hold=150ms --warmup=20ms --load=100us");
    const Trace trace = readTrace(t.out / "sweep-trace.json");
    const std::string step = trace.notes.value("step", "");
    const long n = numberAfter(step, "step ");
    const json& steps = t.envelope.at("result").at("steps");
    ASSERT_TRUE(n >= 1 && n <= static_cast<long>(steps.size())) << step;
    const json& s = steps[n - 1];
    EXPECT_EQ(trace.ran,
              s.at("jobs_posted").get<std::size_t>() - s.at("jobs_expired").get<std::size_t>())
        << s;
    // the last stable step, or the first when none is stable
    bool anyStable = false;
    long lastStable = 0;
    for (std::size_t i = 0; i < steps.size(); ++i)
        if (steps[i].at("class") == "stable") {
            anyStable = true;
            lastStable = static_cast<long>(i + 1);
        }
    EXPECT_EQ(n, anyStable ? lastStable : 1) << step;
    expectLanes(trace, 2, "sweep");
    EXPECT_NE(t.r.out.find("Trace: " + step), std::string::npos) << t.r.out;
    fs::remove_all(t.dir);
}

TEST(TraceJson, SoakTracesItsFirstArrivals) {
    const TracedRun t = tracedRun("soak",
                                  "--mode=soak --rate=500 --duration=300ms --interval=100ms "
                                  "--load=100us --warmup=0s --workers=2");
    const Trace trace = readTrace(t.out / "soak-trace.json");
    EXPECT_EQ(trace.ran, t.envelope.at("result").at("jobs_completed").get<std::size_t>());
    EXPECT_GT(trace.ran, 0u);
    expectLanes(trace, 2, "soak");
    fs::remove_all(t.dir);
}

TEST(TraceJson, HeadroomTracesTheMaximumSustainedStep) {
    const TracedRun t = tracedRun("headroom",
                                  "--mode=headroom --max-copies=1 --copy-work=10ms --workers=1 "
                                  "--load=200us --hold=50ms --warmup=10ms");
    const Trace trace = readTrace(t.out / "headroom-trace.json");
    const std::string step = trace.notes.value("step", "");
    const long n = numberAfter(step, "load step ");
    const json& res = t.envelope.at("result");
    const json& load = res.at("load");
    ASSERT_TRUE(n >= 1 && n <= static_cast<long>(load.size())) << step;
    long sustained = 0;
    for (std::size_t i = 0; i < load.size(); ++i)
        if (load[i].at("sustained") == true) sustained = static_cast<long>(i + 1);
    EXPECT_EQ(n, sustained > 0 ? sustained : 1) << step;
    EXPECT_EQ(trace.ran, load[n - 1].at("jobs_posted").get<std::size_t>() -
                             load[n - 1].at("jobs_expired").get<std::size_t>());
    expectLanes(trace, 1, "headroom");
    fs::remove_all(t.dir);
}

TEST(TraceJson, BreakingPointTracesTheBreakingProbeOnEveryBackend) {
    const TracedRun t = tracedRun("breaking-point",
                                  "--mode=breaking-point --pattern=burst --nodes=8 --load=100us "
                                  "--workers=2 --reps=2 --backends=pullsched,pool");
    for (const std::string file :
         {"breaking-point-burst-8-trace.json", "breaking-point-burst-8-pool-trace.json"}) {
        const Trace trace = readTrace(t.out / file);
        EXPECT_EQ(trace.nodeEvents, 8u) << file;  // one run of the 8 nodes
        expectLanes(trace, 2, file);
        EXPECT_NE(trace.notes.value("probe", "").find("stress"), std::string::npos) << file;
        EXPECT_TRUE(listed(t, file)) << file;
    }
    fs::remove_all(t.dir);
}

TEST(TraceJson, ParamRangeTracesTheMedianPoint) {
    const TracedRun t = tracedRun("param-range",
                                  "--mode=param-range --pattern=isolated --from=4 --to=12 "
                                  "--points=3 --load=50us --workers=2 --backends=pullsched,pool");
    for (const std::string file :
         {"param-range-isolated-trace.json", "param-range-isolated-pool-trace.json"}) {
        const Trace trace = readTrace(t.out / file);
        const std::string point = trace.notes.value("point", "");
        const long jobs = numberAfter(point, "the median point: ");
        EXPECT_GE(jobs, 4) << point;
        EXPECT_LE(jobs, 12) << point;
        EXPECT_EQ(static_cast<long>(trace.nodeEvents), jobs) << file;
        expectLanes(trace, 2, file);
    }
    fs::remove_all(t.dir);
}

TEST(TraceJson, GranularityTracesTheMedianRunOfTheFirstSize) {
    const TracedRun t = tracedRun("granularity",
                                  "--mode=granularity --graphs=isolated:32,chain:8 "
                                  "--min-size=1us --max-size=2us --step=2 --reps=3 --workers=2 "
                                  "--backends=pullsched,pool");
    for (const std::string b : {"pullsched", "pool"}) {
        const std::string file = "granularity-" + b + "-trace.json";
        const Trace trace = readTrace(t.out / file);
        EXPECT_EQ(trace.nodeEvents, 32u) << file;  // the first graph only
        EXPECT_EQ(trace.ran, 32u) << file;
        expectLanes(trace, 2, file);
        EXPECT_NE(trace.notes.value("run", "").find("isolated-32 with jobs of 1"),
                  std::string::npos)
            << trace.notes;
    }
    fs::remove_all(t.dir);
}

TEST(TraceJson, PipecleanTracesEveryPattern) {
    const TracedRun t = tracedRun("pipeclean", "--mode=pipeclean --nodes=20 --load=20us");
    const Trace trace = readTrace(t.out / "pipeclean-trace.json");
    std::size_t nodes = 0;
    for (const json& p : t.envelope.at("result").at("patterns"))
        nodes += p.at("nodes").get<std::size_t>();
    EXPECT_GT(nodes, 0u);
    EXPECT_EQ(trace.nodeEvents, nodes);
    expectLanes(trace, 2, "pipeclean");
    fs::remove_all(t.dir);
}

TEST(TraceJson, RunTracesABackendThatIsNotInstrumented) {
    const TracedRun t = tracedRun("run",
                                  "--mode=run --pattern=burst --nodes=16 --load=100us --workers=2 "
                                  "--reps=2 --backends=pullsched,pool");
    for (const std::string file : {"run-burst-16-trace.json", "run-burst-16-pool-trace.json"}) {
        const Trace trace = readTrace(t.out / file);
        EXPECT_EQ(trace.nodeEvents, 32u) << file;  // 2 reps of 16 nodes
        expectLanes(trace, 2, file);
        EXPECT_TRUE(listed(t, file)) << file;
    }
    fs::remove_all(t.dir);
}

TEST(TraceJson, SpawnAndTopologyRefuseItSayingWhy) {
    const fs::path dir = rigtest::scratch("trace-json", "refused");
    const Result spawn = rig("--mode=spawn --shapes=fib:5 --reps=1 --trace-json --out=res", dir);
    EXPECT_EQ(spawn.code, 2) << spawn.err;
    EXPECT_NE(spawn.err.find("--trace-json does not apply to --mode=spawn"), std::string::npos)
        << spawn.err;
    EXPECT_NE(spawn.err.find("timed as a whole"), std::string::npos) << spawn.err;
    const Result topology = rig("--mode=topology --nodes=8 --trace-json --out=res", dir);
    EXPECT_EQ(topology.code, 2) << topology.err;
    EXPECT_NE(topology.err.find("runs no jobs"), std::string::npos) << topology.err;
    EXPECT_FALSE(fs::exists(dir / "res")) << "a refused run wrote something";
    fs::remove_all(dir);
}
