// End-to-end runs of --mode=breaking-point and --mode=param-range on tiny graphs: every
// option shows in the envelope's configuration and changes what the mode does; fields are
// consistent; missing values stay missing; a stop request gives a partial result. No
// timing is asserted: verdicts are checked against the thresholds they were made with.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "RigTestSupport.hpp"
#include "report/CsvTable.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using pullsched::rig::CsvTable;
using rigtest::Result;
using rigtest::rig;
using rigtest::slurp;

namespace {

// A tiny, fast search: 8 nodes, 3 runs per probe, 100 µs jobs.
const std::string kBp = "--mode=breaking-point --nodes=8 --reps=3 --load=100us --no-render ";
const std::string kPr =
    "--mode=param-range --pattern=isolated --from=4 --to=12 --points=4 --load=100us --no-render ";

/// Runs with --json --quiet and returns the envelope; expects exit 0.
json run(const std::string& args, const fs::path& dir) {
    const Result r = rig(args + " --json --quiet", dir);
    EXPECT_EQ(r.code, 0) << args << "\n" << r.out << r.err;
    return rigtest::stdoutEnvelope(r);
}

bool missing(const json& v) {
    return v.is_null();
}

/// Each probe's verdict and each run's failure follow from the thresholds in the result.
void expectVerdictsFollowThresholds(const fs::path& out, const std::string& stem, const json& res) {
    const json& th = res.at("thresholds");
    const double failDelta = th.at("fail_delta_ms"), sdevLimit = th.at("sdev_limit_ms"),
                 deltaLimit = th.at("delta_limit_ms"), breakFail = th.at("break_fail_fraction"),
                 fail = th.at("fail_fraction");
    const CsvTable runs = CsvTable::readFile(out / (stem + "-runs.csv"));
    for (std::size_t i = 0; i < runs.rowCount(); ++i) {
        const double rt = runs.number(i, "runtime ms"), delta = runs.number(i, "delta ms");
        const bool complete = runs.number(i, "complete") == 1;
        EXPECT_EQ(complete, !std::isnan(rt)) << "row " << i;
        if (complete)  // a complete run fails only by being late
            EXPECT_EQ(runs.number(i, "failed") == 1, delta > failDelta) << "row " << i;
        else
            EXPECT_EQ(runs.number(i, "failed"), 1) << "row " << i;
    }
    const CsvTable probes = CsvTable::readFile(out / (stem + ".csv"));
    for (std::size_t i = 0; i < probes.rowCount(); ++i) {
        const double ff = probes.number(i, "fail fraction"), sd = probes.number(i, "sdev ms"),
                     md = probes.number(i, "mean delta ms");
        const bool broken = ff > breakFail || (ff > fail && sd > sdevLimit && md > deltaLimit);
        EXPECT_EQ(probes.number(i, "broken") == 1, broken) << "probe " << i;
    }
}

/// Starts the binary, sends `sig` once its stderr shows `marker`, returns what it said.
Result interrupt(const std::vector<std::string>& args, const fs::path& dir,
                 const std::string& marker, int sig) {
    const pid_t pid = rigtest::startRig(args, dir);
    rigtest::waitForText(dir / "stderr.txt", marker, 600);
    // time for the first runs, even under ThreadSanitizer
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    kill(pid, sig);
    int st = 0;
    waitpid(pid, &st, 0);
    Result r;
    r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    r.out = slurp(dir / "stdout.txt");
    r.err = slurp(dir / "stderr.txt");
    return r;
}

}  // namespace

// ------------------------------------------------------------------ breaking point

