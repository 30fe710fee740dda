// The load-test modes end to end, called as functions (no process). No timed
// assertions: counts, classes present, well-formed output.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/LoadTestAnalysis.hpp"
#include "legacy/LoadTestCore.hpp"
#include "legacy/Modes.hpp"
#include "legacy/RigOptions.hpp"
#include "pullsched/testchain/CalibrationCache.hpp"
#include "pullsched/testchain/ComputationalLoad.hpp"

using namespace pullsched::rig;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

fs::path scratch(const std::string& name) {
    auto p = fs::temp_directory_path() /
             ("pullsched-loadtest-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(p);
    return p;
}

RigOptions baseOptions(const std::string& mode) {
    RigOptions o;
    o.mode = mode;
    o.workers = {2};
    o.load = 100us;
    o.quiet = true;
    o.json = true;
    o.render = false;
    o.out = scratch(mode);
    return o;
}

/// Runs a mode with --json and parses its single stdout object.
nlohmann::json runJsonMode(ModeFunction fn, const RigOptions& o, int expectedExit = 0) {
    testing::internal::CaptureStdout();
    const int rc = fn(o);
    const std::string out = testing::internal::GetCapturedStdout();
    EXPECT_EQ(rc, expectedExit) << out;
    return nlohmann::json::parse(out);
}

const pullsched::testchain::ComputationalLoad& calibratedLoad() {
    static pullsched::testchain::ComputationalLoad load = [] {
        pullsched::testchain::ComputationalLoad l;
        l.calibrate(pullsched::testchain::CalibrationCache::fromEnvironment());
        return l;
    }();
    return load;
}

}  // namespace

TEST(LoadTestModes, OpenCountEqualsMeasuredArrivals) {
    for (const char* arrival : {"constant", "poisson"}) {
        RigOptions o = baseOptions("open");
        o.arrival = arrival;
        o.rate = 800;
        o.duration = 1s;
        o.warmup = 300ms;
        o.limit = 1s;  // deadline window 100 s: nothing is dropped
        const auto tt = loadtest::makeTimetable(o, o.rate, o.duration);
        const auto r = loadtest::runOpenLoad(o, calibratedLoad(), o.rate, 2);
        EXPECT_EQ(r.posted, tt.size()) << arrival;
        EXPECT_EQ(r.measured, loadtest::measuredArrivals(tt, o.warmup)) << arrival;
        EXPECT_EQ(r.lateness.count(), r.measured) << arrival;
        EXPECT_EQ(r.expired, 0u);
        EXPECT_EQ(r.completed, r.posted);
        EXPECT_TRUE(r.drained);
        EXPECT_FALSE(r.samples.empty());
    }
}

TEST(LoadTestModes, ClosedCountEqualsMeasuredSubmissions) {
    RigOptions o = baseOptions("closed");
    o.users = 3;
    o.duration = 600ms;
    o.warmup = 200ms;
    const auto r = loadtest::runClosedLoad(o, calibratedLoad(), 2);
    EXPECT_GT(r.measured, 0u);
    EXPECT_LT(r.measured, r.posted);  // warm-up submissions are excluded
    EXPECT_EQ(r.lateness.count(), r.measured);
    EXPECT_EQ(r.completed, r.posted);
}

TEST(LoadTestModes, OpenModeJson) {
    RigOptions o = baseOptions("open");
    o.rate = 500;
    o.duration = 600ms;
    o.warmup = 100ms;
    o.limit = 1s;
    const auto j = runJsonMode(runOpenMode, o);
    const auto tt = loadtest::makeTimetable(o, o.rate, o.duration);
    EXPECT_EQ(j.at("mode"), "open");
    EXPECT_EQ(j.at("lateness").at("count").get<std::uint64_t>(),
              loadtest::measuredArrivals(tt, o.warmup));
    for (const char* k : {"p50_us", "p90_us", "p99_us", "p99_9_us", "max_us"})
        EXPECT_TRUE(j.at("lateness").contains(k)) << k;
    EXPECT_TRUE(j.contains("achieved_rate"));
    EXPECT_TRUE(j.contains("deadline_drops"));
    EXPECT_TRUE(fs::exists(o.out / "open.csv"));
    EXPECT_TRUE(fs::exists(o.out / "open.gp"));
    EXPECT_TRUE(fs::exists(o.out / "open-latency.csv"));
    fs::remove_all(o.out);
}

