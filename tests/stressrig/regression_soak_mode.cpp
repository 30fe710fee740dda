// --mode=soak through the binary: options applied, the verdict honest about drops and
// short runs, and a stop by SIGINT / SIGTERM writing the partial result. No timed
// assertions: counts that follow from the timetable, fields, files, exit codes.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>
#include <chrono>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "RigTestSupport.hpp"
#include "load/ArrivalTimetable.hpp"

using nlohmann::json;
using pullsched::rig::ArrivalTimetable;
using namespace std::chrono_literals;

namespace {

using rigtest::usOf;
using RigRun = rigtest::JsonRun;

RigRun soak(const std::string& name, const std::string& args) {
    return rigtest::rigJsonIn("soak", name, "--mode=soak " + args);
}

/// Arrivals of a soak: one timetable per interval, Poisson seeded by seed + index.
std::size_t soakArrivals(double rate, std::chrono::nanoseconds duration,
                         std::chrono::nanoseconds interval, const char* arrival, std::uint64_t seed,
                         std::chrono::nanoseconds warmup, std::size_t* measured) {
    std::size_t n = 0;
    *measured = 0;
    std::uint64_t k = 0;
    for (auto base = 0ns; base < duration; base += interval, ++k) {
        const auto len = std::min(interval, duration - base);
        const ArrivalTimetable tt = std::string(arrival) == "poisson"
                                        ? ArrivalTimetable::poisson(rate, len, seed + k)
                                        : ArrivalTimetable::constant(rate, len);
        n += tt.size();
        for (auto o : tt)
            *measured += base + o >= warmup ? 1 : 0;
    }
    return n;
}

}  // namespace

TEST(SoakMode, IntervalRateArrivalAndWarmupAreApplied) {
    struct Case {
        std::string args;
        double rate;
        std::chrono::nanoseconds duration, interval, warmup;
        const char* arrival;
        std::uint64_t seed;
    };
    const Case cases[] = {
        {"--rate=2k --duration=500ms --interval=100ms --warmup=100ms", 2000, 500ms, 100ms, 100ms,
         "constant", 42},
        {"--rate=1k --duration=500ms --interval=250ms --warmup=0s", 1000, 500ms, 250ms, 0ms,
         "constant", 42},
        {"--rate=1500 --duration=400ms --interval=100ms --warmup=50ms --arrival=poisson "
         "--sample-seed=9",
         1500, 400ms, 100ms, 50ms, "poisson", 9},
    };
    int i = 0;
    for (const Case& c : cases) {
        // --limit=1s: a deadline window of 100 s, nothing dropped.
        const RigRun run = soak("opts" + std::to_string(i++), "--load=100us --limit=1s " + c.args);
        const json& res = run.j.at("result");
        std::size_t measured = 0;
        const std::size_t jobs =
            soakArrivals(c.rate, c.duration, c.interval, c.arrival, c.seed, c.warmup, &measured);
        EXPECT_EQ(res.at("intervals").size(), static_cast<std::size_t>(c.duration / c.interval))
            << c.args;
        EXPECT_EQ(res.at("jobs_posted").get<std::size_t>(), jobs) << c.args;
        EXPECT_EQ(res.at("posted_measured").get<std::size_t>(), measured) << c.args;
        std::size_t perInterval = 0;
        for (const json& row : res.at("intervals"))
            perInterval += row.at("jobs_posted").get<std::size_t>();
        EXPECT_EQ(perInterval, jobs) << c.args;
        EXPECT_EQ(res.at("jobs_expired"), 0);
        const json& cfg = run.j.at("configuration");
        EXPECT_DOUBLE_EQ(cfg.at("rate_per_s").get<double>(), c.rate);
        EXPECT_DOUBLE_EQ(cfg.at("interval_us").get<double>(), usOf(c.interval));
        EXPECT_DOUBLE_EQ(cfg.at("warmup_us").get<double>(), usOf(c.warmup));
        EXPECT_EQ(cfg.at("arrival"), c.arrival);
        EXPECT_EQ(cfg.at("sample_seed"), c.seed);
    }
}

TEST(SoakMode, ShortRunHasNoTrendAndSaysSo) {
    const RigRun run = soak("short",
                            "--rate=1k --duration=300ms --interval=100ms --load=100us "
                            "--warmup=0s --limit=1s --workers=3");
    const json& res = run.j.at("result");
    EXPECT_TRUE(res.at("trend").at("throughput_percent_per_hour").is_null());
    EXPECT_TRUE(res.at("trend").at("memory_mib_per_hour").is_null());
    EXPECT_EQ(
        res.at("trend").at("text").get<std::string>().rfind("trend: n/a (only 2 intervals", 0), 0u)
        << res.dump();
    const std::string verdict = run.j.at("verdict");
    EXPECT_EQ(verdict.find("%/h"), std::string::npos) << verdict;
    EXPECT_EQ(verdict.rfind("stable", 0), std::string::npos) << verdict;
    // --workers and --load set the nominal capacity the rate is compared with.
    EXPECT_EQ(run.j.at("configuration").at("workers"), 3);
    EXPECT_DOUBLE_EQ(res.at("nominal_capacity_per_s").get<double>(), 3 / 100e-6);
}