TEST(SeriesBreakingPoint, SmallSearchTerminatesWithConsistentFields) {
    const fs::path dir = rigtest::scratch("series", "bp");
    const json e = run(kBp, dir);
    EXPECT_EQ(e.at("mode"), "breaking-point");
    EXPECT_EQ(e.at("partial"), false);
    const json& c = e.at("configuration");
    EXPECT_EQ(c.at("nodes"), 8);
    EXPECT_EQ(c.at("reps"), 3);
    EXPECT_EQ(c.at("load_us"), 100);
    EXPECT_EQ(c.at("thresholds"), "scaled");
    const json& j = e.at("result");
    EXPECT_EQ(j.at("nodes"), 8);
    EXPECT_EQ(j.at("reps_per_probe"), 3);
    const std::size_t probes = j.at("probes");
    EXPECT_GE(probes, 1u);
    EXPECT_EQ(j.at("runs"), 3 * probes);
    // scaled thresholds: 2 ms / 2 ms / 4 ms at 500 µs jobs, here × 0.2
    EXPECT_EQ(j.at("thresholds").at("mode"), "scaled");
    EXPECT_NEAR(j.at("thresholds").at("scale").get<double>(), 0.2, 1e-12);
    EXPECT_NEAR(j.at("thresholds").at("fail_delta_ms").get<double>(), 0.4, 1e-12);
    EXPECT_NEAR(j.at("thresholds").at("sdev_limit_ms").get<double>(), 0.4, 1e-12);
    EXPECT_NEAR(j.at("thresholds").at("delta_limit_ms").get<double>(), 0.8, 1e-12);
    // bracket and estimate
    if (j.at("converged") == true) {
        const double s = j.at("breaking_stress"), lo = j.at("bracket_low"),
                     hi = j.at("bracket_high");
        EXPECT_LE(lo, s);
        EXPECT_LE(s, hi);
        EXPECT_LE(hi - lo, j.at("resolution").get<double>() + 1e-12);
        EXPECT_FALSE(missing(j.at("lowest_broken")));
    } else {
        EXPECT_TRUE(missing(j.at("breaking_stress")));
        EXPECT_EQ(j.at("bracket_low"), 64);
    }
    // the confidence interval brackets the fitted estimate, or is null
    const json& fit = j.at("fit");
    if (fit.at("fitted") == true) {
        const double s50 = fit.at("stress_50");
        if (!missing(fit.at("ci95_low"))) {
            EXPECT_LE(fit.at("ci95_low").get<double>(), s50);
        }
        if (!missing(fit.at("ci95_high"))) {
            EXPECT_GE(fit.at("ci95_high").get<double>(), s50);
        }
    } else {
        EXPECT_TRUE(missing(fit.at("stress_50")));
        EXPECT_TRUE(missing(fit.at("ci95_low")));
        EXPECT_FALSE(fit.at("reason").get<std::string>().empty());
    }
    EXPECT_GT(j.at("limit_stress").get<double>(), 0.0);
    EXPECT_GT(j.at("lower_bound_ms").get<double>(), 0.0);
    // the ideal run: simulated with the jobs as planned and as measured in these runs
    const json& ideal = j.at("ideal");
    EXPECT_GT(ideal.at("jobs_as_planned").at("probes").get<int>(), 0);
    EXPECT_GT(ideal.at("measured_unit_us").get<double>(), 0.0);
    const json& asMeasured = ideal.at("jobs_as_measured");
    if (!missing(asMeasured.at("breaking_stress"))) {
        EXPECT_LE(asMeasured.at("bracket_low").get<double>(),
                  asMeasured.at("breaking_stress").get<double>());
        if (j.at("converged") == true) {
            EXPECT_NEAR(j.at("breaking_to_ideal").get<double>(),
                        j.at("breaking_stress").get<double>() /
                            asMeasured.at("breaking_stress").get<double>(),
                        1e-9);
        }
    }
    EXPECT_EQ(j.at("probe_list").size(), probes);
    // files: probes, runs, plot, envelope
    const fs::path out = rigtest::latestRun(dir / "out");
    const std::string stem = "breaking-point-burst-8";
    const std::set<std::string> files(e.at("files").begin(), e.at("files").end());
    for (const std::string f : {".csv", "-runs.csv", ".gp", ".json"})
        EXPECT_TRUE(files.count(stem + f)) << f;
    // the timeline of the highest probe that held, when one held
    EXPECT_EQ(files.count(stem + "-timeline.gp"), j.at("highest_holding").is_null() ? 0u : 1u);
    const CsvTable t = CsvTable::readFile(out / (stem + ".csv"));
    EXPECT_EQ(t.rowCount(), probes);
    for (std::size_t i = 0; i < t.rowCount(); ++i)
        EXPECT_EQ(t.number(i, "runs"), 3);
    EXPECT_EQ(CsvTable::readFile(out / (stem + "-runs.csv")).rowCount(), 3 * probes);
    EXPECT_NE(slurp(out / (stem + ".gp")).find("fitted fail fraction"), std::string::npos);
    expectVerdictsFollowThresholds(out, stem, j);
    fs::remove_all(dir);
}

