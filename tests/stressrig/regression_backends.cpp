// --backends end to end: every backend runs the same small preset graph, each verified by
// the graph hash and an exactly-once count; bad lists and modes without the option are
// usage errors. No timing is asserted (shared cores).
#include <filesystem>
#include <string>
#include <vector>

#include "RigTestSupport.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "report/CsvTable.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using pullsched::rig::CsvTable;
using rigtest::Result;
using rigtest::rig;

namespace {

/// The backends a run may use in this build. libgomp and Debian's libtbb are not built
/// with TSan, which then reports races that the libraries' own (invisible) synchronisation
/// does order, and ends the rig with exit status 66: a TSan build leaves openmp and tbb out
/// (every other build runs all five; unit_backends says more).
#if defined(__SANITIZE_THREAD__)
const std::vector<std::string> kBackends{"pullsched", "asio", "pool"};
const std::string kBackendsOption = "--backends=pullsched,asio,pool";
const std::string kWaitInJobBackends = "--backends=pool";
#else
const std::vector<std::string> kBackends{"pullsched", "tbb", "openmp", "asio", "pool"};
const std::string kBackendsOption = "--backends=all";
const std::string kWaitInJobBackends = "--backends=tbb,pool";
#endif

}  // namespace

TEST(StressrigBackends, TaskBenchShapesRunOnEveryBackendInTheGraphModes) {
    // the graph modes take a Task Bench shape through --pattern like a preset (run here)
    const fs::path dir = rigtest::scratch("backends", "taskbench");
    const Result r =
        rig("--no-render --quiet --mode=run --pattern=fft:8x6 --load=20us --workers=2 "
            "--reps=1 --json --out=res " +
                kBackendsOption,
            dir);
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    const json j = rigtest::stdoutEnvelope(r);
    EXPECT_EQ(j.at("result").at("pattern"), "fft-8x6");
    const json& b = j.at("result").at("backends");
    ASSERT_EQ(b.size(), kBackends.size()) << b.dump();
    for (const std::string& name : kBackends) {
        EXPECT_EQ(b.at(name).at("hash_ok_runs"), 1) << name;
        EXPECT_EQ(b.at(name).at("exactly_once_runs"), 1) << name;
        EXPECT_EQ(b.at(name).at("jobs_lost"), 0) << name;
    }
    EXPECT_TRUE(fs::exists(rigtest::latestRun(dir / "res") / "run-fft-8x6-48.csv"));
    fs::remove_all(dir);
}

TEST(StressrigBackends, RunModeWithAllBackendsVerifiesEach) {
    const fs::path dir = rigtest::scratch("backends", "all");
    const Result r =
        rig("--no-render --quiet --mode=run --pattern=burst --nodes=32 --load=20us --workers=2 "
            "--reps=2 --json --out=res " +
                kBackendsOption,
            dir);
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    const json j = rigtest::stdoutEnvelope(r);
    std::string joined;
    for (const std::string& n : kBackends)
        joined += (joined.empty() ? "" : ",") + n;
    EXPECT_EQ(j.at("configuration").at("backends"), joined);
    const json& b = j.at("result").at("backends");
    ASSERT_EQ(b.size(), kBackends.size()) << b.dump();
    for (const std::string& name : kBackends) {
        ASSERT_TRUE(b.contains(name)) << name;
        const json& e = b.at(name);
        EXPECT_EQ(e.at("runs"), 2) << name;
        EXPECT_EQ(e.at("warmup_runs"), 1) << name;
        EXPECT_EQ(e.at("hash_check"), "ok") << name;
        EXPECT_EQ(e.at("hash_ok_runs"), 2) << name;
        EXPECT_EQ(e.at("exactly_once_runs"), 2) << name;
        EXPECT_EQ(e.at("jobs_lost"), 0) << name;
        EXPECT_EQ(e.at("jobs_repeated"), 0) << name;
        EXPECT_TRUE(e.at("runtime_ms").is_number()) << name;
        EXPECT_TRUE(e.at("failure").is_null()) << name;
    }
    EXPECT_EQ(b.at("pullsched").at("start_times"), "native");
    EXPECT_EQ(b.at("asio").at("start_times"), "native");
    EXPECT_EQ(b.at("pool").at("start_times"), "wait-in-job");

    // one row per backend; every job of every rep of each backend in its own table
    const fs::path out = rigtest::latestRun(dir / "res");
    const CsvTable summary = CsvTable::readFile(out / "run-burst-32-backends.csv");
    ASSERT_EQ(summary.rowCount(), kBackends.size());
    for (std::size_t i = 0; i < kBackends.size(); ++i) {
        EXPECT_EQ(summary.number(i, "exactly once runs"), 2.0);
        // the table leads with the median, the figure the verdict and progress name
        const double median =
            b.at(summary.text(i, summary.columnIndex("backend"))).at("runtime_median_ms");
        EXPECT_NEAR(summary.number(i, "runtime median ms"), median, 1e-3 * median);
    }
    for (const std::string& name : kBackends) {
        const std::string suffix = name == kBackends.front() ? "" : "-" + name;
        const CsvTable jobs = CsvTable::readFile(out / ("run-burst-32" + suffix + ".csv"));
        EXPECT_EQ(jobs.rowCount(), 64u) << name;
        EXPECT_EQ(jobs.comment("backend"), name);
    }
    fs::remove_all(dir);
}

