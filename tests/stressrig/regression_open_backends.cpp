// --mode=open --backends end to end: every backend plays the same timetable and measures
// exactly the arrivals after the warm-up; one CSV row and one percentile column per
// backend; pullsched alone keeps the single-backend result. Counts only (shared cores).
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "RigTestSupport.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "report/CsvTable.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using pullsched::rig::CsvTable;

namespace {

/// libgomp and Debian's libtbb are not instrumented for TSan (see regression_backends):
/// a TSan build leaves openmp and tbb out.
#if defined(__SANITIZE_THREAD__)
const std::vector<std::string> kBackends{"pullsched", "asio", "pool"};
const std::string kBackendsOption = "--backends=pullsched,asio,pool";
#else
const std::vector<std::string> kBackends{"pullsched", "tbb", "openmp", "asio", "pool"};
const std::string kBackendsOption = "--backends=all";
#endif

}  // namespace

TEST(StressrigOpenBackends, EveryBackendMeasuresTheArrivalsAfterTheWarmup) {
    const fs::path dir = rigtest::scratch("open-backends", "all");
    const rigtest::JsonRun run = rigtest::rigJson(
        "--mode=open --rate=500 --duration=200ms --warmup=50ms --load=50us --workers=2 "
        "--out=res " +
            kBackendsOption,
        dir);
    ASSERT_EQ(run.r.code, 0) << run.r.err;
    // Constant 500/s for 200 ms: arrivals every 2 ms at 0, 2, ..., 198 ms; the warm-up
    // takes those before 50 ms (0 ... 48 ms), which leaves 75 measured.
    constexpr std::uint64_t kArrivals = 100, kMeasured = 75;
    const json& b = run.j.at("result").at("backends");
    ASSERT_EQ(b.size(), kBackends.size()) << b.dump();
    for (const std::string& name : kBackends) {
        ASSERT_TRUE(b.contains(name)) << name;
        const json& e = b.at(name);
        EXPECT_EQ(e.at("jobs_posted"), kArrivals) << name;
        EXPECT_EQ(e.at("jobs_measured"), kMeasured) << name;
        EXPECT_EQ(e.at("lateness").at("count"), kMeasured) << name;
        EXPECT_EQ(e.at("jobs_completed"), kArrivals) << name;
        EXPECT_EQ(e.at("jobs_lost"), 0) << name;
        EXPECT_EQ(e.at("jobs_repeated"), 0) << name;
        EXPECT_EQ(e.at("lateness").at("count"), kMeasured) << name;
        EXPECT_FALSE(e.at("arrival_times_text").get<std::string>().empty()) << name;
    }
    EXPECT_EQ(b.at("pullsched").at("arrival_times"), "native");
    EXPECT_EQ(b.at("asio").at("arrival_times"), "native");
    EXPECT_EQ(b.at("pool").at("arrival_times"), "generator-posts");

    const CsvTable rows = CsvTable::readFile(rigtest::latestRun(dir / "res") / "open-backends.csv");
    ASSERT_EQ(rows.rowCount(), kBackends.size());
    for (std::size_t i = 0; i < kBackends.size(); ++i) {
        EXPECT_EQ(rows.number(i, "jobs measured"), double(kMeasured));
        // 75 samples support p50 and p90, not p99 or p99.9: those cells are empty.
        EXPECT_FALSE(std::isnan(rows.number(i, "p90 lateness us")));
        EXPECT_TRUE(std::isnan(rows.number(i, "p99 lateness us")));
        EXPECT_TRUE(std::isnan(rows.number(i, "p99.9 lateness us")));
    }
    const CsvTable pct = CsvTable::readFile(rigtest::latestRun(dir / "res") / "open-latency.csv");
    for (const std::string& name : kBackends)
        EXPECT_TRUE(pct.hasColumn(name + " lateness us")) << name;
    EXPECT_TRUE(fs::exists(rigtest::latestRun(dir / "res") / "open-latency.gp"));
    fs::remove_all(dir);
}

// pullsched alone goes the same way as several backends: "backends" with one entry (its
// backlog sampled, its deadline window applied), plus the detail only one backend gets.
TEST(StressrigOpenBackends, PullschedAloneIsAOneEntryResultWithItsDetail) {
    const fs::path dir = rigtest::scratch("open-backends", "default");
    const rigtest::JsonRun run = rigtest::rigJson(
        "--mode=open --rate=500 --duration=100ms --warmup=20ms --load=50us --out=res", dir);
    ASSERT_EQ(run.r.code, 0) << run.r.err;
    const auto& backends = run.j.at("result").at("backends");
    ASSERT_EQ(backends.size(), 1u) << backends;
    const auto& e = backends.at("pullsched");
    EXPECT_EQ(e.at("arrival_times"), "native");
    EXPECT_EQ(e.at("jobs_lost"), 0);
    EXPECT_EQ(e.at("jobs_posted"), run.j.at("result").at("jobs_posted"));
    EXPECT_TRUE(e.at("max_backlog").is_number()) << e;
    EXPECT_EQ(e.at("late_starts"), run.j.at("result").at("late_starts"));
    EXPECT_TRUE(run.j.at("result").contains("jobs_expired"));
    EXPECT_FALSE(fs::exists(rigtest::latestRun(dir / "res") / "open-backends.csv"));
    EXPECT_TRUE(fs::exists(rigtest::latestRun(dir / "res") / "open-summary.csv"));
    fs::remove_all(dir);
}

