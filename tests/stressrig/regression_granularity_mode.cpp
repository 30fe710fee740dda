// End-to-end runs of --mode=granularity on tiny configurations (one small graph, three job
// sizes, pullsched and pool): the envelope's shape, every run verified (completed, graph
// hash, every node exactly once), efficiency recomputed from the reported makespans, and
// METG equal to what the EfficiencyCurve analysis reads from the reported points. No
// timing is asserted. Bad --graphs / --backends / size ranges exit 2 with nothing written.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "RigTestSupport.hpp"
#include "analysis/EfficiencyCurve.hpp"
#include "report/CsvTable.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using pullsched::rig::CsvTable;
using pullsched::rig::EfficiencyCurve;
using pullsched::rig::EfficiencyPoint;
using pullsched::rig::kMissing;
using pullsched::rig::Metg;
using rigtest::Result;
using rigtest::rig;

namespace {

const std::string kTiny =
    "--mode=granularity --graphs=isolated:32 --backends=pullsched,pool --min-size=1us "
    "--max-size=4us --step=2 --reps=2 --backend-warmup=1 --workers=2 --no-render --quiet --out=.";

double number(const json& v) {
    return v.is_null() ? kMissing : v.get<double>();
}

/// The backends of --backends=all in this build: a TSan build leaves out the ones whose
/// libraries are not instrumented (RigTestSupport.hpp says why).
std::vector<std::string> allBackends() {
    return rigtest::runnableBackends();
}

std::string backendsOption() {
#if defined(__SANITIZE_THREAD__)
    std::string list;
    for (const std::string& b : allBackends())
        list += (list.empty() ? "" : ",") + b;
    return "--backends=" + list;
#else
    return "--backends=all";
#endif
}

}  // namespace