TEST(SeriesBreakingPoint, TextReportUsesAdaptiveUnits) {
    const fs::path dir = rigtest::scratch("series", "bptext");
    const Result r = rig(kBp + "--quiet", dir);
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    for (const char* w : {"Breaking point: pattern burst (8 nodes", "3 runs per probe",
                          "breaking stress", "logistic fit", "theoretical limit stress",
                          "lower bound", "breaking / limit", "Verdict:", "µs"})
        EXPECT_NE(r.out.find(w), std::string::npos) << w << "\n" << r.out;
    EXPECT_EQ(r.out.find(" ms "), std::string::npos) << r.out;  // no fixed-unit figures
    fs::remove_all(dir);
}

TEST(SeriesBreakingPoint, ThresholdOptionsDecideTheVerdicts) {
    const fs::path dir = rigtest::scratch("series", "bpth");
    // reference thresholds: the fixed 2 ms / 2 ms / 4 ms whatever the load
    const json ref = run(kBp + "--thresholds=reference --life-window=0s", dir);
    EXPECT_EQ(ref.at("configuration").at("thresholds"), "reference");
    const json& rt = ref.at("result").at("thresholds");
    EXPECT_EQ(rt.at("scale"), 1.0);
    EXPECT_EQ(rt.at("fail_delta_ms"), 2.0);
    EXPECT_EQ(rt.at("sdev_limit_ms"), 2.0);
    EXPECT_EQ(rt.at("delta_limit_ms"), 4.0);
    expectVerdictsFollowThresholds(rigtest::latestRun(dir / "out"), "breaking-point-burst-8",
                                   ref.at("result"));

    // individual thresholds are used as given (not scaled)
    fs::remove_all(dir / "out");
    const json given = run(kBp +
                               "--fail-delta=300us --sdev-limit=250us --delta-limit=350us "
                               "--break-fail-fraction=0.6 --fail-fraction=0.3",
                           dir);
    const json& c = given.at("configuration");
    EXPECT_EQ(c.at("fail_delta_us"), 300);
    EXPECT_EQ(c.at("sdev_limit_us"), 250);
    EXPECT_EQ(c.at("delta_limit_us"), 350);
    EXPECT_EQ(c.at("break_fail_fraction"), 0.6);
    EXPECT_EQ(c.at("fail_fraction"), 0.3);
    const json& gt = given.at("result").at("thresholds");
    EXPECT_NEAR(gt.at("fail_delta_ms").get<double>(), 0.3, 1e-12);
    EXPECT_NEAR(gt.at("sdev_limit_ms").get<double>(), 0.25, 1e-12);
    EXPECT_NEAR(gt.at("delta_limit_ms").get<double>(), 0.35, 1e-12);
    EXPECT_EQ(gt.at("break_fail_fraction"), 0.6);
    EXPECT_EQ(gt.at("fail_fraction"), 0.3);
    expectVerdictsFollowThresholds(rigtest::latestRun(dir / "out"), "breaking-point-burst-8",
                                   given.at("result"));
    fs::remove_all(dir);
}

TEST(SeriesBreakingPoint, UnreachableThresholdsWidenToTheCap) {
    const fs::path dir = rigtest::scratch("series", "bpcap");
    // no run can fail (no deadlines, 1 h of slack) and no probe can break: 7 probes up to 64
    const json a = run(kBp + "--life-window=0s --fail-delta=1h", dir);
    EXPECT_EQ(a.at("configuration").at("life_window_us"), 0);
    EXPECT_EQ(a.at("result").at("found"), false);
    EXPECT_EQ(a.at("result").at("probes"), 7);
    EXPECT_EQ(a.at("result").at("bracket_low"), 64);
    EXPECT_TRUE(missing(a.at("result").at("breaking_stress")));
    EXPECT_EQ(a.at("result").at("fit").at("reason"), "no run failed");
    EXPECT_EQ(a.at("result").at("incomplete_runs"), 0);
    // both fraction rules out of reach: runs may fail, probes still never break
    fs::remove_all(dir / "out");
    const json b = run(kBp + "--life-window=0s --break-fail-fraction=1 --fail-fraction=1", dir);
    EXPECT_EQ(b.at("result").at("found"), false);
    EXPECT_EQ(b.at("result").at("probes"), 7);
    fs::remove_all(dir);
}