TEST(LoadTestModes, ClosedModeComparesWithOpen) {
    RigOptions o = baseOptions("closed");
    o.users = 2;
    o.duration = 500ms;
    o.warmup = 100ms;
    o.limit = 1s;
    const auto j = runJsonMode(runClosedMode, o);
    ASSERT_TRUE(j.contains("closed"));
    ASSERT_TRUE(j.contains("open"));
    EXPECT_EQ(j["closed"]["lateness"]["count"], j["closed"]["measured"]);
    EXPECT_EQ(j["open"]["lateness"]["count"], j["open"]["measured"]);
    EXPECT_TRUE(fs::exists(o.out / "closed.csv"));
    fs::remove_all(o.out);
}

TEST(LoadTestModes, PipecleanPasses) {
    RigOptions o = baseOptions("pipeclean");
    const auto j = runJsonMode(runPipecleanMode, o, 0);
    EXPECT_EQ(j.at("failures"), 0);
    EXPECT_EQ(j.at("patterns").size(), 7u);
    for (const auto& p : j["patterns"]) {
        EXPECT_TRUE(p.at("ok").get<bool>()) << p.dump();
        EXPECT_TRUE(p.at("hash_ok").get<bool>()) << p.dump();
    }
    EXPECT_TRUE(fs::exists(o.out / "pipeclean.csv"));
    fs::remove_all(o.out);
}

TEST(LoadTestModes, ShortSoak) {
    RigOptions o = baseOptions("soak");
    o.duration = 2s;
    o.interval = 500ms;
    o.warmup = 100ms;
    const auto j = runJsonMode(runSoakMode, o);
    ASSERT_EQ(j.at("intervals").size(), 4u);
    std::uint64_t jobs = 0;
    for (const auto& i : j["intervals"]) {
        for (const char* k :
             {"t_s", "throughput", "p99_lateness_us", "rss_bytes", "cpu_percent", "backlog"})
            EXPECT_TRUE(i.contains(k)) << k;
        jobs += i.at("jobs").get<std::uint64_t>();
    }
    EXPECT_EQ(jobs, j.at("jobs").get<std::uint64_t>());
    const std::string verdict = j.at("trend").at("verdict");
    EXPECT_TRUE(verdict == "stable" || verdict == "degrading") << verdict;
    EXPECT_TRUE(fs::exists(o.out / "soak.csv"));
    EXPECT_TRUE(fs::exists(o.out / "soak-throughput.gp"));

    // The text report prints the verdict.
    o.json = false;
    testing::internal::CaptureStdout();
    EXPECT_EQ(runSoakMode(o), 0);
    const std::string text = testing::internal::GetCapturedStdout();
    EXPECT_NE(text.find("Verdict: "), std::string::npos) << text;
    fs::remove_all(o.out);
}

TEST(LoadTestModes, ShortSweep) {
    RigOptions o = baseOptions("sweep");
    o.from = 200;
    o.to = 600;
    o.step = 200;
    o.hold = 300ms;
    o.warmup = 50ms;
    const auto j = runJsonMode(runSweepMode, o);
    ASSERT_EQ(j.at("steps").size(), 3u);
    const std::set<std::string> classes{"stable", "burst", "failure"};
    for (const auto& s : j["steps"]) {
        EXPECT_TRUE(classes.count(s.at("class").get<std::string>())) << s.dump();
        EXPECT_GT(s.at("jobs").get<std::uint64_t>(), 0u);
    }
    ASSERT_EQ(j.at("levels").size(), 1u);
    EXPECT_TRUE(fs::exists(o.out / "sweep.csv"));
    EXPECT_TRUE(fs::exists(o.out / "sweep-w2.gp"));
    fs::remove_all(o.out);
}

TEST(LoadTestModes, BadInputExitsTwoAndWritesNothing) {
    RigOptions o = baseOptions("open");
    o.rate = -1;
    testing::internal::CaptureStderr();
    EXPECT_EQ(runOpenMode(o), 2);
    EXPECT_NE(testing::internal::GetCapturedStderr().find("--rate"), std::string::npos);
    o.rate = 100;
    o.arrival = "bursty";
    EXPECT_EQ(runOpenMode(o), 2);
    RigOptions s = baseOptions("sweep");
    s.from = 100;
    s.to = 10;
    EXPECT_EQ(runSweepMode(s), 2);
    RigOptions k = baseOptions("soak");
    k.interval = 10s;
    k.duration = 1s;
    EXPECT_EQ(runSoakMode(k), 2);
    EXPECT_FALSE(fs::exists(o.out));
    EXPECT_FALSE(fs::exists(s.out));
    EXPECT_FALSE(fs::exists(k.out));
}