TEST(GranularityMode, TinySweepIsVerifiedAndMetgComesFromTheAnalysis) {
    const fs::path dir = rigtest::scratch("granularity", "tiny");
    const Result r = rig(kTiny + " --json", dir);
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    const fs::path run = rigtest::latestRun(dir);  // --out=.
    const json e = rigtest::stdoutEnvelope(r);
    EXPECT_EQ(e.at("mode"), "granularity");
    EXPECT_EQ(e.at("exit_status"), 0);
    EXPECT_FALSE(e.at("partial").get<bool>());
    for (const char* f :
         {"granularity.csv", "granularity-metg.csv", "granularity.gp", "granularity.json"})
        EXPECT_TRUE(fs::exists(run / f)) << f;

    const json& res = e.at("result");
    EXPECT_EQ(res.at("threshold_percent"), 50.0);
    const unsigned P = res.at("parallelism");
    // 1 graph × 2 backends × 3 sizes × (1 warm-up + 2 reps), each verified
    EXPECT_EQ(res.at("runs_total"), 18u);
    EXPECT_EQ(res.at("runs_verified"), 18u);
    ASSERT_EQ(res.at("graphs").size(), 1u);
    const json& g = res.at("graphs")[0];
    EXPECT_EQ(g.at("graph"), "isolated-32");
    EXPECT_EQ(g.at("nodes"), 32u);
    EXPECT_EQ(g.at("levels"), 1u);
    EXPECT_EQ(g.at("work_weight_units"), 32.0);
    EXPECT_EQ(g.at("critical_path_weight_units"), 1.0);
    for (const char* b : {"pullsched", "pool"}) {
        SCOPED_TRACE(b);
        const json& s = g.at("backends").at(b);
        const json& pts = s.at("points");
        ASSERT_EQ(pts.size(), 3u);
        std::vector<EfficiencyPoint> curve;
        const double sizes[] = {1, 2, 4};
        for (std::size_t i = 0; i < 3; ++i) {
            const json& p = pts[i];
            EXPECT_EQ(p.at("job_size_us"), sizes[i]);
            EXPECT_EQ(p.at("runs"), 3u);
            EXPECT_EQ(p.at("runs_verified"), 3u);
            const double ms = p.at("makespan_median_ms");
            EXPECT_GT(ms, 0);
            EXPECT_LE(p.at("makespan_min_ms").get<double>(), ms);
            EXPECT_GE(p.at("makespan_max_ms").get<double>(), ms);
            // efficiency = max(work / P, critical path) / makespan, the ideal reported beside
            const double ideal = std::max(32 * sizes[i] / P, 1 * sizes[i]) / 1e3;
            EXPECT_DOUBLE_EQ(p.at("ideal_ms").get<double>(), ideal);
            EXPECT_NEAR(p.at("efficiency").get<double>(), ideal / ms, 1e-12);
            curve.push_back({p.at("job_size_us"), p.at("efficiency")});
        }
        const Metg m = EfficiencyCurve(curve).metg(0.5);
        EXPECT_EQ(s.at("metg_kind"), m.kindName());
        const double reported = number(s.at("metg_us"));
        if (m.kind == Metg::Kind::Interpolated)
            EXPECT_NEAR(reported, m.valueUs, 1e-9);
        else
            EXPECT_TRUE(s.at("metg_us").is_null()) << s.dump();
        if (std::isnan(m.boundUs))
            EXPECT_TRUE(s.at("metg_bound_us").is_null());
        else
            EXPECT_EQ(number(s.at("metg_bound_us")), m.boundUs);
        // the same figure in the two summaries
        EXPECT_EQ(res.at("metg_us").at("isolated-32").at(b), s.at("metg_us"));
        EXPECT_EQ(res.at("backends").at(b).at("metg_us").at("isolated-32"), s.at("metg_us"));
        EXPECT_FALSE(res.at("backends").at(b).at("start_times").get<std::string>().empty());
        EXPECT_TRUE(s.at("stopped") == "max-size" || s.at("stopped") == "saturated") << s.dump();
    }

    // the tables: one row per backend and size; one METG row per backend
    const CsvTable curves = CsvTable::readFile(run / "granularity.csv");
    EXPECT_EQ(curves.rowCount(), 6u);
    EXPECT_TRUE(curves.hasColumn("job size us"));
    EXPECT_TRUE(curves.hasColumn("efficiency"));
    const CsvTable metg = CsvTable::readFile(run / "granularity-metg.csv");
    ASSERT_EQ(metg.rowCount(), 2u);
    EXPECT_EQ(metg.text(0, metg.columnIndex("backend")), "pullsched");
    EXPECT_EQ(metg.text(1, metg.columnIndex("backend")), "pool");
    // the picture's script draws the threshold and a line per backend
    const std::string gp = rigtest::slurp(run / "granularity.gp");
    EXPECT_NE(gp.find("set logscale x"), std::string::npos);
    EXPECT_NE(gp.find("title '50 %'"), std::string::npos);
    EXPECT_NE(gp.find("'pullsched: METG "), std::string::npos);
    EXPECT_NE(gp.find("'pool: METG "), std::string::npos);
    // the verdict under the page title, in its colour
    const auto title = gp.find("set multiplot layout 1,1 title \"efficiency over job size");
    ASSERT_NE(title, std::string::npos) << gp;
    const std::string line = gp.substr(title, gp.find('\n', title) - title);
    EXPECT_NE(line.find("\\nMETG(50 %) pullsched: isolated-32 "), std::string::npos) << line;
    EXPECT_NE(line.find(" textcolor rgb '#"), std::string::npos) << line;
    fs::remove_all(dir);
}