TEST(StressrigOpenBackends, AnUnknownBackendIsAUsageError) {
    const fs::path dir = rigtest::scratch("open-backends", "usage");
    const rigtest::Result r =
        rigtest::rig("--no-render --quiet --mode=open --backends=pool,nope", dir);
    EXPECT_EQ(r.code, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("nope"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "open.json"));
    fs::remove_all(dir);
}

TEST(StressrigOpenBackends, SigintStopsThePlayingBackendAndSkipsTheRest) {
    using namespace std::chrono_literals;
    const fs::path dir = rigtest::scratch("open-backends", "sigint");
    const fs::path errFile = dir / "stderr.txt";
    const pid_t pid =
        rigtest::startRig({"--mode=open", "--duration=1min", "--rate=1k", "--load=100us",
                           "--backends=pool,asio", "--no-render", "--name=r"},
                          dir);
    const bool started = rigtest::waitForText(errFile, "on pool");
    std::this_thread::sleep_for(300ms);
    ::kill(pid, SIGINT);
    int status = 0;
    ::waitpid(pid, &status, 0);
    ASSERT_TRUE(started) << rigtest::slurp(errFile);
    EXPECT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 130);
    ASSERT_TRUE(fs::exists(rigtest::latestRun(dir / "out") / "r.json")) << rigtest::slurp(errFile);
    const json j = rigtest::fileEnvelope(rigtest::latestRun(dir / "out") / "r.json");
    EXPECT_EQ(j.at("partial"), true);
    EXPECT_EQ(j.at("result").at("interrupted"), true);
    const json& b = j.at("result").at("backends");
    ASSERT_TRUE(b.contains("pool")) << b.dump();
    EXPECT_FALSE(b.contains("asio")) << "a backend after the stop was still played";
    EXPECT_LT(b.at("pool").at("jobs_posted").get<int>(), 60'000);  // stopped early
    EXPECT_EQ(b.at("pool").at("jobs_repeated"), 0);
    EXPECT_EQ(j.at("verdict").get<std::string>().rfind("interrupted", 0), 0u);
    fs::remove_all(dir);
}

// --trace-json: one trace per backend, one event per arrival that ran, each once, its
// lateness its start minus its intended start.
TEST(StressrigOpenBackends, TraceJsonWritesATracePerBackend) {
    const fs::path dir = rigtest::scratch("open-backends", "trace");
    const rigtest::JsonRun run = rigtest::rigJson(
        "--mode=open --rate=500 --duration=200ms --warmup=50ms --load=50us --workers=2 "
        "--trace-json --out=res --backends=pullsched,pool",
        dir);
    ASSERT_EQ(run.r.code, 0) << run.r.err;
    for (const std::string name : {"pullsched", "pool"}) {
        const fs::path file = rigtest::latestRun(dir / "res") / ("open-" + name + "-trace.json");
        ASSERT_TRUE(fs::exists(file)) << file;
        const json trace = json::parse(rigtest::slurp(file));
        std::set<std::uint64_t> ids;
        for (const json& e : trace.at("traceEvents")) {
            if (e.at("ph") != "X") continue;
            EXPECT_TRUE(ids.insert(e.at("args").at("id").get<std::uint64_t>()).second) << e;
            EXPECT_NEAR(e.at("ts").get<double>() - e.at("args").at("scheduled_us").get<double>(),
                        e.at("args").at("lateness_us").get<double>(), 1e-3)
                << e;
            EXPECT_LT(e.at("tid").get<int>(), 2) << e;  // two workers ran them
        }
        const json& b = run.j.at("result").at("backends").at(name);
        EXPECT_EQ(ids.size(), b.at("jobs_completed").get<std::size_t>()) << name;
    }
    const rigtest::JsonRun alone = rigtest::rigJson(
        "--mode=open --rate=500 --duration=100ms --warmup=20ms --load=50us --trace-json --out=one",
        dir);
    EXPECT_TRUE(fs::exists(rigtest::latestRun(dir / "one") / "open-trace.json"));
    fs::remove_all(dir);
}