TEST(SeriesBreakingPoint, IncompleteRunsAreMissingAndCounted) {
    const fs::path dir = rigtest::scratch("series", "bpinc");
    // a 1 µs life window lets jobs expire: runs end incomplete and break every probe; the
    // search bisects downwards until a probe would outlast --max-schedule
    const Result r = rig(kBp + "--life-window=1us --max-schedule=2ms --json --quiet", dir);
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    const json e = rigtest::stdoutEnvelope(r);
    EXPECT_EQ(e.at("configuration").at("life_window_us"), 1);
    EXPECT_EQ(e.at("configuration").at("max_schedule_us"), 2000);
    const json& j = e.at("result");
    const std::size_t incomplete = j.at("incomplete_runs");
    ASSERT_GT(incomplete, 0u);
    std::string warnings;
    for (const json& w : e.at("warnings"))
        warnings += w.get<std::string>() + "\n";
    EXPECT_NE(warnings.find("runs incomplete"), std::string::npos) << warnings;
    bool allBroken = true;
    for (const json& p : j.at("probe_list"))
        allBroken = allBroken && p.at("broken") == true;
    if (allBroken) {  // bisected downwards into --max-schedule: a bracket, no estimate
        EXPECT_NE(warnings.find("search stopped"), std::string::npos) << warnings;
        EXPECT_NE(warnings.find("--max-schedule"), std::string::npos) << warnings;
        EXPECT_EQ(j.at("found"), true);
        EXPECT_EQ(j.at("converged"), false);
        EXPECT_TRUE(missing(j.at("breaking_stress")));
        EXPECT_EQ(j.at("fit").at("reason"), "every run failed");
    }
    EXPECT_EQ(e.at("exit_status"), 0);  // overload is a measurement
    // a probe whose runs were all incomplete has no delta, sdev or runtime
    for (const json& p : j.at("probe_list")) {
        if (p.at("incomplete_runs") == p.at("runs")) {
            EXPECT_TRUE(missing(p.at("mean_delta_ms")));
            EXPECT_TRUE(missing(p.at("sdev_ms")));
            EXPECT_TRUE(missing(p.at("mean_runtime_ms")));
            EXPECT_EQ(p.at("fail_fraction"), 1.0);
        }
    }
    const CsvTable t =
        CsvTable::readFile(rigtest::latestRun(dir / "out") / "breaking-point-burst-8.csv");
    std::size_t sum = 0;
    for (std::size_t i = 0; i < t.rowCount(); ++i)
        sum += std::size_t(t.number(i, "incomplete runs"));
    EXPECT_EQ(sum, incomplete);
    fs::remove_all(dir);
}

TEST(SeriesBreakingPoint, ExecutionAndScheduleOptionsApply) {
    const fs::path dir = rigtest::scratch("series", "bpexec");
    const json a = run(kBp + "--life-window=0s --fail-delta=1h", dir);
    fs::remove_all(dir / "out");
    // one worker, planned concurrency 1, 200 µs memory jobs, another graph
    const json b =
        run("--mode=breaking-point --pattern=chains2 --nodes=12 --seed=7 --fan=3 --reps=2 "
            "--workers=1 --concurrency=1 --load=200us --load-kind=memory --life-window=0s "
            "--fail-delta=1h --no-render",
            dir);
    const json& c = b.at("configuration");
    EXPECT_EQ(c.at("pattern"), "chains2");
    EXPECT_EQ(c.at("nodes"), 12);
    EXPECT_EQ(c.at("seed"), 7);
    EXPECT_EQ(c.at("fan"), 3);
    EXPECT_EQ(c.at("workers"), 1);
    EXPECT_EQ(c.at("concurrency"), 1);
    EXPECT_EQ(c.at("load_kind"), "memory");
    const json& j = b.at("result");
    EXPECT_EQ(j.at("pattern"), "chains2");
    EXPECT_EQ(j.at("nodes"), 12);
    EXPECT_EQ(j.at("seed"), 7);
    EXPECT_EQ(j.at("workers"), 1);
    EXPECT_EQ(j.at("concurrency"), 1);
    EXPECT_EQ(j.at("load_us"), 200);
    EXPECT_EQ(j.at("reps_per_probe"), 2);
    EXPECT_EQ(j.at("runs"), 2 * j.at("probes").get<std::size_t>());
    EXPECT_EQ(b.at("calibration").at("kind"), "memory");
    EXPECT_NE(j.at("hash"), a.at("result").at("hash"));
    EXPECT_NEAR(j.at("thresholds").at("scale").get<double>(), 0.4, 1e-12);
    EXPECT_TRUE(fs::exists(rigtest::latestRun(dir / "out") / "breaking-point-chains2-12.csv"));
    // the planned schedule and the lower bound follow load and concurrency: one worker
    // means the whole work in sequence
    EXPECT_GT(j.at("lower_bound_ms").get<double>(), 0.0);
    EXPECT_NE(j.at("unit_schedule_ms"), a.at("result").at("unit_schedule_ms"));
    // --rules replaces the pattern
    fs::remove_all(dir / "out");
    const json rl = run(kBp +
                            "--rules='expand:p=0.5,max=3;reduce:p=0.5,min=2,max=4' "
                            "--life-window=0s --fail-delta=1h",
                        dir);
    EXPECT_EQ(rl.at("result").at("pattern"), "custom");
    EXPECT_FALSE(rl.at("configuration").at("rules").get<std::string>().empty());
    fs::remove_all(dir);
}

