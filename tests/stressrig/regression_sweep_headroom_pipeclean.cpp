// --mode=sweep, --mode=headroom and --mode=pipeclean end to end through the binary.
// Every option of the three modes shows up in the envelope's configuration and changes
// what the mode does. No timed assertions: counts, timetables, hashes, classes, files.
#include <gtest/gtest.h>

#include <iterator>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "RigTestSupport.hpp"
#include "analysis/LoadTestAnalysis.hpp"
#include "cli/GraphOptions.hpp"
#include "load/ArrivalTimetable.hpp"
#include "pullsched/testchain/GraphStatistics.hpp"
#include "pullsched/testchain/LevelSchedule.hpp"
#include "pullsched/testchain/Presets.hpp"
#include "report/CsvTable.hpp"

using namespace std::chrono_literals;
using nlohmann::json;
using pullsched::rig::ArrivalTimetable;
using pullsched::rig::CsvTable;
namespace fs = std::filesystem;

namespace {

using rigtest::JsonRun;

/// Runs in the background and sends SIGINT after `after` seconds.
rigtest::Result runInterrupted(const std::string& args, const fs::path& dir,
                               const std::string& after) {
    const fs::path bin = rigtest::stressrigBinary();
    // One SIGINT to the rig alone (timeout(1) would signal its process group as well).
    const std::string cmd = "cd '" + dir.string() + "' && { '" + bin.string() + "' " + args +
                            " --json --quiet --no-render >stdout.txt 2>stderr.txt & p=$!; sleep " +
                            after + "; kill -INT $p; wait $p; }";
    const int st = std::system(cmd.c_str());
    rigtest::Result r;
    r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    r.out = rigtest::slurp(dir / "stdout.txt");
    r.err = rigtest::slurp(dir / "stderr.txt");
    return r;
}

std::size_t countRowsWithWorkers(const json& steps, unsigned w) {
    std::size_t n = 0;
    for (const auto& s : steps)
        n += s.at("workers").get<unsigned>() == w;
    return n;
}

}  // namespace

// ------------------------------------------------------------------ sweep

