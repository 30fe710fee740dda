// --mode=run end to end on small graphs: the envelope, every job with its state, the reps
// table, missing values when deadlines expire, the trace of all reps, and one test per
// option that it is both recorded and applied. No timing is asserted (shared cores).
#include <cmath>
#include <csignal>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "RigTestSupport.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "pullsched/scheduler/Scheduler.hpp"
#include "report/CsvTable.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using pullsched::rig::CsvTable;
using rigtest::Result;
using rigtest::rig;
using rigtest::slurp;

namespace {

/// `args` with small, quick defaults for what they do not set: 16 burst nodes, 100us jobs.
std::string small(const std::string& args) {
    std::string s = "--no-render --quiet ";
    if (args.find("--pattern") == std::string::npos && args.find("--rules") == std::string::npos)
        s += "--pattern=burst ";
    if (args.find("--nodes") == std::string::npos) s += "--nodes=16 ";
    if (args.find("--load=") == std::string::npos) s += "--load=100us ";
    return s + args;
}

}  // namespace

TEST(StressrigRunMode, SmallGraphEndToEnd) {
    const fs::path dir = rigtest::scratch("run-mode", "e2e");
    const Result r =
        rig(small("--workers=2 --reps=2 --life-window=0s --trace-json --json --out=res"), dir);
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    const json j = rigtest::stdoutEnvelope(r);
    for (const char* k : {"mode", "version", "configuration", "environment", "calibration", "files",
                          "partial", "verdict", "warnings", "failures", "exit_status", "result"})
        EXPECT_TRUE(j.contains(k)) << k;
    EXPECT_EQ(j.at("mode"), "run");
    EXPECT_EQ(j.at("partial"), false);
    EXPECT_EQ(j.at("exit_status"), 0);
    EXPECT_EQ(j.at("calibration").at("kind"), "cpu");
    const json& c = j.at("configuration");
    EXPECT_EQ(c.at("nodes"), 16);
    EXPECT_EQ(c.at("workers"), 2);
    EXPECT_EQ(c.at("reps"), 2);
    EXPECT_EQ(c.at("load_us"), 100.0);
    EXPECT_EQ(c.at("life_window_us"), 0.0);
    EXPECT_EQ(c.at("trace_json"), true);
    const json& res = j.at("result");
    EXPECT_EQ(res.at("hash_check"), "ok");
    EXPECT_EQ(res.at("reps_run"), 2);
    EXPECT_EQ(res.at("reps_complete"), 2);
    EXPECT_EQ(res.at("jobs_posted"), 32);
    EXPECT_EQ(res.at("jobs_completed"), 32);
    for (const char* k : {"runtime_ms", "expected_ms", "lower_bound_ms", "efficiency",
                          "avg_concurrency", "lateness_p50_us"})
        EXPECT_TRUE(res.at(k).is_number()) << k;
    EXPECT_GT(res.at("runtime_ms").get<double>(), 0.0);

    // the files on disk are those the envelope lists, and it is the same envelope
    const fs::path out = rigtest::latestRun(dir / "res");
    std::set<std::string> onDisk, listed;
    for (const auto& e : fs::directory_iterator(out))
        if (e.path().filename() != "index.html")  // a copy of the page, not in the manifest
            onDisk.insert(e.path().filename().string());
    for (const auto& f : j.at("files"))
        listed.insert(f.get<std::string>());
    EXPECT_EQ(onDisk, listed);
    EXPECT_EQ(rigtest::fileEnvelope(out / "run-burst-16.json").at("result"), res);

    // every node of every rep, each with its state
    const CsvTable jobs = CsvTable::readFile(out / "run-burst-16.csv");
    ASSERT_EQ(jobs.rowCount(), 32u);
    std::set<std::pair<int, int>> seen;
    for (std::size_t i = 0; i < jobs.rowCount(); ++i) {
        seen.insert({int(jobs.number(i, "rep")), int(jobs.number(i, "node"))});
        EXPECT_EQ(jobs.text(i, jobs.columnIndex("state")), "completed");
        EXPECT_FALSE(std::isnan(jobs.number(i, "start ms")));
        EXPECT_FALSE(std::isnan(jobs.number(i, "worker")));
        EXPECT_TRUE(std::isnan(jobs.number(i, "deadline ms")));  // --life-window=0s
    }
    EXPECT_EQ(seen.size(), 32u);
    EXPECT_EQ(jobs.comment("mode"), "run");

    const CsvTable reps = CsvTable::readFile(out / "run-burst-16-reps.csv");
    ASSERT_EQ(reps.rowCount(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(reps.text(i, reps.columnIndex("state")), "complete");
        EXPECT_EQ(reps.text(i, reps.columnIndex("hash")), "ok");
        EXPECT_GT(reps.number(i, "runtime ms"), 0.0);
    }
    EXPECT_EQ(slurp(out / "run-burst-16.dot").rfind("digraph {", 0), 0u);
    // the main picture is the timeline of one rep: a lane per worker, a row per job
    const std::string gp = slurp(out / "run-burst-16.gp");
    EXPECT_NE(gp.find("$RunData"), std::string::npos);
    EXPECT_NE(gp.find("timeline of rep "), std::string::npos);
    EXPECT_NE(gp.find("set ytics ('worker 0' 0, 'worker 1' 1, 'not run' 2)"), std::string::npos);
    {
        const auto a = gp.find("$RunData << _End_of_Data_\n");
        const auto b = gp.find("\n_End_of_Data_\n");
        ASSERT_NE(a, std::string::npos);
        std::istringstream data(gp.substr(a, b - a));
        std::size_t rows = 0;
        for (std::string line; std::getline(data, line);)
            if (!line.empty() && std::isdigit(static_cast<unsigned char>(line[0]))) ++rows;
        EXPECT_EQ(rows, 16u);  // the 16 jobs of the rep shown
    }
    const std::string dot = slurp(out / "run-burst-16.dot");
    EXPECT_NE(dot.find("subgraph cluster_legend"), std::string::npos);
    EXPECT_NE(dot.find("states of rep "), std::string::npos);
    EXPECT_TRUE(fs::exists(out / "run-burst-16-concurrency.gp"));

    // the trace: both reps, every job with its state, one track per worker
    const json trace = rigtest::fileEnvelope(out / "run-burst-16-trace.json");
    std::set<std::string> tracks;
    std::set<std::pair<int, int>> traced;
    int repSpans = 0;
    for (const json& e : trace.at("traceEvents")) {
        if (e.at("ph") == "M" && e.at("name") == "thread_name")
            tracks.insert(e.at("args").at("name").get<std::string>());
        if (e.at("ph") == "X" && e.at("cat") == "rep") ++repSpans;
        if (e.contains("args") && e.at("args").contains("node")) {
            EXPECT_EQ(e.at("args").at("state"), "completed");
            EXPECT_LT(e.at("tid").get<int>(), 2);  // ran on worker 0 or 1
            traced.insert({e.at("args").at("rep").get<int>(), e.at("args").at("node").get<int>()});
        }
    }
    EXPECT_EQ(traced.size(), 32u);
    EXPECT_EQ(repSpans, 2);
    EXPECT_TRUE(tracks.count("worker 0") && tracks.count("worker 1")) << trace.dump();
    EXPECT_FALSE(tracks.count("worker 2"));
    fs::remove_all(dir);
}

// The timeline and the concurrency picture show the same rep, and the picture's mean is that
// rep's row of the reps table; the text's mean says it is over the reps.
TEST(StressrigRunMode, PicturesShowOneRepAndItsFigures) {
    const fs::path dir = rigtest::scratch("run-mode", "one-rep");
    const Result r = rig(small("--reps=3 --workers=2 --backend-warmup=0"), dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const fs::path out = rigtest::latestRun(dir / "out");
    const std::regex timelineRep(R"(timeline of rep (\d) of 3 \(the median by run time\))");
    std::smatch tm;
    const std::string timeline = slurp(out / "run-burst-16.gp");
    ASSERT_TRUE(std::regex_search(timeline, tm, timelineRep)) << timeline.substr(0, 2000);
    const std::string concurrency = slurp(out / "run-burst-16-concurrency.gp");
    const std::regex concurrencyRep(
        R"(active workers over time, rep (\d) of 3 \(the median by run time\): mean ([0-9.]+) of 2 workers)");
    std::smatch cm;
    ASSERT_TRUE(std::regex_search(concurrency, cm, concurrencyRep)) << concurrency.substr(0, 2000);
    EXPECT_EQ(tm[1], cm[1]);
    const CsvTable reps = CsvTable::readFile(out / "run-burst-16-reps.csv");
    const std::size_t row = std::stoul(cm[1]) - 1;
    ASSERT_LT(row, reps.rowCount());
    EXPECT_EQ(reps.number(row, "rep"), std::stod(cm[1]));
    EXPECT_EQ(fmt::format("{:.2f}", reps.number(row, "avg concurrency")), cm[2].str());
    EXPECT_EQ(CsvTable::readFile(out / "run-burst-16-concurrency.csv").comment("rep"), cm[1].str());
    EXPECT_NE(r.out.find("(mean of 3 reps; max "), std::string::npos) << r.out;
    fs::remove_all(dir);
}

TEST(StressrigRunMode, TextReportUsesOneDurationFormat) {
    const fs::path dir = rigtest::scratch("run-mode", "text");
    const Result r = rig(small("--pattern=chains2 --life-window=0s"), dir);
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    for (const char* w :
         {"expected time", "actual time", "lower bound", "efficiency", "avg concurrency",
          "lateness", "hash check", "ok (1 rep)", "Verdict:", "Results in out/"})
        EXPECT_NE(r.out.find(w), std::string::npos) << w << "\n" << r.out;
    EXPECT_EQ(r.out.find(" us "), std::string::npos) << r.out;  // µs via formatDuration
    EXPECT_EQ(r.out.find("0.000 ms"), std::string::npos) << r.out;
    fs::remove_all(dir);
}

// A 1 ns life window: no job can start within 1 ns of its due time, so the start jobs
// expire and their successors are cancelled, deterministically.
TEST(StressrigRunMode, ExpiredDeadlinesAreMissingValuesNotZeros) {
    const fs::path dir = rigtest::scratch("run-mode", "expire");
    const Result r = rig(small("--reps=3 --life-window=1ns"), dir);
    ASSERT_EQ(r.code, 0) << r.out << r.err;  // misses are a measurement
    EXPECT_NE(r.out.find("hash not checked"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("n/a"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("FAILED"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("0.000 ms"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(" of 3 reps incomplete: excluded"), std::string::npos) << r.out;

    const json j = rigtest::fileEnvelope(rigtest::latestRun(dir / "out") / "run-burst-16.json");
    const json& res = j.at("result");
    EXPECT_EQ(j.at("exit_status"), 0);
    EXPECT_EQ(j.at("configuration").at("life_window_us"), 0.001);
    EXPECT_GT(res.at("jobs_expired").get<int>(), 0);
    EXPECT_EQ(res.at("jobs_failed"), 0);
    EXPECT_EQ(res.at("hash_check"), "not checked");
    EXPECT_TRUE(res.at("runtime_ms").is_null());
    EXPECT_TRUE(res.at("efficiency").is_null());

    const CsvTable jobs = CsvTable::readFile(rigtest::latestRun(dir / "out") / "run-burst-16.csv");
    ASSERT_EQ(jobs.rowCount(), 48u);  // every node of every rep, run or not
    std::size_t expired = 0, notRun = 0;
    for (std::size_t i = 0; i < jobs.rowCount(); ++i) {
        const std::string state = jobs.text(i, jobs.columnIndex("state"));
        EXPECT_TRUE(state == "completed" || state == "expired" || state == "cancelled") << state;
        if (state == "expired") ++expired;
        if (state != "completed") {
            ++notRun;
            EXPECT_TRUE(std::isnan(jobs.number(i, "start ms")));
            EXPECT_TRUE(std::isnan(jobs.number(i, "lateness us")));
            EXPECT_TRUE(std::isnan(jobs.number(i, "worker")));
        }
        // deadline = scheduled start + 1 ns
        EXPECT_NEAR(jobs.number(i, "deadline ms") - jobs.number(i, "scheduled ms"), 1e-6, 1e-9);
    }
    EXPECT_EQ(expired, res.at("jobs_expired").get<std::size_t>());
    EXPECT_GT(notRun, 0u);
    const std::string csv = slurp(rigtest::latestRun(dir / "out") / "run-burst-16.csv");
    EXPECT_NE(csv.find(",,"), std::string::npos);  // empty cells, never 0 for "did not run"

    const CsvTable reps =
        CsvTable::readFile(rigtest::latestRun(dir / "out") / "run-burst-16-reps.csv");
    ASSERT_EQ(reps.rowCount(), 3u);
    for (std::size_t i = 0; i < 3; ++i)
        if (reps.text(i, reps.columnIndex("state")) == "incomplete") {
            EXPECT_TRUE(std::isnan(reps.number(i, "runtime ms")));
            EXPECT_TRUE(std::isnan(reps.number(i, "delta ms")));
            EXPECT_TRUE(std::isnan(reps.number(i, "efficiency")));
            EXPECT_EQ(reps.text(i, reps.columnIndex("hash")), "not checked");
        }
    fs::remove_all(dir);
}

// Beside pool, which has no deadlines, the default life window is enforced on no backend
// and no job expires; past_deadline counts, from the end times, the jobs of the measured
// reps that ended after scheduled start + that window; --life-window=0s leaves no window
// and no figure. Alone, pullsched keeps the deadlines and has the same figure: with a
// window of 1 ns every job that ran ended past it (none starts before its start, each
// works 100 us), with one of 1 h none did.
TEST(StressrigRunMode, BackendsWithoutDeadlinesCountJobsPastTheirDeadline) {
    const fs::path dir = rigtest::scratch("run-mode", "past-deadline");
    const std::string compared = "--backends=pullsched,pool --reps=2 --out=res ";
    struct Case {
        std::string window;  // option, "" for the default
        bool counted;
        std::string schedule;
    };
    for (const Case& c : {Case{"", true, "enforced on no backend"},
                          Case{"--life-window=0s", false, "no deadlines (--life-window=0s)"}}) {
        fs::remove_all(dir / "res");
        const Result r = rig(small(compared + c.window), dir);
        ASSERT_EQ(r.code, 0) << c.window << "\n" << r.err;
        const json j = rigtest::fileEnvelope(rigtest::latestRun(dir / "res") / "run-burst-16.json");
        EXPECT_EQ(j.at("result").at("deadlines"), false) << c.window;  // none was enforced
        const CsvTable t =
            CsvTable::readFile(rigtest::latestRun(dir / "res") / "run-burst-16-backends.csv");
        ASSERT_EQ(t.rowCount(), 2u);
        for (std::size_t i = 0; i < 2; ++i) {
            const std::string b = t.text(i, t.columnIndex("backend"));
            const json& e = j.at("result").at("backends").at(b);
            EXPECT_EQ(e.at("runs"), 2) << c.window << " " << b;
            EXPECT_EQ(e.at("jobs_expired"), 0) << c.window << " " << b;  // nothing expired
            const double cell = t.number(i, "past deadline");
            if (c.counted) {
                ASSERT_TRUE(e.at("past_deadline").is_number()) << c.window << " " << b;
                EXPECT_LE(e.at("past_deadline").get<int>(), 32) << b;
                EXPECT_EQ(cell, e.at("past_deadline").get<double>()) << b;
            } else {
                EXPECT_TRUE(e.at("past_deadline").is_null()) << b;
                EXPECT_TRUE(std::isnan(cell)) << b;  // an empty cell, not 0
            }
            const std::size_t at = r.out.find("  " + b + " ");  // each backend's line
            ASSERT_NE(at, std::string::npos) << r.out;
            const std::string line = r.out.substr(at, r.out.find('\n', at) - at);
            EXPECT_NE(line.find(c.counted ? "past deadline " : "past deadline n/a"),
                      std::string::npos)
                << c.window << "\n"
                << line;
        }
        EXPECT_NE(r.out.find(c.schedule), std::string::npos) << c.window << "\n" << r.out;
    }
    for (const auto& [window, all] : {std::pair{"1ns", true}, std::pair{"1h", false}}) {
        const Result alone =
            rig(small(std::string("--reps=2 --json --out=alone --life-window=") + window), dir);
        ASSERT_EQ(alone.code, 0) << alone.err;
        const json a = rigtest::stdoutEnvelope(alone).at("result");
        EXPECT_EQ(a.at("deadlines"), true);
        const json ran = a.at("jobs_completed");
        EXPECT_EQ(a.at("backends").at("pullsched").at("past_deadline"), all ? ran : json(0))
            << window;
        if (!all) {
            EXPECT_EQ(a.at("jobs_expired"), 0);
        }
    }
    fs::remove_all(dir);
}

TEST(StressrigRunMode, TraceHoldsJobsThatNeverRan) {
    const fs::path dir = rigtest::scratch("run-mode", "trace-expired");
    const Result r = rig(small("--reps=2 --life-window=1ns --trace-json"), dir);
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    const json trace =
        rigtest::fileEnvelope(rigtest::latestRun(dir / "out") / "run-burst-16-trace.json");
    std::set<std::pair<int, int>> traced;
    std::set<std::string> states;
    for (const json& e : trace.at("traceEvents"))
        if (e.contains("args") && e.at("args").contains("node")) {
            traced.insert({e.at("args").at("rep").get<int>(), e.at("args").at("node").get<int>()});
            states.insert(e.at("args").at("state").get<std::string>());
        }
    EXPECT_EQ(traced.size(), 32u);
    EXPECT_TRUE(states.count("expired"));
    EXPECT_TRUE(states.count("cancelled"));
    fs::remove_all(dir);
}

// Options of the graph group: recorded in the configuration and visible in the result.
TEST(StressrigRunMode, GraphOptionsAreApplied) {
    const fs::path dir = rigtest::scratch("run-mode", "graph");
    const Result a = rig(small("--pattern=chains2 --nodes=12 --seed=9 --fan=2 --json"), dir);
    ASSERT_EQ(a.code, 0) << a.err;
    const json ja = rigtest::stdoutEnvelope(a);
    EXPECT_EQ(ja.at("configuration").at("pattern"), "chains2");
    EXPECT_EQ(ja.at("configuration").at("nodes"), 12);
    EXPECT_EQ(ja.at("configuration").at("seed"), 9);
    EXPECT_EQ(ja.at("configuration").at("fan"), 2);
    EXPECT_EQ(ja.at("result").at("pattern"), "chains2");
    EXPECT_EQ(ja.at("result").at("nodes"), 12);
    EXPECT_EQ(ja.at("result").at("seed"), 9);
    EXPECT_EQ(ja.at("result").at("max_fan"), 2);
    EXPECT_TRUE(fs::exists(rigtest::latestRun(dir / "out") / "run-chains2-12.csv"));

    const Result b = rig(small("--rules='expand:p=0.5,max=3' --nodes=12 --json"), dir);
    ASSERT_EQ(b.code, 0) << b.err;
    const json jb = rigtest::stdoutEnvelope(b);
    EXPECT_EQ(jb.at("configuration").at("rules"), "expand:p=0.5,max=3");
    EXPECT_EQ(jb.at("result").at("pattern"), "custom");
    EXPECT_NE(jb.at("result").at("rules").get<std::string>().find("expand:p=0.5"),
              std::string::npos);
    EXPECT_TRUE(fs::exists(rigtest::latestRun(dir / "out") / "run-custom-12.csv"));
    fs::remove_all(dir);
}

// --load, --stress, --concurrency, --schedule/--level, --load-kind, --workers.
TEST(StressrigRunMode, ExecutionAndScheduleOptionsAreApplied) {
    const fs::path dir = rigtest::scratch("run-mode", "sched");
    const std::string base = "--life-window=0s --json ";
    const json ref = rigtest::stdoutEnvelope(rig(small(base), dir));
    const json load = rigtest::stdoutEnvelope(rig(small(base + "--load=200us"), dir));
    const json stress = rigtest::stdoutEnvelope(rig(small(base + "--stress=2"), dir));
    const json conc = rigtest::stdoutEnvelope(rig(small(base + "--concurrency=1"), dir));
    const json level =
        rigtest::stdoutEnvelope(rig(small(base + "--schedule=default --level=2ms"), dir));
    const json memory = rigtest::stdoutEnvelope(rig(small(base + "--load-kind=memory"), dir));
    const json workers =
        rigtest::stdoutEnvelope(rig(small(base + "--workers=3 --trace-json"), dir));
    const double expected = ref.at("result").at("expected_ms");

    EXPECT_EQ(load.at("configuration").at("load_us"), 200.0);
    EXPECT_NEAR(load.at("result").at("expected_ms").get<double>(), 2 * expected, 1e-6);

    EXPECT_EQ(stress.at("configuration").at("stress"), 2.0);
    EXPECT_NEAR(stress.at("result").at("expected_ms").get<double>(), expected / 2, 1e-6);

    EXPECT_EQ(conc.at("configuration").at("concurrency"), 1);
    EXPECT_EQ(conc.at("result").at("concurrency"), 1);
    EXPECT_GT(conc.at("result").at("lower_bound_ms").get<double>(),
              ref.at("result").at("lower_bound_ms").get<double>());

    EXPECT_EQ(level.at("configuration").at("schedule"), "default");
    EXPECT_EQ(level.at("configuration").at("level_us"), 2000.0);
    EXPECT_NEAR(level.at("result").at("expected_ms").get<double>(),
                2.0 * level.at("result").at("levels").get<double>(), 1e-6);

    EXPECT_EQ(memory.at("configuration").at("load_kind"), "memory");
    EXPECT_EQ(memory.at("calibration").at("kind"), "memory");

    EXPECT_EQ(workers.at("configuration").at("workers"), 3);
    EXPECT_EQ(workers.at("result").at("workers"), 3);
    const json trace =
        rigtest::fileEnvelope(rigtest::latestRun(dir / "out") / "run-burst-16-trace.json");
    int workerTracks = 0;
    for (const json& e : trace.at("traceEvents"))
        if (e.at("ph") == "M" && e.at("name") == "thread_name" &&
            e.at("args").at("name").get<std::string>().rfind("worker ", 0) == 0)
            ++workerTracks;
    EXPECT_EQ(workerTracks, 3);
    fs::remove_all(dir);
}

TEST(StressrigRunMode, RepsAndOutputNaming) {
    const fs::path dir = rigtest::scratch("run-mode", "reps");
    const Result r = rig(small("--reps=3 --life-window=0s --name=three --out=o3"), dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const json j = rigtest::fileEnvelope(rigtest::latestRun(dir / "o3") / "three.json");
    EXPECT_EQ(j.at("configuration").at("reps"), 3);
    EXPECT_EQ(j.at("result").at("reps_run"), 3);
    EXPECT_EQ(CsvTable::readFile(rigtest::latestRun(dir / "o3") / "three-reps.csv").rowCount(), 3u);
    EXPECT_EQ(CsvTable::readFile(rigtest::latestRun(dir / "o3") / "three.csv").rowCount(), 48u);
    EXPECT_FALSE(
        fs::exists(rigtest::latestRun(dir / "o3") / "three-trace.json"));  // only with --trace-json
    EXPECT_EQ(j.at("configuration").at("trace_json"), false);
    fs::remove_all(dir);
}

TEST(StressrigRunMode, LongSchedulesAreRefusedBeforeRunning) {
    const fs::path dir = rigtest::scratch("run-mode", "long");
    // 64 burst nodes at 500us on 2-way concurrency plan 16.5 ms; at stress 0.01, 1.65 s
    const Result r =
        rig("--pattern=burst --nodes=64 --concurrency=2 --stress=0.01 "
            "--max-schedule=1s --quiet",
            dir);
    EXPECT_EQ(r.code, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("over --max-schedule=1.00s"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "out"));  // nothing written
    // reps count towards the limit, too
    const Result reps = rig(small("--reps=2000 --max-schedule=1s"), dir);
    EXPECT_EQ(reps.code, 2) << reps.err;
    EXPECT_NE(reps.err.find("--max-schedule"), std::string::npos) << reps.err;
    // and the limit is recorded when it lets the run through
    const Result ok = rig(small("--max-schedule=2h --json"), dir);
    ASSERT_EQ(ok.code, 0) << ok.err;
    EXPECT_EQ(rigtest::stdoutEnvelope(ok).at("configuration").at("max_schedule_us"), 7.2e9);
    fs::remove_all(dir);
}

TEST(StressrigRunMode, BadCombinationsAreUsageErrors) {
    const fs::path dir = rigtest::scratch("run-mode", "usage");
    const Result level = rig(small("--level=2ms"), dir);
    EXPECT_EQ(level.code, 2);
    EXPECT_NE(level.err.find("--level applies to --schedule=default"), std::string::npos);
    const Result stress = rig(small("--schedule=default --stress=2"), dir);
    EXPECT_EQ(stress.code, 2);
    EXPECT_NE(stress.err.find("--stress applies to --schedule=adapted"), std::string::npos);
    const Result valued = rig(small("--trace-json=trace.json"), dir);
    EXPECT_EQ(valued.code, 2);
    EXPECT_NE(valued.err.find("--trace-json"), std::string::npos) << valued.err;
    const Result rep = rig(small("--reps=2 --rep=3"), dir);
    EXPECT_EQ(rep.code, 2);
    EXPECT_NE(rep.err.find("--rep=3 is beyond --reps=2"), std::string::npos) << rep.err;
    EXPECT_FALSE(fs::exists(dir / "out"));
    fs::remove_all(dir);
}

TEST(StressrigRunMode, TraceDumpNeedsATraceBuild) {
    const fs::path dir = rigtest::scratch("run-mode", "dump");
    const Result r = rig(small("--trace-dump --life-window=0s"), dir);
    if (!pullsched::Scheduler::traceCompiledIn()) {
        EXPECT_EQ(r.code, 2);
        EXPECT_NE(r.err.find("-DPULLSCHED_TRACE=ON"), std::string::npos) << r.err;
        EXPECT_FALSE(fs::exists(dir / "out"));
    } else {
        ASSERT_EQ(r.code, 0) << r.err;
        EXPECT_EQ(rigtest::fileEnvelope(rigtest::latestRun(dir / "out") / "run-burst-16.json")
                      .at("configuration")
                      .at("trace_dump"),
                  true);
        EXPECT_GT(fs::file_size(rigtest::latestRun(dir / "out") / "run-burst-16-trace-dump.txt"),
                  0u);
    }
    fs::remove_all(dir);
}

// SIGINT between reps: the reps measured so far are reported, marked partial, exit 130.
TEST(StressrigRunMode, InterruptKeepsWhatWasMeasured) {
    const fs::path dir = rigtest::scratch("run-mode", "sigint");
    const fs::path bin = rigtest::stressrigBinary();
    const std::string cmd = "cd '" + dir.string() + "' && ('" + bin.string() + "' " +
                            small("--reps=100000 --life-window=0s") +
                            " >stdout.txt 2>stderr.txt & pid=$!; "
                            "sleep 3; kill -INT $pid; wait $pid; echo $? >code.txt)";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
    EXPECT_EQ(slurp(dir / "code.txt"), "130\n") << slurp(dir / "stderr.txt");
    const json j = rigtest::fileEnvelope(rigtest::latestRun(dir / "out") / "run-burst-16.json");
    EXPECT_EQ(j.at("partial"), true);
    const std::size_t run = j.at("result").at("reps_run");
    EXPECT_GT(run, 0u);
    EXPECT_LT(run, 100000u);
    EXPECT_EQ(
        CsvTable::readFile(rigtest::latestRun(dir / "out") / "run-burst-16-reps.csv").rowCount(),
        run + j.at("result").at("reps_interrupted").get<std::size_t>());
    EXPECT_TRUE(j.at("failures").empty()) << j.at("failures");
    EXPECT_NE(slurp(dir / "stdout.txt").find("stopped after"), std::string::npos);
    fs::remove_all(dir);
}

// SIGTERM during one long rep: the rep is cut short (jobs not started are cancelled),
// listed as interrupted, counted in no figure and no failure; exit 143.
TEST(StressrigRunMode, StopDuringALongRepCutsItShort) {
    const fs::path dir = rigtest::scratch("run-mode", "sigterm");
    const fs::path bin = rigtest::stressrigBinary();
    const std::string cmd = "cd '" + dir.string() + "' && ('" + bin.string() + "' " +
                            small("--nodes=5000 --load=500us --life-window=0s") +
                            " >stdout.txt 2>stderr.txt & pid=$!; "
                            "sleep 1.5; kill -TERM $pid; wait $pid; echo $? >code.txt)";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
    EXPECT_EQ(slurp(dir / "code.txt"), "143\n") << slurp(dir / "stderr.txt");
    const json j = rigtest::fileEnvelope(rigtest::latestRun(dir / "out") / "run-burst-5000.json");
    EXPECT_EQ(j.at("partial"), true);
    EXPECT_TRUE(j.at("failures").empty()) << j.at("failures");
    EXPECT_EQ(j.at("exit_status"), 143);
    if (j.at("result").at("reps_interrupted") == 1) {
        EXPECT_EQ(j.at("result").at("reps_run"), 0);
        EXPECT_TRUE(j.at("result").at("runtime_ms").is_null());
        const CsvTable reps =
            CsvTable::readFile(rigtest::latestRun(dir / "out") / "run-burst-5000-reps.csv");
        ASSERT_EQ(reps.rowCount(), 1u);
        EXPECT_EQ(reps.text(0, reps.columnIndex("state")), "interrupted");
        EXPECT_TRUE(std::isnan(reps.number(0, "runtime ms")));
        EXPECT_EQ(
            CsvTable::readFile(rigtest::latestRun(dir / "out") / "run-burst-5000.csv").rowCount(),
            5000u);
        EXPECT_NE(slurp(dir / "stdout.txt").find("interrupted rep 1:"), std::string::npos);
    }
    fs::remove_all(dir);
}

// --placement reaches the configuration and every choice runs the graph correctly (the
// pullsched backend takes it from the BackendSetup); beside a backend that places no
// workers it is refused.
TEST(StressrigRunMode, PlacementIsRecordedAndEveryChoiceRuns) {
    const fs::path dir = rigtest::scratch("run-mode", "placement");
    for (const std::string p : {"spread", "pinned", "os"}) {
        const Result r = rig(small("--life-window=0s --reps=2 --json --placement=" + p), dir);
        ASSERT_EQ(r.code, 0) << p << "\n" << r.err;
        const json j = rigtest::stdoutEnvelope(r);
        EXPECT_EQ(j.at("configuration").at("placement"), p);
        EXPECT_EQ(j.at("result").at("hash_check"), "ok") << p;
    }
    const Result text = rig(small("--life-window=0s --reps=1 --placement=pinned"), dir);
    EXPECT_NE(text.out.find("pullsched's workers pinned, one per CPU"), std::string::npos)
        << text.out;
    // pool places no workers: refused, naming it, rather than run otherwise than asked
    const Result b = rig(small("--json --placement=pinned --backends=pullsched,pool"), dir);
    EXPECT_EQ(b.code, 2) << b.out << b.err;
    EXPECT_NE(b.err.find("--placement=pinned: pool has no worker placement"), std::string::npos)
        << b.err;
    fs::remove_all(dir);
}