TEST(GranularityMode, GraphListNamesPresetsAndHandMadeShapes) {
    const fs::path dir = rigtest::scratch("granularity", "graphs");
    const Result r =
        rig("--mode=granularity --graphs=grid:4x4,burst:32,chain:8 --backends=pool --min-size=1us "
            "--max-size=1us --reps=1 --backend-warmup=0 --no-render --quiet --json",
            dir);
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    const json res = rigtest::stdoutEnvelope(r).at("result");
    ASSERT_EQ(res.at("graphs").size(), 3u);
    EXPECT_EQ(res.at("graphs")[0].at("graph"), "grid-4x4");
    EXPECT_EQ(res.at("graphs")[0].at("levels"), 7u);  // anti-diagonals of a 4×4 grid
    EXPECT_EQ(res.at("graphs")[0].at("critical_path_weight_units"), 7.0);
    EXPECT_EQ(res.at("graphs")[1].at("graph"), "burst-32");
    EXPECT_EQ(res.at("graphs")[1].at("nodes"), 32u);
    EXPECT_EQ(res.at("graphs")[2].at("graph"), "chain-8");
    EXPECT_EQ(res.at("graphs")[2].at("critical_path_weight_units"), 8.0);
    EXPECT_EQ(res.at("runs_total"), res.at("runs_verified"));
    EXPECT_EQ(res.at("runs_total"), 3u);
    fs::remove_all(dir);
}

TEST(GranularityMode, TaskBenchPatternsRunOnEveryBackendAndEveryRunIsVerified) {
    const fs::path dir = rigtest::scratch("granularity", "taskbench");
    const Result r =
        rig("--mode=granularity --graphs=stencil_1d:8x10,fft:8x8,tree:8x4,nearest:8x10 "
            "--sizes=4us --reps=1 --backend-warmup=0 --workers=2 --no-render --quiet "
            "--json " +
                backendsOption(),
            dir);
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    const json res = rigtest::stdoutEnvelope(r).at("result");
    const std::vector<std::string> backends = allBackends();
    // 4 graphs × every backend × 1 run, each completed, hashed right, every node once
    EXPECT_EQ(res.at("runs_total"), 4 * backends.size());
    EXPECT_EQ(res.at("runs_verified"), 4 * backends.size());
    // worked out by hand from the definitions (unit_task_bench_patterns checks each edge)
    const struct {
        const char* label;
        unsigned nodes, levels, edges;
    } want[] = {{"stencil_1d-8x10", 80, 10, 9 * 22},
                {"fft-8x8", 64, 8, 3 * 22 + 2 * 20 + 2 * 16},  // strides 1, 2, 4, 1, 2, 4, 1
                {"tree-8x4", 15, 4, 14},                       // widths 1, 2, 4, 8
                {"nearest-8x10", 80, 10, 9 * 22}};             // radix 3: as stencil_1d
    ASSERT_EQ(res.at("graphs").size(), 4u);
    for (std::size_t i = 0; i < 4; ++i) {
        const json& g = res.at("graphs")[i];
        SCOPED_TRACE(want[i].label);
        EXPECT_EQ(g.at("graph"), want[i].label);
        EXPECT_EQ(g.at("nodes"), want[i].nodes);
        EXPECT_EQ(g.at("levels"), want[i].levels);
        EXPECT_EQ(g.at("edges"), want[i].edges);
        EXPECT_EQ(g.at("work_weight_units"), double(want[i].nodes));
        EXPECT_EQ(g.at("critical_path_weight_units"), double(want[i].levels));
        for (const std::string& b : backends) {
            const json& pts = g.at("backends").at(b).at("points");
            ASSERT_EQ(pts.size(), 1u) << b;
            EXPECT_EQ(pts[0].at("runs_verified"), 1u) << b;
        }
    }
    fs::remove_all(dir);
}