TEST(SeriesBreakingPoint, UsageErrors) {
    const fs::path dir = rigtest::scratch("series", "bpusage");
    // each bad option with the words its message must contain
    const std::vector<std::pair<std::string, std::string>> cases{
        {"--schedule=default", "--schedule=default does not apply"},
        {"--level=2ms", "--level"},
        {"--stress=2", "--stress"},  // the search chooses the stress
        {"--thresholds=fixed", "--thresholds"},
        {"--fail-fraction=1.5", "--fail-fraction"},
        {"--break-fail-fraction=-0.1", "--break-fail-fraction"},
        {"--reps=0", "--reps"},
        {"--max-schedule=10us", "--max-schedule"},
        {"--from=4", "it is an option of: param-range"}};
    for (const auto& [bad, says] : cases) {
        const Result r = rig("--mode=breaking-point --nodes=8 --load=100us " + bad, dir);
        EXPECT_EQ(r.code, 2) << bad << "\n" << r.out << r.err;
        EXPECT_NE(r.err.find(says), std::string::npos) << bad << "\n" << r.err;
        EXPECT_FALSE(fs::exists(dir / "out")) << bad;
        std::istringstream lines(r.err);  // one-line messages (a busy-machine note may precede)
        for (std::string l; std::getline(lines, l);)
            EXPECT_EQ(l.rfind("stressrig: ", 0), 0u) << bad << "\n" << r.err;
    }
    // a first probe longer than --max-schedule: refused before anything runs
    const Result r = rig("--mode=breaking-point --nodes=64 --load=1ms --max-schedule=1ms", dir);
    EXPECT_EQ(r.code, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("over --max-schedule=1.00ms"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "out"));
    fs::remove_all(dir);
}

TEST(SeriesBreakingPoint, SigtermGivesAPartialResult) {
    const fs::path dir = rigtest::scratch("series", "bpstop");
    // 100000 runs per probe: only a stop ends the first probe
    const Result r = interrupt({"--mode=breaking-point", "--nodes=8", "--reps=100000",
                                "--load=100us", "--life-window=0s", "--no-render"},
                               dir, "calibrated", SIGTERM);
    EXPECT_EQ(r.code, 143) << r.out << r.err;
    EXPECT_NE(r.out.find("Interrupted"), std::string::npos) << r.out;
    const json e =
        json::parse(slurp(rigtest::latestRun(dir / "out") / "breaking-point-burst-8.json"));
    EXPECT_EQ(e.at("partial"), true);
    const json& j = e.at("result");
    ASSERT_EQ(j.at("probes"), 1);  // the probe in progress, with the runs it made
    const std::size_t runs = j.at("runs");
    EXPECT_GT(runs, 0u);
    EXPECT_LT(runs, 100000u);
    EXPECT_NE(e.at("verdict").get<std::string>().find("partial"), std::string::npos);
    EXPECT_EQ(
        CsvTable::readFile(rigtest::latestRun(dir / "out") / "breaking-point-burst-8-runs.csv")
            .rowCount(),
        runs);
    fs::remove_all(dir);
}

// ------------------------------------------------------------------ parameter series

