// The graph modes decide by what each backend can do, never by how many run (issue 46):
// run, breaking-point and param-range on pullsched and pool together give pullsched's
// instrumented detail (the worker of each job, concurrency, the timeline, the impeded
// time) and none for pool, which is not instrumented; a life window or a placement given
// for pool, which has neither, ends the rig with exit 2 naming it, before anything is
// written; the default life window is then off for every backend, and the result says so.
// Tiny graphs; no timing is asserted (shared cores).
#include <cmath>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "RigTestSupport.hpp"
#include "report/CsvTable.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using pullsched::rig::CsvTable;
using rigtest::Result;
using rigtest::rig;

namespace {

const std::string kBoth = " --backends=pullsched,pool";
const std::string kRun =
    "--mode=run --pattern=burst --nodes=16 --load=50us --workers=2 --reps=2 --no-render";
const std::string kBp =
    "--mode=breaking-point --pattern=burst --nodes=8 --load=100us --workers=2 --reps=2 "
    "--no-render";
const std::string kPr =
    "--mode=param-range --pattern=isolated --from=4 --to=12 --points=3 --load=50us "
    "--workers=2 --no-render";

/// Runs `args` with --json --quiet in a fresh directory; expects exit 0.
json envelope(const std::string& args, const fs::path& dir) {
    const Result r = rig(args + " --json --quiet --out=res", dir);
    EXPECT_EQ(r.code, 0) << args << "\n" << r.err;
    return r.code == 0 ? rigtest::stdoutEnvelope(r) : json::object();
}

/// How often `text` occurs in `in`.
std::size_t occurrences(const std::string& in, const std::string& text) {
    std::size_t n = 0;
    for (std::size_t at = in.find(text); at != std::string::npos; at = in.find(text, at + 1))
        ++n;
    return n;
}

}  // namespace

TEST(BackendCapabilities, RunObservesTheInstrumentedBackendBesideAnother) {
    const fs::path dir = rigtest::scratch("capabilities", "run");
    const json e = envelope(kRun + kBoth, dir);
    ASSERT_TRUE(e.contains("result")) << e;
    const json& b = e.at("result").at("backends");
    const json& ps = b.at("pullsched");
    const json& pool = b.at("pool");
    EXPECT_EQ(ps.at("instrumented"), true);
    EXPECT_TRUE(ps.at("avg_concurrency").is_number()) << ps;
    EXPECT_TRUE(ps.at("max_concurrency_last_rep").is_number()) << ps;
    EXPECT_EQ(pool.at("instrumented"), false);
    EXPECT_TRUE(pool.at("avg_concurrency").is_null()) << pool;
    EXPECT_TRUE(pool.at("max_concurrency_last_rep").is_null()) << pool;
    // the same measurement on both: every rep and job judged alike
    for (const json* x : {&ps, &pool}) {
        EXPECT_EQ(x->at("reps_run"), 2) << *x;
        EXPECT_EQ(x->at("jobs_completed"), 32) << *x;
        EXPECT_EQ(x->at("hash_check"), "ok") << *x;
        EXPECT_EQ(x->at("warmup_runs"), 1) << *x;
    }
    // every job of every rep of each backend, with its worker where it was observed
    const fs::path out = rigtest::latestRun(dir / "res");
    const CsvTable psJobs = CsvTable::readFile(out / "run-burst-16.csv");
    const CsvTable poolJobs = CsvTable::readFile(out / "run-burst-16-pool.csv");
    ASSERT_EQ(psJobs.rowCount(), 32u);
    ASSERT_EQ(poolJobs.rowCount(), 32u);
    for (std::size_t i = 0; i < 32; ++i) {
        EXPECT_FALSE(std::isnan(psJobs.number(i, "worker"))) << "row " << i;
        EXPECT_TRUE(std::isnan(poolJobs.number(i, "worker"))) << "row " << i;
        EXPECT_EQ(poolJobs.text(i, poolJobs.columnIndex("state")), "completed");
    }
    EXPECT_TRUE(fs::exists(out / "run-burst-16-concurrency.csv"));
    EXPECT_FALSE(fs::exists(out / "run-burst-16-pool-concurrency.csv"));
    fs::remove_all(dir);
}

TEST(BackendCapabilities, RunSaysOnceWhichBackendIsNotInstrumented) {
    const fs::path dir = rigtest::scratch("capabilities", "run-text");
    const Result r = rig(kRun + kBoth + " --quiet --out=res", dir);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(occurrences(r.out, "not instrumented"), 1u) << r.out;
    EXPECT_NE(r.out.find("not instrumented: pool"), std::string::npos) << r.out;
    fs::remove_all(dir);
}