TEST(SoakMode, EnoughIntervalsGiveTrendsWithUncertainty) {
    const auto dir = rigtest::scratch("soak", "trend");
    const auto r = rigtest::rig(
        "--mode=soak --rate=500 --duration=800ms --interval=100ms "
        "--load=100us --warmup=0s --limit=1s --quiet --no-render",
        dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const json j = json::parse(rigtest::slurp(rigtest::latestRun(dir / "out") / "soak.json"));
    const json& t = j.at("result").at("trend");
    ASSERT_TRUE(t.at("throughput_percent_per_hour").is_object()) << t.dump();
    EXPECT_TRUE(t.at("throughput_percent_per_hour").at("standard_error").is_number());
    EXPECT_EQ(t.at("intervals_used"), 7);
    EXPECT_NE(r.out.find("Trend: throughput"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("±"), std::string::npos) << r.out;
    // The per-interval table and its plots, RSS in MiB.
    EXPECT_NE(r.out.find("RSS MiB"), std::string::npos);
    const std::string csv = rigtest::slurp(rigtest::latestRun(dir / "out") / "soak.csv");
    for (const char* col : {"\"throughput per s\"", "\"p99 lateness us\"", "\"rss MiB\"",
                            "\"cpu %\"", "\"backlog\"", "\"jobs expired\"", "\"steal %\""})
        EXPECT_NE(csv.find(col), std::string::npos) << col;
    for (const char* f :
         {"soak-throughput.gp", "soak-memory.gp", "soak-cpu.gp", "soak-lateness.hgrm"})
        EXPECT_TRUE(rigtest::fs::exists(rigtest::latestRun(dir / "out") / f)) << f;
    // Per interval: the process's CPU share, steal time (null where the kernel has none)
    // and RSS, so that a fall of throughput can be told apart and memory given back seen.
    for (const json& i : j.at("result").at("intervals")) {
        EXPECT_TRUE(i.at("cpu_percent").is_number()) << i.dump();
        EXPECT_TRUE(i.at("steal_percent").is_number() || i.at("steal_percent").is_null());
        EXPECT_TRUE(i.at("rss_mib").is_number()) << i.dump();
    }
    EXPECT_TRUE(t.at("cpu_percent_points_per_hour").is_object()) << t.dump();
    EXPECT_TRUE(t.at("rss_peak_mib").is_number()) << t.dump();
    const json& v = j.at("result").at("verdict");
    EXPECT_TRUE(v.at("memory_returned").is_boolean()) << v.dump();
    // A cause only where throughput fell.
    EXPECT_EQ(v.at("throughput_cause").is_null(),
              j.at("verdict").get<std::string>().find("throughput fell") == std::string::npos)
        << v.dump();
    EXPECT_NE(r.out.find("steal %"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("RSS: "), std::string::npos) << r.out;
    EXPECT_NE(rigtest::slurp(rigtest::latestRun(dir / "out") / "soak-cpu.gp").find("steal %"),
              std::string::npos);
}

TEST(SoakMode, DropsOverTheThresholdAreNeverStable) {
    // A tiny deadline window on a saturated rate (capacity 2 / 500 µs = 4k/s).
    const RigRun drops = soak("drops",
                              "--rate=20k --duration=400ms --interval=100ms "
                              "--load=500us --deadline-window=5us --warmup=0s");
    const json& res = drops.j.at("result");
    EXPECT_GT(res.at("jobs_expired").get<std::uint64_t>(), 0u);
    EXPECT_DOUBLE_EQ(drops.j.at("configuration").at("deadline_window_us").get<double>(), 5.0);
    EXPECT_DOUBLE_EQ(res.at("deadline_window_us").get<double>(), 5.0);
    EXPECT_EQ(res.at("verdict").at("verdict"), "unstable");
    const std::string verdict = drops.j.at("verdict");
    EXPECT_NE(verdict.find("dropped unstarted at their deadline"), std::string::npos) << verdict;
    EXPECT_NE(verdict.find("0.1 % threshold"), std::string::npos) << verdict;
    EXPECT_EQ(drops.r.code, 0);  // a measurement, not a failure
}

TEST(SoakMode, DropThresholdAndLimitDecide) {
    // --limit=1us: practically every start is late; 0 % tolerates none, 100 % all.
    const RigRun strict = soak("strict",
                               "--rate=1k --duration=300ms --interval=100ms --load=100us "
                               "--warmup=0s --limit=1us --deadline-window=1s "
                               "--drop-threshold=0%");
    EXPECT_GT(strict.j.at("result").at("late_starts").get<std::uint64_t>(), 0u);
    EXPECT_EQ(strict.j.at("result").at("verdict").at("verdict"), "unstable");
    EXPECT_DOUBLE_EQ(strict.j.at("configuration").at("drop_threshold_percent").get<double>(), 0);
    EXPECT_DOUBLE_EQ(strict.j.at("configuration").at("limit_us").get<double>(), 1.0);
    const RigRun lax = soak("lax",
                            "--rate=1k --duration=300ms --interval=100ms --load=100us "
                            "--warmup=0s --limit=1us --deadline-window=1s "
                            "--drop-threshold=100%");
    EXPECT_NE(lax.j.at("result").at("verdict").at("verdict"), "unstable");
    EXPECT_DOUBLE_EQ(lax.j.at("configuration").at("drop_threshold_percent").get<double>(), 100);
    // Unset, the deadline window is 100 x --limit.
    const RigRun byLimit = soak("bylimit",
                                "--rate=1k --duration=200ms --interval=100ms "
                                "--load=100us --limit=2ms --load-kind=memory --warmup=0s");
    EXPECT_DOUBLE_EQ(byLimit.j.at("configuration").at("deadline_window_us").get<double>(),
                     200'000.0);
    EXPECT_EQ(byLimit.j.at("calibration").at("kind"), "memory");
    EXPECT_EQ(byLimit.j.at("configuration").at("load_kind"), "memory");
}

TEST(SoakMode, BadCombinationsAreUsageErrors) {
    const auto dir = rigtest::scratch("soak", "bad");
    for (const char* args :
         {"--mode=soak --interval=10s --duration=1s", "--mode=soak --warmup=2s --duration=1s",
          "--mode=soak --drop-threshold=101", "--mode=soak --drop-threshold=x%",
          "--mode=soak --users=3"}) {
        const auto r = rigtest::rig(args, dir);
        EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
        EXPECT_FALSE(rigtest::fs::exists(dir / "out")) << args;
    }
}

namespace {

/// Starts a one-minute soak, waits for its first interval's progress line, sends `sig`.
void interruptSoak(int sig, int expectedExit) {
    const auto dir = rigtest::scratch("soak", "signal" + std::to_string(sig));
    const auto errFile = dir / "stderr.txt", outFile = dir / "stdout.txt";
    const pid_t pid =
        rigtest::startRig({"--mode=soak", "--duration=1min", "--interval=200ms", "--rate=1k",
                           "--load=100us", "--warmup=0s", "--no-render", "--name=s"},
                          dir);
    ASSERT_GE(pid, 0);
    // The first interval is done when its progress line appears.
    const bool started = rigtest::waitForText(errFile, "] 1/300 ");
    ASSERT_TRUE(started) << rigtest::slurp(errFile);
    ::kill(pid, sig);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status)) << "killed by a signal: " << WTERMSIG(status);
    EXPECT_EQ(WEXITSTATUS(status), expectedExit) << rigtest::slurp(errFile);

    const json j = json::parse(rigtest::slurp(rigtest::latestRun(dir / "out") / "s.json"));
    EXPECT_EQ(j.at("partial"), true);
    EXPECT_EQ(j.at("exit_status"), expectedExit);
    EXPECT_EQ(j.at("result").at("interrupted"), true);
    const std::size_t rows = j.at("result").at("intervals").size();
    EXPECT_GE(rows, 1u);
    EXPECT_LT(rows, 300u);
    EXPECT_EQ(j.at("result").at("intervals_planned"), 300);
    // The CSV holds the same rows, marked partial.
    const std::string csv = rigtest::slurp(rigtest::latestRun(dir / "out") / "s.csv");
    EXPECT_NE(csv.find("# partial: yes"), std::string::npos);
    const std::string out = rigtest::slurp(outFile);
    EXPECT_NE(out.find("Interrupted after"), std::string::npos) << out;
    EXPECT_NE(out.find("Verdict: interrupted"), std::string::npos) << out;
    // Nothing temporary is left: the only folders are --out, the run's and its link.
    const rigtest::fs::path run = rigtest::latestRun(dir / "out");
    for (const auto& e : rigtest::fs::recursive_directory_iterator(dir)) {
        const std::string name = e.path().filename().string();
        EXPECT_EQ(name.find(".tmp"), std::string::npos) << e.path();
        EXPECT_EQ(name.find("staging"), std::string::npos) << e.path();
        if (e.is_directory()) {
            EXPECT_TRUE(e.path() == dir / "out" || e.path() == run ||
                        e.path() == dir / "out" / "latest")
                << e.path() << ": a stray folder";
        }
    }
}

}  // namespace

TEST(SoakMode, SigintStopsWithPartialResultAndExit130) {
    interruptSoak(SIGINT, 130);
}

TEST(SoakMode, SigtermStopsWithPartialResultAndExit143) {
    interruptSoak(SIGTERM, 143);
}