TEST(SweepMode, OptionsAppearAndApply) {
    const fs::path dir = rigtest::scratch("steps", "sweep-options");
    const JsonRun run = rigtest::rigJson(
        "--mode=sweep --workers=1,2 --from=200/s --to=600/s --step=200/s --hold=150ms "
        "--warmup=20ms --limit=1s --deadline-window=2s --arrival=poisson --sample-seed=7 "
        "--drop-threshold=0.5% --load=100us --load-kind=memory --max-schedule=10min",
        dir);
    const json& c = run.j.at("configuration");
    EXPECT_EQ(c.at("workers"), json::array({1, 2}));
    EXPECT_EQ(c.at("from_per_s"), 200.0);
    EXPECT_EQ(c.at("to_per_s"), 600.0);
    EXPECT_EQ(c.at("step_per_s"), 200.0);
    EXPECT_EQ(c.at("hold_us"), 150'000.0);
    EXPECT_EQ(c.at("warmup_us"), 20'000.0);
    EXPECT_EQ(c.at("limit_us"), 1e6);
    EXPECT_EQ(c.at("deadline_window_us"), 2e6);
    EXPECT_EQ(c.at("arrival"), "poisson");
    EXPECT_EQ(c.at("sample_seed"), 7u);
    EXPECT_DOUBLE_EQ(c.at("drop_threshold_percent").get<double>(), 0.5);
    EXPECT_EQ(c.at("load_us"), 100.0);
    EXPECT_EQ(c.at("load_kind"), "memory");
    EXPECT_EQ(c.at("max_schedule_us"), 600e6);
    EXPECT_EQ(run.j.at("calibration").at("kind"), "memory");

    const json& res = run.j.at("result");
    EXPECT_EQ(res.at("rates_per_s"), json::array({200.0, 400.0, 600.0}));  // --step
    EXPECT_EQ(res.at("deadline_window_us"), 2e6);
    EXPECT_DOUBLE_EQ(res.at("drop_threshold_percent").get<double>(), 0.5);
    const json& steps = res.at("steps");
    // One table for every worker count; no failure expected at 600/s of 100 µs jobs with a
    // 2 s deadline window, but a failure would legitimately skip the higher rates.
    ASSERT_GE(countRowsWithWorkers(steps, 1), 1u);
    ASSERT_GE(countRowsWithWorkers(steps, 2), 1u);
    ASSERT_EQ(res.at("levels").size(), 2u);
    const std::set<std::string> classes{"stable", "burst", "failure"};
    for (const auto& s : steps) {
        const double rate = s.at("offered_rate_per_s");
        const unsigned w = s.at("workers");
        // Poisson arrivals of --sample-seed over --hold; the first --warmup not measured.
        const auto tt = ArrivalTimetable::poisson(rate, 150ms, 7);
        EXPECT_EQ(s.at("jobs_posted").get<std::uint64_t>(), tt.size()) << s.dump();
        EXPECT_EQ(s.at("jobs_measured").get<std::uint64_t>(),
                  pullsched::rig::measuredArrivals(tt, 20ms));
        // --load: offered share of the nominal capacity workers / load.
        EXPECT_NEAR(s.at("utilisation_percent").get<double>(), 100 * rate * 100e-6 / w, 1e-9);
        EXPECT_TRUE(classes.count(s.at("class").get<std::string>())) << s.dump();
        // --limit=1s: lateness never decides here.
        EXPECT_EQ(s.at("reason").get<std::string>().find(" lateness"), std::string::npos);
    }

    const CsvTable csv = CsvTable::readFile(rigtest::latestRun(dir / "out") / "sweep.csv");
    EXPECT_EQ(csv.rowCount(), steps.size());
    for (const char* col : {"workers", "offered rate per s", "rss MiB", "cpu %", "p99 lateness us",
                            "jobs expired", "drop %", "class"})
        EXPECT_TRUE(csv.hasColumn(col)) << col;
    // one picture for every worker count, with y = x and the class bands
    const std::string gp = rigtest::slurp(rigtest::latestRun(dir / "out") / "sweep.gp");
    EXPECT_NE(gp.find("title '1 worker'"), std::string::npos);
    EXPECT_NE(gp.find("title '2 workers'"), std::string::npos);
    EXPECT_NE(gp.find("y = x (achieved = offered)"), std::string::npos);
    EXPECT_FALSE(fs::exists(rigtest::latestRun(dir / "out") / "sweep-w1.gp"));
    fs::remove_all(dir);
}

TEST(SweepMode, LimitAndAutomaticStepsChangeTheSweep) {
    const fs::path dir = rigtest::scratch("steps", "sweep-limit");
    // No --step: 5 evenly spaced rates. --limit=1ns: no step can be stable; no deadlines.
    const JsonRun run = rigtest::rigJson(
        "--mode=sweep --workers=2 --from=100/s --to=300/s --hold=100ms --warmup=10ms "
        "--limit=1ns --deadline-window=0s --load=50us",
        dir);
    const json& res = run.j.at("result");
    EXPECT_EQ(run.j.at("configuration").at("limit_us"), 0.001);
    EXPECT_EQ(run.j.at("configuration").at("deadline_window_us"), 0.0);
    EXPECT_EQ(res.at("rates_per_s").size(), 5u);
    ASSERT_EQ(res.at("steps").size(), 5u);  // without deadlines nothing drops: no failure
    for (const auto& s : res.at("steps")) {
        EXPECT_EQ(s.at("jobs_expired"), 0u);
        EXPECT_NE(s.at("class"), "stable") << s.dump();
        // "p99 lateness … > 1ns", "max lateness (n=…) … > 1ns" or "no lateness measured"
        const std::string reason = s.at("reason");
        EXPECT_NE(reason.find("lateness"), std::string::npos) << reason;
    }
    EXPECT_TRUE(res.at("levels").at(0).at("highest_stable_per_s").is_null());
    fs::remove_all(dir);
}

TEST(SweepMode, DropThresholdDecidesStableAndFailure) {
    const fs::path dir = rigtest::scratch("steps", "sweep-drops");
    // --deadline-window=1ns: (nearly) every job misses its deadline and is dropped.
    const std::string base =
        "--mode=sweep --workers=1 --from=200/s --to=400/s --step=100/s --hold=100ms "
        "--warmup=10ms --limit=1s --deadline-window=1ns --load=50us";
    const JsonRun strict = rigtest::rigJson(base, dir);
    const json& s0 = strict.j.at("result").at("steps");
    ASSERT_EQ(s0.size(), 1u);  // the first failure ends the sweep of that worker count
    EXPECT_EQ(s0.at(0).at("class"), "failure") << s0.dump();
    EXPECT_GT(s0.at(0).at("jobs_expired").get<std::uint64_t>(), 0u);
    EXPECT_EQ(strict.j.at("result").at("levels").at(0).at("steps_skipped"), 2u);
    EXPECT_EQ(strict.j.at("exit_status"), 0);  // drops are a measurement
    EXPECT_FALSE(strict.j.at("warnings").empty());

    const JsonRun loose = rigtest::rigJson(base + " --drop-threshold=100%", dir);
    EXPECT_EQ(loose.j.at("configuration").at("drop_threshold_percent"), 100.0);
    const json& s1 = loose.j.at("result").at("steps");
    ASSERT_EQ(s1.size(), 3u);
    for (const auto& s : s1) {
        EXPECT_NE(s.at("class"), "failure") << s.dump();
        EXPECT_NE(s.at("class"), "stable") << s.dump();  // nothing measured is never stable
    }
    fs::remove_all(dir);
}

TEST(SweepMode, BadInputExitsTwoAndWritesNothing) {
    const fs::path dir = rigtest::scratch("steps", "sweep-bad");
    for (const char* args : {"--mode=sweep --from=2k/s --to=1k/s", "--mode=sweep --step=0",
                             "--mode=sweep --drop-threshold=101%", "--mode=sweep --workers=0,2",
                             "--mode=sweep --hold=1s --max-schedule=2s", "--mode=sweep --from=fast",
                             "--mode=sweep --max-copies=2"}) {
        const auto r = rigtest::rig(args, dir);
        EXPECT_EQ(r.code, 2) << args << ": " << r.err;
        EXPECT_FALSE(r.err.empty()) << args;
    }
    const auto r = rigtest::rig("--mode=sweep --hold=1s --max-schedule=2s", dir);
    EXPECT_NE(r.err.find("--max-schedule"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "out"));
    fs::remove_all(dir);
}

TEST(SweepMode, InterruptReturnsPartialResult) {
    const fs::path dir = rigtest::scratch("steps", "sweep-stop");
    const auto r = runInterrupted(
        "--mode=sweep --workers=1 --from=100/s --to=300/s --step=100/s --hold=3s --load=50us", dir,
        "1.5");
    EXPECT_EQ(r.code, 130) << r.err;
    ASSERT_FALSE(r.out.empty()) << r.err;
    const json j = json::parse(r.out);
    EXPECT_TRUE(j.at("partial").get<bool>());
    EXPECT_LT(j.at("result").at("steps").size(), 3u);
    EXPECT_TRUE(fs::exists(rigtest::latestRun(dir / "out") / "sweep.json"));
    fs::remove_all(dir);
}

// ------------------------------------------------------------------ headroom

TEST(HeadroomMode, OptionsAppearAndApply) {
    const fs::path dir = rigtest::scratch("steps", "headroom-options");
    const JsonRun run = rigtest::rigJson(
        "--mode=headroom --max-copies=2 --copy-work=20ms --workers=1 --load=200us --hold=100ms "
        "--warmup=10ms --arrival=poisson --sample-seed=9 --deadline-window=1s "
        "--drop-threshold=50% --load-kind=cpu",
        dir);
    const json& c = run.j.at("configuration");
    EXPECT_EQ(c.at("max_copies"), 2u);
    EXPECT_EQ(c.at("copy_work_us"), 20'000.0);
    EXPECT_EQ(c.at("workers"), 1u);
    EXPECT_EQ(c.at("load_us"), 200.0);
    EXPECT_EQ(c.at("hold_us"), 100'000.0);
    EXPECT_EQ(c.at("warmup_us"), 10'000.0);
    EXPECT_EQ(c.at("arrival"), "poisson");
    EXPECT_EQ(c.at("sample_seed"), 9u);
    EXPECT_EQ(c.at("deadline_window_us"), 1e6);
    EXPECT_EQ(c.at("drop_threshold_percent"), 50.0);
    EXPECT_EQ(c.at("load_kind"), "cpu");
    EXPECT_EQ(run.j.at("calibration").at("kind"), "cpu");

    const json& res = run.j.at("result");
    EXPECT_EQ(res.at("copies").size(), 2u);       // --max-copies
    EXPECT_EQ(res.at("chain_jobs"), 100u);        // --copy-work / --load
    EXPECT_EQ(res.at("capacity_per_s"), 5000.0);  // --workers / --load
    EXPECT_EQ(res.at("deadline_window_us"), 1e6);
    const json& load = res.at("load");
    ASSERT_EQ(load.size(), 10u);
    for (std::size_t i = 0; i < load.size(); ++i) {
        const double rate = 500.0 * static_cast<double>(i + 1);
        EXPECT_DOUBLE_EQ(load[i].at("offered_rate_per_s").get<double>(), rate);
        const auto tt = ArrivalTimetable::poisson(rate, 100ms, 9);
        EXPECT_EQ(load[i].at("jobs_posted").get<std::uint64_t>(), tt.size());
        EXPECT_EQ(load[i].at("jobs_measured").get<std::uint64_t>(),
                  pullsched::rig::measuredArrivals(tt, 10ms));
        // --drop-threshold=50%: a 1 s window drops (almost) nothing at these rates.
        EXPECT_EQ(load[i].at("drops_over_threshold").get<bool>(),
                  load[i].at("jobs_expired").get<double>() >
                      0.5 * load[i].at("jobs_posted").get<double>());
    }
    EXPECT_EQ(res.at("copies").at(0).at("efficiency"), 1.0);
    EXPECT_TRUE(fs::exists(rigtest::latestRun(dir / "out") / "headroom-copies.csv"));
    EXPECT_TRUE(fs::exists(rigtest::latestRun(dir / "out") / "headroom-load.csv"));
    fs::remove_all(dir);
}

// The progress lines' CPU figure is the table's: a share of the machine, its base stated.
TEST(HeadroomMode, ProgressShowsTheTablesMachineCpu) {
    const fs::path dir = rigtest::scratch("steps", "headroom-progress");
    const rigtest::Result r = rigtest::rig(
        "--mode=headroom --max-copies=1 --copy-work=5ms --hold=100ms --warmup=10ms --no-render",
        dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const json load = json::parse(rigtest::slurp(rigtest::latestRun(dir / "out") / "headroom.json"))
                          .at("result")
                          .at("load");
    const std::regex progress(
        R"((\d+)/10 \(\d+%\) \d+ % of capacity: machine CPU (\d+) % \(of \d+ cores\))");
    std::size_t seen = 0;
    for (auto m = std::sregex_iterator(r.err.begin(), r.err.end(), progress);
         m != std::sregex_iterator(); ++m, ++seen)
        EXPECT_NEAR(std::stod((*m)[2]),  // printed without decimals
                    load.at(std::stoul((*m)[1]) - 1).at("machine_cpu_percent").get<double>(),
                    0.5 + 1e-9)
            << m->str();
    EXPECT_GT(seen, 0u) << r.err;
    fs::remove_all(dir);
}

// No lateness measured (every job dropped): empty CSV cells, null in JSON, "n/a" in
// text — never "0ns" — and no maximum sustained load.
TEST(HeadroomMode, NoDataIsMissingNotZero) {
    const fs::path dir = rigtest::scratch("steps", "headroom-nodata");
    const std::string args =
        "--mode=headroom --max-copies=1 --copy-work=5ms --hold=100ms --warmup=10ms "
        "--deadline-window=1ns";
    const auto text = rigtest::rig(args + " --no-render --quiet", dir);
    ASSERT_EQ(text.code, 0) << text.err;
    EXPECT_NE(text.out.find("n/a"), std::string::npos) << text.out;
    EXPECT_EQ(text.out.find(" 0ns"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("undetermined"), std::string::npos) << text.out;

    const json j = json::parse(rigtest::slurp(rigtest::latestRun(dir / "out") / "headroom.json"));
    const json& res = j.at("result");
    EXPECT_EQ(res.at("copies").size(), 1u);  // --max-copies=1
    EXPECT_TRUE(res.at("max_sustained_rate_per_s").is_null());
    for (const auto& s : res.at("load")) {
        ASSERT_EQ(s.at("lateness").at("count"), 0u) << s.dump();
        EXPECT_TRUE(s.at("lateness").at("mean_us").is_null());
        EXPECT_TRUE(s.at("lateness").at("p99_us").is_null());
        EXPECT_TRUE(s.at("drops_over_threshold").get<bool>());  // default 0.1 %
    }
    const CsvTable csv = CsvTable::readFile(rigtest::latestRun(dir / "out") / "headroom-load.csv");
    for (std::size_t i = 0; i < csv.rowCount(); ++i)
        for (const char* col : {"mean lateness us", "p99 lateness us"})
            EXPECT_TRUE(std::isnan(csv.number(i, col))) << col << " row " << i;

    // --drop-threshold=100%: the same drops are within the threshold.
    const JsonRun loose = rigtest::rigJson(args + " --drop-threshold=100%", dir);
    for (const auto& s : loose.j.at("result").at("load"))
        EXPECT_FALSE(s.at("drops_over_threshold").get<bool>()) << s.dump();
    fs::remove_all(dir);
}

TEST(HeadroomMode, InterruptReturnsPartialResult) {
    const fs::path dir = rigtest::scratch("steps", "headroom-stop");
    const auto r =
        runInterrupted("--mode=headroom --max-copies=1 --copy-work=5ms --hold=2s", dir, "1.5");
    EXPECT_EQ(r.code, 130) << r.err;
    ASSERT_FALSE(r.out.empty()) << r.err;
    const json j = json::parse(r.out);
    EXPECT_TRUE(j.at("partial").get<bool>());
    EXPECT_LT(j.at("result").at("load").size(), 10u);
    fs::remove_all(dir);
}

// ------------------------------------------------------------------ pipeclean

TEST(PipecleanMode, EveryPresetOnceAndCorrect) {
    const fs::path dir = rigtest::scratch("steps", "pipeclean");
    const JsonRun run = rigtest::rigJson("--mode=pipeclean", dir);
    const json& res = run.j.at("result");
    const auto& presets = pullsched::testchain::presetList();
    ASSERT_EQ(res.at("patterns").size(), presets.size());
    EXPECT_EQ(res.at("failures"), 0u);
    for (std::size_t i = 0; i < presets.size(); ++i) {
        const json& p = res.at("patterns")[i];
        EXPECT_EQ(p.at("pattern"), std::string(presets[i].name));
        EXPECT_TRUE(p.at("hash_checked").get<bool>()) << p.dump();
        EXPECT_TRUE(p.at("hash_ok").get<bool>()) << p.dump();
        EXPECT_EQ(p.at("jobs_completed"), p.at("nodes")) << p.dump();
        EXPECT_NE(p.at("result"), "FAILED") << p.dump();
        // every node's body ran exactly once
        EXPECT_EQ(p.at("jobs_lost"), 0u) << p.dump();
        EXPECT_EQ(p.at("jobs_repeated"), 0u) << p.dump();
        // the scheduler of the pattern's run: its node jobs and its one planning job (64
        // nodes per chunk), each completed once
        const json& ledger = p.at("ledger");
        EXPECT_EQ(ledger.at("jobs_posted").get<std::uint64_t>(),
                  p.at("nodes").get<std::uint64_t>() + 1)
            << p.dump();
        EXPECT_EQ(ledger.at("jobs_completed"), ledger.at("jobs_posted")) << p.dump();
        for (const char* other : {"jobs_failed", "jobs_expired", "jobs_cancelled", "pending"})
            EXPECT_EQ(ledger.at(other), 0u) << other << " " << p.dump();
    }
    EXPECT_EQ(run.j.at("configuration").at("load_us"), 100.0);  // quick by default
    EXPECT_EQ(run.j.at("configuration").at("life_window_us"), 0.0);
    EXPECT_EQ(res.at("backend"), "pullsched");  // one backend: no "backends" level
    EXPECT_FALSE(res.at("deadlines").get<bool>());
    EXPECT_TRUE(fs::exists(rigtest::latestRun(dir / "out") / "pipeclean.csv"));
    fs::remove_all(dir);
}

// The text's per-pattern exactly-once counts and ledger are the JSON's.
TEST(PipecleanMode, TheTextShowsTheExactlyOnceCountsAndTheLedger) {
    const fs::path dir = rigtest::scratch("steps", "pipeclean-text");
    const rigtest::Result r = rigtest::rig("--mode=pipeclean --nodes=32 --quiet --no-render", dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const json patterns =
        json::parse(rigtest::slurp(rigtest::latestRun(dir / "out") / "pipeclean.json"))
            .at("result")
            .at("patterns");
    std::istringstream lines(r.out);
    std::size_t rows = 0;
    bool header = false;
    for (std::string line; std::getline(lines, line);) {
        std::istringstream words(line);
        std::vector<std::string> w{std::istream_iterator<std::string>(words), {}};
        if (w.size() >= 12 && w[0] == "pattern") {
            // "max job" and "max late" are two words each
            header = w[9] == "lost" && w[10] == "repeated" && w[11] == "ledger";
            continue;
        }
        for (const json& p : patterns)
            if (w.size() >= 12 && w[0] == p.at("pattern").get<std::string>()) {
                ++rows;
                EXPECT_EQ(w[7], p.at("jobs_lost").dump()) << line;
                EXPECT_EQ(w[8], p.at("jobs_repeated").dump()) << line;
                EXPECT_EQ(w[9], p.at("ledger").at("pending") == 0 ? "ok" : "open") << line;
            }
    }
    EXPECT_TRUE(header) << r.out;
    EXPECT_EQ(rows, patterns.size()) << r.out;
    fs::remove_all(dir);
}

TEST(PipecleanMode, OptionsAppearAndApply) {
    const fs::path dir = rigtest::scratch("steps", "pipeclean-options");
    const JsonRun run = rigtest::rigJson(
        "--mode=pipeclean --nodes=40 --workers=3 --load=50us --level=2ms --seed=77 --fan=3 "
        "--load-kind=memory",
        dir);
    const json& c = run.j.at("configuration");
    EXPECT_EQ(c.at("nodes"), 40u);
    EXPECT_EQ(c.at("workers"), 3u);
    EXPECT_EQ(c.at("load_us"), 50.0);
    EXPECT_EQ(c.at("level_us"), 2000.0);
    EXPECT_EQ(c.at("seed"), 77u);
    EXPECT_EQ(c.at("fan"), 3u);
    EXPECT_EQ(c.at("load_kind"), "memory");
    EXPECT_EQ(run.j.at("calibration").at("kind"), "memory");

    pullsched::rig::GraphOptions g;
    g.nodes = 40;
    g.seed = 77;
    g.fan = 3;
    for (const json& p : run.j.at("result").at("patterns")) {
        const std::string name = p.at("pattern");
        auto graph = g.presetGraph(name, 40);
        const auto policy = g.rulesFor(name).schedulingWeightPolicy();
        EXPECT_EQ(p.at("nodes"), 40u);
        EXPECT_EQ(p.at("workers"), 3u);
        EXPECT_EQ(p.at("expected_hash"), fmt::format("0x{:016X}", graph.recalculate().graphHash()))
            << name;
        EXPECT_EQ(p.at("actual_hash"), p.at("expected_hash")) << name;
        const double workMs = std::chrono::duration<double, std::milli>(
                                  pullsched::testchain::GraphStatistics(graph, policy).work(50us))
                                  .count();
        EXPECT_DOUBLE_EQ(p.at("work_ms").get<double>(), workMs) << name;
        pullsched::testchain::LevelSchedule schedule(graph, policy);
        schedule.useDefault(2ms);
        const double endMs =
            std::chrono::duration<double, std::milli>(schedule.expectedEnd()).count();
        EXPECT_DOUBLE_EQ(p.at("expected_end_ms").get<double>(), endMs) << name;
    }
    fs::remove_all(dir);
}

// Expired jobs are a measurement: exit 0, the hash is not checked, nothing "FAILED".
TEST(PipecleanMode, ExpiredJobsAreAMeasurement) {
    const fs::path dir = rigtest::scratch("steps", "pipeclean-expired");
    const auto text = rigtest::rig("--mode=pipeclean --life-window=1us --no-render --quiet", dir);
    EXPECT_EQ(text.code, 0) << text.out << text.err;
    EXPECT_NE(text.out.find("hash not checked"), std::string::npos) << text.out;
    EXPECT_EQ(text.out.find("FAILED"), std::string::npos) << text.out;
    const json j = json::parse(rigtest::slurp(rigtest::latestRun(dir / "out") / "pipeclean.json"));
    EXPECT_EQ(j.at("configuration").at("life_window_us"), 1.0);
    EXPECT_TRUE(j.at("result").at("deadlines").get<bool>());  // pullsched has them
    EXPECT_EQ(j.at("result").at("failures"), 0u);
    EXPECT_GT(j.at("result").at("not_checked").get<unsigned>(), 0u);
    std::uint64_t expired = 0;
    for (const json& p : j.at("result").at("patterns")) {
        expired += p.at("jobs_expired").get<std::uint64_t>();
        // a cut run's jobs all end, each counted once, in its own group's ledger
        const json& ledger = p.at("ledger");
        std::uint64_t ended = 0;
        for (const char* state :
             {"jobs_completed", "jobs_failed", "jobs_expired", "jobs_cancelled"})
            ended += ledger.at(state).get<std::uint64_t>();
        EXPECT_EQ(ended, ledger.at("jobs_posted").get<std::uint64_t>()) << p.dump();
        EXPECT_EQ(ledger.at("pending"), 0u) << p.dump();
        EXPECT_EQ(ledger.at("jobs_expired"), p.at("jobs_expired")) << p.dump();
        EXPECT_EQ(ledger.at("jobs_completed").get<std::uint64_t>(),
                  p.at("jobs_completed").get<std::uint64_t>() + 1)  // + its planning job
            << p.dump();
        if (!p.at("hash_checked").get<bool>()) {
            EXPECT_TRUE(p.at("hash_ok").is_null());
        }
    }
    EXPECT_GT(expired, 0u);
    fs::remove_all(dir);
}

// Every pattern on each backend through the backend contract: the result holds each
// backend's patterns, and the pool's runs are verified as pullsched's are (the graph hash
// and how often each node's body ran).
TEST(PipecleanMode, EveryPatternOnEachBackend) {
    const fs::path dir = rigtest::scratch("steps", "pipeclean-backends");
    const JsonRun run =
        rigtest::rigJson("--mode=pipeclean --backends=pullsched,pool --nodes=16", dir);
    const auto& presets = pullsched::testchain::presetList();
    ASSERT_TRUE(run.j.contains("result")) << run.r.err;
    const json& backends = run.j.at("result").at("backends");
    ASSERT_EQ(backends.size(), 2u) << backends.dump();
    for (const char* b : {"pullsched", "pool"}) {
        const json& res = backends.at(b);
        EXPECT_EQ(res.at("backend"), b);
        EXPECT_FALSE(res.at("deadlines").get<bool>()) << b;  // --life-window=0s by default
        EXPECT_EQ(res.at("deadlines_reason"), "no deadlines (--life-window=0s)") << b;
        EXPECT_EQ(res.at("failures"), 0u) << b;
        ASSERT_EQ(res.at("patterns").size(), presets.size()) << b;
        for (std::size_t i = 0; i < presets.size(); ++i) {
            const json& p = res.at("patterns")[i];
            EXPECT_EQ(p.at("pattern"), std::string(presets[i].name)) << b;
            EXPECT_EQ(p.at("nodes"), 16u) << b << " " << p.dump();
            EXPECT_EQ(p.at("jobs_completed"), 16u) << b << " " << p.dump();
            EXPECT_TRUE(p.at("hash_checked").get<bool>()) << b << " " << p.dump();
            EXPECT_TRUE(p.at("hash_ok").get<bool>()) << b << " " << p.dump();
            EXPECT_EQ(p.at("actual_hash"), p.at("expected_hash")) << b << " " << p.dump();
            EXPECT_EQ(p.at("jobs_lost"), 0u) << b << " " << p.dump();
            EXPECT_EQ(p.at("jobs_repeated"), 0u) << b << " " << p.dump();
            EXPECT_TRUE(p.at("result") == "ok" || p.at("result") == "warning") << p.dump();
        }
    }
    // the pool keeps no ledger of its jobs; pullsched's counts its node and planning jobs
    EXPECT_TRUE(backends.at("pool").at("patterns")[0].at("ledger").is_null());
    EXPECT_EQ(backends.at("pullsched").at("patterns")[0].at("ledger").at("jobs_posted"), 17u);
    fs::remove_all(dir);
}

// A graph run needs native deadlines: an explicit --life-window with a backend without
// them is refused before anything runs or is written; --life-window=0 runs it.
TEST(PipecleanMode, AnExplicitLifeWindowNeedsDeadlinesOnEveryBackend) {
    const fs::path dir = rigtest::scratch("steps", "pipeclean-deadlines");
    for (const char* backends : {"pool", "pullsched,pool"}) {
        const auto r = rigtest::rig(
            fmt::format("--mode=pipeclean --backends={} --life-window=50ms --nodes=8", backends),
            dir);
        EXPECT_EQ(r.code, 2) << backends << "\n" << r.out << r.err;
        EXPECT_NE(r.err.find("--life-window="), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("pool has no deadlines"), std::string::npos) << r.err;
        EXPECT_FALSE(fs::exists(dir / "out")) << backends;
    }
    const auto zero =
        rigtest::rig("--mode=pipeclean --backends=pool --life-window=0s --nodes=8 --quiet", dir);
    EXPECT_EQ(zero.code, 0) << zero.out << zero.err;
    EXPECT_NE(zero.out.find("no deadlines (--life-window=0s)"), std::string::npos) << zero.out;
    EXPECT_TRUE(fs::exists(rigtest::latestRun(dir / "out") / "pipeclean.json"));
    fs::remove_all(dir);
}