TEST(BackendCapabilities, BreakingPointShowsTheTimelineOfTheInstrumentedBackendOnly) {
    const fs::path dir = rigtest::scratch("capabilities", "bp");
    // 1 h of slack: every probe holds, so the highest probe that held has a timeline
    const json e = envelope(kBp + kBoth + " --fail-delta=1h", dir);
    ASSERT_TRUE(e.contains("result")) << e;
    const json& b = e.at("result").at("backends");
    EXPECT_EQ(b.at("pullsched").at("instrumented"), true);
    EXPECT_TRUE(b.at("pullsched").at("timeline_stress").is_number()) << b.at("pullsched");
    EXPECT_EQ(b.at("pool").at("instrumented"), false);
    EXPECT_TRUE(b.at("pool").at("timeline_stress").is_null()) << b.at("pool");
    for (const char* name : {"pullsched", "pool"}) {  // the same search on both
        EXPECT_EQ(b.at(name).at("probes"), 7) << name;
        EXPECT_EQ(b.at(name).at("runs"), 14) << name;
        EXPECT_TRUE(b.at(name).contains("fit")) << name;
    }
    const fs::path out = rigtest::latestRun(dir / "res");
    EXPECT_TRUE(fs::exists(out / "breaking-point-burst-8-timeline.gp"));
    EXPECT_FALSE(fs::exists(out / "breaking-point-burst-8-pool-timeline.gp"));
    EXPECT_EQ(CsvTable::readFile(out / "breaking-point-burst-8-pool-runs.csv").rowCount(), 14u);
    fs::remove_all(dir);
}

TEST(BackendCapabilities, ParamRangeGivesTheImpededTimeOfTheInstrumentedBackendOnly) {
    const fs::path dir = rigtest::scratch("capabilities", "pr");
    const json e = envelope(kPr + kBoth, dir);
    ASSERT_TRUE(e.contains("result")) << e;
    const json& b = e.at("result").at("backends");
    EXPECT_EQ(b.at("pullsched").at("instrumented"), true);
    EXPECT_EQ(b.at("pool").at("instrumented"), false);
    ASSERT_EQ(b.at("pullsched").at("points").size(), 3u);
    ASSERT_EQ(b.at("pool").at("points").size(), 3u);
    for (const json& p : b.at("pullsched").at("points")) {
        EXPECT_TRUE(p.at("avg_impeded_us").is_number()) << p;
        EXPECT_TRUE(p.at("result_time_ms").is_number()) << p;
    }
    for (const json& p : b.at("pool").at("points")) {
        EXPECT_TRUE(p.at("avg_impeded_us").is_null()) << p;
        EXPECT_TRUE(p.at("result_time_ms").is_number()) << p;  // the same figure as pullsched's
    }
    const CsvTable pool =
        CsvTable::readFile(rigtest::latestRun(dir / "res") / "param-range-isolated-pool.csv");
    ASSERT_EQ(pool.rowCount(), 3u);
    for (std::size_t i = 0; i < 3; ++i)
        EXPECT_TRUE(std::isnan(pool.number(i, "avg impeded"))) << "row " << i;
    fs::remove_all(dir);
}

// Asked for deadlines or a placement that pool does not have: refused, not measured without.
TEST(BackendCapabilities, AnOptionABackendCannotHonourIsRefusedNamingIt) {
    struct Case {
        std::string args, says;
    };
    for (const Case& c : {Case{kRun + kBoth + " --life-window=50ms", "deadlines"},
                          Case{kBp + kBoth + " --life-window=50ms", "deadlines"},
                          Case{kRun + " --backends=pool,tbb --life-window=1ms", "deadlines"},
                          Case{kRun + kBoth + " --placement=pinned", "placement"},
                          Case{kBp + kBoth + " --placement=os", "placement"},
                          Case{kPr + kBoth + " --placement=spread", "placement"}}) {
        const fs::path dir = rigtest::scratch("capabilities", "refused");
        const Result r = rig(c.args + " --out=res", dir);
        EXPECT_EQ(r.code, 2) << c.args << "\n" << r.out << r.err;
        EXPECT_NE(r.err.find("pool"), std::string::npos) << c.args << "\n" << r.err;
        EXPECT_NE(r.err.find(c.says), std::string::npos) << c.args << "\n" << r.err;
        EXPECT_TRUE(r.out.empty()) << c.args << "\n" << r.out;
        EXPECT_FALSE(fs::exists(dir / "res")) << c.args;  // nothing written
        fs::remove_all(dir);
    }
}

// The default life window holds on pullsched alone; beside pool it is off for both, and
// the result says why, in its JSON and once in its text.
TEST(BackendCapabilities, TheDefaultLifeWindowIsOnlyKeptWhenEveryBackendHasDeadlines) {
    const fs::path dir = rigtest::scratch("capabilities", "default-window");
    const json alone = envelope(kRun, dir);
    ASSERT_TRUE(alone.contains("result")) << alone;
    EXPECT_EQ(alone.at("result").at("deadlines"), true);
    fs::remove_all(dir / "res");
    const json both = envelope(kRun + kBoth, dir);
    ASSERT_TRUE(both.contains("result")) << both;
    EXPECT_EQ(both.at("result").at("deadlines"), false);
    const std::string why = both.at("result").at("deadlines_reason");
    EXPECT_NE(why.find("pool"), std::string::npos) << why;
    fs::remove_all(dir / "res");
    const json bp = envelope(kBp + kBoth + " --fail-delta=1h", dir);
    ASSERT_TRUE(bp.contains("result")) << bp;
    EXPECT_EQ(bp.at("result").at("deadlines"), false);
    EXPECT_NE(bp.at("result").at("deadlines_reason").get<std::string>().find("pool"),
              std::string::npos);
    // an explicit 0s is no deadline at all: pool may run beside pullsched
    fs::remove_all(dir / "res");
    const json zero = envelope(kRun + kBoth + " --life-window=0s", dir);
    ASSERT_TRUE(zero.contains("result")) << zero;
    EXPECT_EQ(zero.at("result").at("deadlines"), false);
    fs::remove_all(dir);
}