// pullsched alone goes the same way as several backends: the same keys, "backends" with
// one entry holding its detail (job states, reps, hash per rep), which the top level
// repeats, and the warm-up --backend-warmup says.
TEST(StressrigBackends, PullschedAloneIsAOneEntryResultWithItsDetail) {
    const fs::path dir = rigtest::scratch("backends", "default");
    const Result r =
        rig("--no-render --quiet --mode=run --pattern=burst --nodes=16 --load=20us --workers=2 "
            "--life-window=0s --json",
            dir);
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    const json j = rigtest::stdoutEnvelope(r);
    const json& backends = j.at("result").at("backends");
    ASSERT_EQ(backends.size(), 1u) << backends;
    EXPECT_EQ(backends.at("pullsched").at("runs"), 1);
    EXPECT_EQ(backends.at("pullsched").at("warmup_runs"), 1);
    EXPECT_EQ(backends.at("pullsched").at("reps_run"), 1);
    EXPECT_EQ(backends.at("pullsched").at("hash_check"), "ok");
    EXPECT_EQ(backends.at("pullsched").at("exactly_once_runs"), 1);
    EXPECT_EQ(backends.at("pullsched").at("start_times"), "native");
    EXPECT_EQ(j.at("result").at("warmup_runs_per_backend"), 1);
    EXPECT_EQ(j.at("result").at("top_level_backend"), "pullsched");
    EXPECT_EQ(j.at("result").at("deadlines"), false);
    EXPECT_EQ(j.at("result").at("hash_check"), "ok");
    EXPECT_EQ(j.at("result").at("reps_run"), 1);
    EXPECT_EQ(j.at("result").at("jobs_completed"), 16);
    fs::remove_all(dir);
}

TEST(StressrigBackends, UnknownBackendAndModesWithoutTheOptionAreUsageErrors) {
    const fs::path dir = rigtest::scratch("backends", "usage");
    Result r = rig("--no-render --quiet --mode=run --backends=tbb,nope", dir);
    EXPECT_EQ(r.code, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("nope"), std::string::npos) << r.err;
    r = rig("--no-render --quiet --mode=topology --backends=tbb", dir);
    EXPECT_EQ(r.code, 2) << r.out << r.err;
    r = rig("--no-render --quiet --mode=run --backends=tbb --trace-json", dir);
    EXPECT_EQ(r.code, 2) << r.out << r.err;
    fs::remove_all(dir);
}

TEST(StressrigBackends, ParamRangeDrawsEveryBackend) {
    const fs::path dir = rigtest::scratch("backends", "param-range");
    const Result r =
        rig("--no-render --quiet --mode=param-range --pattern=burst --from=8 --to=32 --points=3 "
            "--load=20us --workers=2 --backends=pullsched,pool,asio --json --out=res",
            dir);
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    const json j = rigtest::stdoutEnvelope(r);
    const json& b = j.at("result").at("backends");
    ASSERT_EQ(b.size(), 3u) << b.dump();
    for (const char* name : {"pullsched", "pool", "asio"}) {
        ASSERT_TRUE(b.contains(name)) << name;
        EXPECT_EQ(b.at(name).at("points").size(), 3u) << name;
        for (const json& p : b.at(name).at("points"))
            EXPECT_TRUE(p.at("result_time_ms").is_number()) << name;
    }
    const CsvTable t =
        CsvTable::readFile(rigtest::latestRun(dir / "res") / "param-range-burst-backends.csv");
    EXPECT_EQ(t.rowCount(), 3u);
    for (const char* name : {"pullsched", "pool", "asio"})
        EXPECT_TRUE(t.hasColumn(std::string(name) + " result time")) << name;
    fs::remove_all(dir);
}

TEST(StressrigBackends, BreakingPointSearchesPerBackend) {
    const fs::path dir = rigtest::scratch("backends", "breaking-point");
    const Result r =
        rig("--no-render --quiet --mode=breaking-point --pattern=burst --nodes=16 --load=20us "
            "--workers=2 --reps=2 --json --out=res " +
                kWaitInJobBackends,
            dir);
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    const json j = rigtest::stdoutEnvelope(r);
    const json& b = j.at("result").at("backends");
    ASSERT_GE(b.size(), 1u) << b.dump();
    for (const auto& [name, e] : b.items()) {
        EXPECT_GT(e.at("probes").get<int>(), 0) << name;
        EXPECT_EQ(e.at("probe_list").size(), e.at("probes")) << name;
        EXPECT_EQ(e.at("start_times"), "wait-in-job") << name;
        // each backend's ideal run uses the job times measured in its own runs
        EXPECT_GT(e.at("ideal").at("measured_unit_us").get<double>(), 0.0) << name;
        EXPECT_TRUE(e.at("ideal").contains("jobs_as_measured")) << name;
    }
    EXPECT_GT(j.at("result").at("ideal_jobs_as_planned").at("probes").get<int>(), 0);
    const CsvTable t = CsvTable::readFile(rigtest::latestRun(dir / "res") /
                                          "breaking-point-burst-16-backends.csv");
    EXPECT_EQ(t.rowCount(), b.size());
    EXPECT_TRUE(t.hasColumn("ideal run, its jobs as measured"));
    fs::remove_all(dir);
}