TEST(SeriesParamRange, FewPointsGiveThePublishedColumns) {
    const fs::path dir = rigtest::scratch("series", "pr");
    const json e = run(kPr, dir);
    const json& c = e.at("configuration");
    EXPECT_EQ(c.at("from"), 4);
    EXPECT_EQ(c.at("to"), 12);
    EXPECT_EQ(c.at("points"), 4);
    EXPECT_EQ(c.at("sample_seed"), 42);
    const json& j = e.at("result");
    for (const char* k : {"gradient_ms_per_job", "socket_ms", "correlation", "max_delta_ms",
                          "sigma_ms", "mean_concurrency", "ideal_gradient_ms_per_job", "model"})
        EXPECT_TRUE(j.contains(k)) << k;
    EXPECT_EQ(j.at("points_measured"), 4);
    ASSERT_EQ(j.at("points").size(), 4u);
    for (const char* k : {"load_size_jobs", "result_time_ms", "concurrency", "avg_jobtime_us",
                          "avg_impeded_us", "graph_hash"})
        EXPECT_TRUE(j.at("points")[0].contains(k)) << k;
    // ideal gradient of unit jobs: load / min(workers, cores)
    const double P = j.at("parallelism");
    EXPECT_NEAR(j.at("ideal_gradient_ms_per_job").get<double>(), 0.1 / P, 1e-12);

    const fs::path csv = rigtest::latestRun(dir / "out") / "param-range-isolated.csv";
    const CsvTable t = CsvTable::readFile(csv);
    ASSERT_EQ(t.columnCount(), 5u);
    ASSERT_EQ(t.rowCount(), 4u);
    EXPECT_EQ(t.number(0, "load size"), 4.0);  // both ends are forced in
    EXPECT_EQ(t.number(3, "load size"), 12.0);
    EXPECT_EQ(t.comment("sample seed"), "42");
    EXPECT_NE(t.comment("units").find("result time: ms"), std::string::npos);
    EXPECT_EQ(t.comment("model").rfind("Model: ", 0), 0u);
    EXPECT_NE(
        slurp(csv).find(
            "\n\"load size\",\"result time\",\"concurrency\",\"avg jobtime\",\"avg impeded\"\n"),
        std::string::npos);
    EXPECT_NE(slurp(rigtest::latestRun(dir / "out") / "param-range-isolated.gp").find("multiplot"),
              std::string::npos);
    fs::remove_all(dir);
}

TEST(SeriesParamRange, TextHasTheModelLine) {
    const fs::path dir = rigtest::scratch("series", "prtext");
    const Result r = rig(kPr + "--quiet", dir);
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("\nModel: "), std::string::npos) << r.out;
    for (const char* w : {" corr=", " Δmax=", " σ=", " ∅concurrency: ", "ideal gradient",
                          "Parameter series: pattern isolated, 4..12 jobs of 100µs"})
        EXPECT_NE(r.out.find(w), std::string::npos) << w << "\n" << r.out;
    fs::remove_all(dir);
}

TEST(SeriesParamRange, SeriesOptionsApply) {
    const fs::path dir = rigtest::scratch("series", "propt");
    auto sizes = [](const json& e) {
        std::vector<std::size_t> s;
        for (const json& p : e.at("result").at("points"))
            s.push_back(p.at("load_size_jobs"));
        return s;
    };
    const json a =
        run("--mode=param-range --pattern=isolated --from=4 --to=40 --points=6 --load=100us "
            "--no-render",
            dir);
    fs::remove_all(dir / "out");
    const json b =
        run("--mode=param-range --pattern=isolated --from=4 --to=40 --points=6 --load=100us "
            "--sample-seed=7 --no-render",
            dir);
    EXPECT_EQ(b.at("configuration").at("sample_seed"), 7);
    EXPECT_EQ(b.at("result").at("sample_seed"), 7);
    EXPECT_NE(sizes(a), sizes(b));  // other drawn points
    EXPECT_EQ(sizes(b).front(), 4u);
    EXPECT_EQ(sizes(b).back(), 40u);
    EXPECT_EQ(CsvTable::readFile(rigtest::latestRun(dir / "out") / "param-range-isolated.csv")
                  .comment("sample seed"),
              "7");
    fs::remove_all(dir / "out");
    const json c =
        run("--mode=param-range --pattern=isolated --from=5 --to=9 --points=3 --workers=1 "
            "--load=200us --load-kind=memory --no-render",
            dir);
    EXPECT_EQ(c.at("configuration").at("workers"), 1);
    EXPECT_EQ(c.at("configuration").at("load_us"), 200);
    EXPECT_EQ(c.at("calibration").at("kind"), "memory");
    EXPECT_EQ(sizes(c).size(), 3u);
    EXPECT_EQ(sizes(c).front(), 5u);
    EXPECT_EQ(sizes(c).back(), 9u);
    EXPECT_EQ(c.at("result").at("workers"), 1);
    EXPECT_NEAR(c.at("result").at("ideal_gradient_ms_per_job").get<double>(), 0.2, 1e-12);
    fs::remove_all(dir);
}