TEST(GranularityMode, TaskBenchRadixAndImbalanceShapeTheGraph) {
    const fs::path dir = rigtest::scratch("granularity", "imbalance");
    const Result r =
        rig("--mode=granularity --graphs=nearest:8x10,spread:8x4 --radix=5 --imbalance=0.5 "
            "--backends=pullsched,pool --sizes=1us --reps=1 --backend-warmup=0 --no-render "
            "--quiet --json",
            dir);
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    const json e = rigtest::stdoutEnvelope(r);
    EXPECT_EQ(e.at("configuration").at("radix"), 5);
    EXPECT_EQ(e.at("configuration").at("imbalance"), 0.5);
    const json& res = e.at("result");
    EXPECT_EQ(res.at("runs_verified"), 4u);
    const json& nearest = res.at("graphs")[0];
    EXPECT_EQ(nearest.at("graph"), "nearest-8x10-r5-i0.5");
    // radix 5 clipped at the edges: 3, 4, 5, 5, 5, 5, 4, 3 dependencies per step
    EXPECT_EQ(nearest.at("edges"), 9u * 34u);
    // weights (1 ± 0.25) × 16
    const double work = nearest.at("work_weight_units");
    EXPECT_GE(work, 80 * 12.0);
    EXPECT_LE(work, 80 * 20.0);
    EXPECT_NE(work, 80 * 16.0);
    EXPECT_EQ(res.at("graphs")[1].at("graph"), "spread-8x4-r5-i0.5");
    EXPECT_EQ(res.at("graphs")[1].at("edges"), 3u * 8u * 5u);
    fs::remove_all(dir);
}

TEST(GranularityMode, ExplicitSizesAndEmptyJobOverhead) {
    const fs::path dir = rigtest::scratch("granularity", "sizes");
    const Result r =
        rig("--mode=granularity --graphs=chain:16 --backends=pullsched,pool "
            "--sizes=4us,1us,2.5us --overhead --reps=2 --backend-warmup=1 --no-render "
            "--quiet --json --out=.",
            dir);
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    const json e = rigtest::stdoutEnvelope(r);
    EXPECT_EQ(e.at("configuration").at("sizes"), "4us,1us,2.5us");
    EXPECT_TRUE(e.at("configuration").at("overhead").get<bool>());
    const json& res = e.at("result");
    // sorted (a size given twice is refused); every size measured (no early end at
    // saturation)
    EXPECT_EQ(res.at("sizes_us"), json({1.0, 2.5, 4.0}));
    // 2 backends × (empty jobs prebuilt and planned in the run + 3 sizes) × (1 warm-up +
    // 2 reps), and pullsched's prebuilt empty jobs as one batch (3 runs), each verified
    EXPECT_EQ(res.at("runs_total"), 33u);
    EXPECT_EQ(res.at("runs_verified"), 33u);
    const json& g = res.at("graphs")[0];
    for (const char* b : {"pullsched", "pool"}) {
        SCOPED_TRACE(b);
        const json& s = g.at("backends").at(b);
        ASSERT_EQ(s.at("points").size(), 3u);
        EXPECT_EQ(s.at("points")[1].at("job_size_us"), 2.5);
        EXPECT_EQ(s.at("stopped"), "max-size");
        const double ns = s.at("empty_ns_per_job");
        EXPECT_GT(ns, 0);
        EXPECT_EQ(res.at("empty_ns_per_job").at("chain-16").at(b), ns);
        const double planned = s.at("plan_and_run_ns_per_job");
        EXPECT_GT(planned, 0);
        EXPECT_EQ(res.at("plan_and_run_ns_per_job").at("chain-16").at(b), planned);
        // two threads ran the jobs: the busiest ran at least half of them
        for (const char* key :
             {"empty_busiest_thread_share", "plan_and_run_busiest_thread_share"}) {
            SCOPED_TRACE(key);
            const double share = s.at(key);
            EXPECT_GE(share, 0.5);
            EXPECT_LE(share, 1.0);
            EXPECT_EQ(res.at(key).at("chain-16").at(b), share);
        }
    }
    // pullsched's prebuilt graph also as one batch without its gate; the pool has no gate
    // and no such figure
    const json& batch = g.at("backends").at("pullsched");
    const double batchNs = batch.at("empty_batch_ns_per_job");
    EXPECT_GT(batchNs, 0);
    EXPECT_EQ(res.at("empty_batch_ns_per_job").at("chain-16"), json({{"pullsched", batchNs}}));
    const double batchShare = batch.at("empty_batch_busiest_thread_share");
    EXPECT_GE(batchShare, 0.5);
    EXPECT_LE(batchShare, 1.0);
    EXPECT_EQ(res.at("empty_batch_busiest_thread_share").at("chain-16").at("pullsched"),
              batchShare);
    EXPECT_FALSE(g.at("backends").at("pool").contains("empty_batch_ns_per_job"));
    const CsvTable metg =
        CsvTable::readFile(rigtest::latestRun(dir) / "granularity-metg.csv");  // --out=.
    ASSERT_TRUE(metg.hasColumn("empty jobs ns per job"));
    ASSERT_TRUE(metg.hasColumn("empty jobs planned in the run ns per job"));
    ASSERT_TRUE(metg.hasColumn("empty jobs: busiest thread's share"));
    ASSERT_TRUE(metg.hasColumn("empty jobs planned in the run: busiest thread's share"));
    ASSERT_TRUE(metg.hasColumn("empty jobs as one batch ns per job"));
    const double pullschedNs = g.at("backends").at("pullsched").at("empty_ns_per_job");
    EXPECT_NEAR(metg.number(0, metg.columnIndex("empty jobs ns per job")), pullschedNs,
                1e-3 * pullschedNs);  // the CSV's significant digits
    EXPECT_NEAR(metg.number(0, metg.columnIndex("empty jobs as one batch ns per job")), batchNs,
                1e-3 * batchNs);
    fs::remove_all(dir);
}

// With one worker a single thread runs every job, so every share is exactly 1: the share is
// counted per thread, not estimated.
TEST(GranularityMode, OneWorkerRunsEveryEmptyJobOnOneThread) {
    const fs::path dir = rigtest::scratch("granularity", "one-worker");
    const Result r =
        rig("--mode=granularity --graphs=grid:4x4,isolated:16 --backends=all "
            "--workers=1 --sizes=1us --overhead --reps=1 --backend-warmup=0 "
            "--no-render --quiet --json --out=.",
            dir);
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    const json e = rigtest::stdoutEnvelope(r);
    const json& res = e.at("result");
    for (const char* key : {"empty_busiest_thread_share", "plan_and_run_busiest_thread_share",
                            "empty_batch_busiest_thread_share"})
        for (const auto& [graph, backends] : res.at(key).items())
            for (const auto& [backend, share] : backends.items())
                EXPECT_EQ(share.get<double>(), 1.0) << key << " " << graph << " " << backend;
    EXPECT_EQ(res.at("empty_busiest_thread_share").size(), 2u);
    EXPECT_EQ(res.at("empty_batch_busiest_thread_share").size(), 2u);
    fs::remove_all(dir);
}

TEST(GranularityMode, BadArgumentsExit2WithNothingWritten) {
    const fs::path dir = rigtest::scratch("granularity", "bad");
    const struct {
        std::string args, message;
    } cases[] = {
        {"--graphs=nosuch:10", "invalid --graphs entry 'nosuch:10'"},
        {"--graphs=grid:10", "a grid is grid:WIDTHxHEIGHT"},
        {"--graphs=chain", "want NAME:NODES"},
        {"--graphs=chain:0", "is not a count"},
        {"--backends=nope", "--backends: unknown backend 'nope'"},
        {"--min-size=2us --max-size=1us", "the largest size is below the smallest"},
        {"--sizes=1us,fast", "invalid --sizes entry 'fast'"},
        {"--sizes=10ns", "a job size is 100ns..10s"},
        {"--graphs=stencil_1d:8", "a Task Bench shape is NAME:WIDTHxSTEPS"},
        {"--graphs=all_to_all:32x4", "width of at most 16"},
        {"--graphs=trivial:1x1", "at least 2 jobs"},
        {"--radix=17", "--radix"},
        {"--imbalance=2.5", "--imbalance"},
        {"--graphs=chain:8 --radix=4", "--radix shapes Task Bench patterns only"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.args);
        const Result r = rig("--mode=granularity --out=res " + c.args, dir);
        EXPECT_EQ(r.code, 2) << r.out << r.err;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
        EXPECT_FALSE(fs::exists(dir / "res"));
    }
    fs::remove_all(dir);
}