TEST(SeriesParamRange, GraphOptionsApply) {
    const fs::path dir = rigtest::scratch("series", "prgraph");
    auto hashes = [](const json& e) {
        std::vector<std::string> h;
        for (const json& p : e.at("result").at("points"))
            h.push_back(p.at("graph_hash"));
        return h;
    };
    const std::string base =
        "--mode=param-range --from=6 --to=10 --points=2 --load=100us --no-render ";
    const json a = run(base + "--pattern=burst", dir);
    fs::remove_all(dir / "out");
    const json s = run(base + "--pattern=burst --seed=99", dir);
    fs::remove_all(dir / "out");
    const json f = run(base + "--pattern=burst --fan=2", dir);
    fs::remove_all(dir / "out");
    const json r = run(base + "--rules='expand:p=0.5,max=3;reduce:p=0.5,min=2,max=4'", dir);
    EXPECT_EQ(a.at("result").at("pattern"), "burst");
    EXPECT_EQ(s.at("configuration").at("seed"), 99);
    EXPECT_EQ(f.at("configuration").at("fan"), 2);
    EXPECT_EQ(r.at("result").at("pattern"), "custom");
    EXPECT_NE(hashes(a), hashes(s));
    EXPECT_NE(hashes(a), hashes(f));
    EXPECT_NE(hashes(a), hashes(r));
    EXPECT_TRUE(fs::exists(rigtest::latestRun(dir / "out") / "param-range-custom.csv"));
    fs::remove_all(dir);
}

TEST(SeriesParamRange, UsageErrors) {
    const fs::path dir = rigtest::scratch("series", "prusage");
    const std::vector<std::pair<std::string, std::string>> cases{
        {"--from=12 --to=4", "need a larger --to"},
        {"--from=4 --to=4", "need a larger --to"},
        {"--from=4 --to=12 --points=1", "--points"},
        {"--from=1 --to=12", "--from"},
        {"--from=4 --to=12 --nodes=8", "it is an option of"},
        {"--from=4 --to=12 --reps=2", "it is an option of"},
        {"--from=4 --to=12 --sample-seed=x", "--sample-seed"},
        {"--from=4 --to=1000000 --workers=1024", "MiB of instrument buffers"}};
    for (const auto& [bad, says] : cases) {
        const Result r = rig("--mode=param-range --pattern=isolated --load=100us " + bad, dir);
        EXPECT_EQ(r.code, 2) << bad << "\n" << r.out << r.err;
        EXPECT_NE(r.err.find(says), std::string::npos) << bad << "\n" << r.err;
        EXPECT_FALSE(fs::exists(dir / "out")) << bad;
    }
    fs::remove_all(dir);
}

TEST(SeriesParamRange, SigtermGivesAPartialResult) {
    const fs::path dir = rigtest::scratch("series", "prstop");
    const Result r = interrupt({"--mode=param-range", "--pattern=isolated", "--from=2", "--to=6",
                                "--points=100000", "--load=100us", "--no-render"},
                               dir, "1/100000", SIGTERM);
    EXPECT_EQ(r.code, 143) << r.out << r.err;
    EXPECT_NE(r.out.find("Model: "), std::string::npos) << r.out;
    const json e =
        json::parse(slurp(rigtest::latestRun(dir / "out") / "param-range-isolated.json"));
    EXPECT_EQ(e.at("partial"), true);
    const std::size_t measured = e.at("result").at("points_measured");
    EXPECT_GT(measured, 0u);
    EXPECT_LT(measured, 100000u);
    EXPECT_EQ(
        CsvTable::readFile(rigtest::latestRun(dir / "out") / "param-range-isolated.csv").rowCount(),
        measured);
    fs::remove_all(dir);
}
