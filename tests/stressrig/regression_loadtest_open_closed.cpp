// --mode=open and --mode=closed through the binary: every option shows up in the
// envelope's configuration and changes what the mode does. No timed assertions: counts
// that follow from the timetable, fields, files, exit codes.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "RigTestSupport.hpp"
#include "analysis/LoadTestAnalysis.hpp"
#include "load/ArrivalTimetable.hpp"

using nlohmann::json;
using pullsched::rig::ArrivalTimetable;
using pullsched::rig::measuredArrivals;
using namespace std::chrono_literals;

namespace {

using rigtest::usOf;
using RigRun = rigtest::JsonRun;

}  // namespace

TEST(OpenMode, RateDurationWarmupAndArrivalFollowTheTimetable) {
    struct Case {
        const char* args;
        ArrivalTimetable tt;
        std::chrono::nanoseconds warmup;
    };
    const Case cases[] = {
        {"--rate=800 --duration=400ms --warmup=100ms", ArrivalTimetable::constant(800, 400ms),
         100ms},
        {"--rate=1.5k/s --duration=300ms --warmup=0s", ArrivalTimetable::constant(1500, 300ms),
         0ms},
        {"--rate=800 --duration=400ms --warmup=100ms --arrival=poisson --sample-seed=7",
         ArrivalTimetable::poisson(800, 400ms, 7), 100ms},
        {"--rate=800 --duration=400ms --warmup=100ms --arrival=poisson --sample-seed=8",
         ArrivalTimetable::poisson(800, 400ms, 8), 100ms},
    };
    int i = 0;
    for (const Case& c : cases) {
        // --limit=1s: a deadline window of 100 s, so every job runs and is measured.
        const RigRun run =
            rigtest::rigJsonIn("openclosed", "tt" + std::to_string(i++),
                               std::string("--mode=open --load=100us --limit=1s ") + c.args);
        const json& res = run.j.at("result");
        EXPECT_EQ(res.at("jobs_posted").get<std::size_t>(), c.tt.size()) << c.args;
        EXPECT_EQ(res.at("jobs_measured").get<std::uint64_t>(), measuredArrivals(c.tt, c.warmup))
            << c.args;
        EXPECT_EQ(res.at("lateness").at("count"), res.at("jobs_measured")) << c.args;
        EXPECT_EQ(res.at("jobs_expired"), 0) << c.args;
        EXPECT_EQ(res.at("jobs_completed"), res.at("jobs_posted")) << c.args;
        const json& cfg = run.j.at("configuration");
        EXPECT_DOUBLE_EQ(cfg.at("rate_per_s").get<double>(), c.tt.rate());
        EXPECT_DOUBLE_EQ(cfg.at("duration_us").get<double>(), usOf(c.tt.duration()));
        EXPECT_DOUBLE_EQ(cfg.at("warmup_us").get<double>(), usOf(c.warmup));
        EXPECT_EQ(cfg.at("arrival"), std::string(c.args).find("poisson") != std::string::npos
                                         ? "poisson"
                                         : "constant");
    }
}

TEST(OpenMode, DeadlineWindowIsAppliedAndShown) {
    // A tiny window on a saturated rate (capacity 2 workers / 500 µs = 4k/s): drops.
    const RigRun tiny = rigtest::rigJsonIn("openclosed", "tiny",
                                           "--mode=open --rate=20k --duration=300ms --warmup=50ms "
                                           "--load=500us --deadline-window=7us");
    EXPECT_DOUBLE_EQ(tiny.j.at("configuration").at("deadline_window_us").get<double>(), 7.0);
    EXPECT_DOUBLE_EQ(tiny.j.at("result").at("deadline_window_us").get<double>(), 7.0);
    EXPECT_GT(tiny.j.at("result").at("jobs_expired").get<std::uint64_t>(), 0u);
    EXPECT_EQ(tiny.r.code, 0);  // overload is a measurement
    EXPECT_NE(tiny.j.at("verdict").get<std::string>().find("dropped at their deadline"),
              std::string::npos);
    // Unset, it is 100 x --limit, and the configuration says so.
    const RigRun byLimit = rigtest::rigJsonIn(
        "openclosed", "bylimit",
        "--mode=open --rate=500 --duration=200ms --warmup=0s --load=100us --limit=3ms");
    EXPECT_DOUBLE_EQ(byLimit.j.at("configuration").at("limit_us").get<double>(), 3000.0);
    EXPECT_DOUBLE_EQ(byLimit.j.at("configuration").at("deadline_window_us").get<double>(),
                     300'000.0);
    // 0s: no deadlines, nothing dropped however late.
    const RigRun none = rigtest::rigJsonIn("openclosed", "none",
                                           "--mode=open --rate=8k --duration=200ms --warmup=0s "
                                           "--load=100us --deadline-window=0s");
    EXPECT_EQ(none.j.at("result").at("jobs_expired"), 0);
    // The text names the window used.
    const auto dir = rigtest::scratch("openclosed", "text");
    const auto text = rigtest::rig(
        "--mode=open --rate=500 --duration=200ms --warmup=0s --load=100us "
        "--deadline-window=7ms --quiet --no-render",
        dir);
    EXPECT_NE(text.out.find("Deadline window 7.00ms"), std::string::npos) << text.out;
}

TEST(OpenMode, LimitCountsLateStarts) {
    const RigRun strict =
        rigtest::rigJsonIn("openclosed", "strict",
                           "--mode=open --rate=1k --duration=300ms --warmup=0s --load=100us "
                           "--limit=1us --deadline-window=1s");
    const RigRun lax = rigtest::rigJsonIn("openclosed", "lax",
                                          "--mode=open --rate=1k --duration=300ms --warmup=0s "
                                          "--load=100us --limit=10s --deadline-window=1s");
    EXPECT_GT(strict.j.at("result").at("late_starts").get<std::uint64_t>(), 0u);
    EXPECT_EQ(lax.j.at("result").at("late_starts"), 0);
    EXPECT_DOUBLE_EQ(strict.j.at("configuration").at("limit_us").get<double>(), 1.0);
}

TEST(OpenMode, ExecutionOptionsFilesAndSupportedPercentiles) {
    const auto dir = rigtest::scratch("openclosed", "exec");
    // 30 jobs: p50 and p90 are supported, p99 (needs 100) and p99.9 are not.
    const auto r = rigtest::rig(
        "--mode=open --rate=100 --duration=300ms --warmup=0s "
        "--workers=3 --load=200us --load-kind=memory --limit=1s "
        "--quiet --no-render --name=o",
        dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const json j = json::parse(rigtest::slurp(rigtest::latestRun(dir / "out") / "o.json"));
    EXPECT_EQ(j.at("configuration").at("workers"), 3);
    EXPECT_EQ(j.at("result").at("workers"), 3);
    EXPECT_DOUBLE_EQ(j.at("configuration").at("load_us").get<double>(), 200.0);
    EXPECT_EQ(j.at("configuration").at("load_kind"), "memory");
    EXPECT_EQ(j.at("calibration").at("kind"), "memory");
    EXPECT_NE(r.out.find("3 workers, jobs of 200µs"), std::string::npos) << r.out;
    const json& late = j.at("result").at("lateness");
    EXPECT_EQ(late.at("count"), 30);
    EXPECT_TRUE(late.at("p90_us").is_number());
    EXPECT_TRUE(late.at("p99_us").is_null());
    EXPECT_TRUE(late.at("p99_9_us").is_null());
    const auto line = r.out.find("lateness p50");
    ASSERT_NE(line, std::string::npos) << r.out;
    const std::string latenessLine = r.out.substr(line, r.out.find('\n', line) - line);
    EXPECT_EQ(latenessLine.find("p99"), std::string::npos) << latenessLine;  // not printed
    EXPECT_NE(latenessLine.find("p90"), std::string::npos) << latenessLine;
    for (const char* f :
         {"o.csv", "o-latency.csv", "o-summary.csv", "o.gp", "o-latency.gp", "o-lateness.hgrm"})
        EXPECT_TRUE(rigtest::fs::exists(rigtest::latestRun(dir / "out") / f)) << f;
    const std::string hgrm = rigtest::slurp(rigtest::latestRun(dir / "out") / "o-lateness.hgrm");
    EXPECT_EQ(hgrm.rfind("       Value     Percentile TotalCount 1/(1-Percentile)\n\n", 0), 0u);
    EXPECT_NE(hgrm.find("Total count    =           30]"), std::string::npos) << hgrm;
    const std::string csv = rigtest::slurp(rigtest::latestRun(dir / "out") / "o.csv");
    EXPECT_NE(csv.find("\"rss MiB\""), std::string::npos);
}

TEST(OpenMode, BadCombinationsAreUsageErrors) {
    const auto dir = rigtest::scratch("openclosed", "bad");
    for (const char* args :
         {"--mode=open --warmup=1s --duration=1s", "--mode=open --rate=0",
          "--mode=open --arrival=bursty", "--mode=open --rate=10M --duration=1h",
          "--mode=open --users=3", "--mode=closed --rate=100", "--mode=closed --think=11s"}) {
        const auto r = rigtest::rig(args, dir);
        EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
        EXPECT_FALSE(rigtest::fs::exists(dir / "out")) << args;
    }
}

TEST(ClosedMode, UsersThinkAndWarmupShapeTheRun) {
    // Each user's next job starts --think after the previous one ended: within 300 ms a
    // user posts at most 300/100 + 1 = 4 jobs, and at least its first one.
    const RigRun thinking = rigtest::rigJsonIn("openclosed", "think",
                                               "--mode=closed --users=5 --think=100ms "
                                               "--duration=300ms --warmup=0s --load=100us");
    const json& c = thinking.j.at("result").at("closed");
    EXPECT_GE(c.at("jobs_posted").get<int>(), 5);
    EXPECT_LE(c.at("jobs_posted").get<int>(), 20);
    EXPECT_EQ(c.at("jobs_measured"), c.at("jobs_posted"));  // no warm-up: every submission measured
    EXPECT_EQ(thinking.j.at("configuration").at("users"), 5);
    EXPECT_EQ(thinking.j.at("result").at("users"), 5);
    EXPECT_DOUBLE_EQ(thinking.j.at("configuration").at("think_us").get<double>(), 100'000.0);

    const RigRun busy = rigtest::rigJsonIn("openclosed", "busy",
                                           "--mode=closed --users=2 --duration=300ms "
                                           "--warmup=100ms --load=100us");
    const json& b = busy.j.at("result").at("closed");
    EXPECT_GT(b.at("jobs_posted").get<int>(), 20);  // no think time
    EXPECT_LT(b.at("jobs_measured").get<int>(),
              b.at("jobs_posted").get<int>());  // warm-up excluded
    EXPECT_EQ(b.at("lateness").at("count"), b.at("jobs_measured"));
    EXPECT_EQ(b.at("jobs_completed"), b.at("jobs_posted"));
    EXPECT_EQ(busy.j.at("configuration").at("users"), 2);
    EXPECT_DOUBLE_EQ(busy.j.at("configuration").at("duration_us").get<double>(), 300'000.0);
}

TEST(ClosedMode, ComparesWithOpenLoadAtTheSameRate) {
    const auto dir = rigtest::scratch("openclosed", "compare");
    const auto r = rigtest::rig(
        "--mode=closed --users=2 --duration=300ms --warmup=100ms "
        "--load=100us --quiet --no-render",
        dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const json j = json::parse(rigtest::slurp(rigtest::latestRun(dir / "out") / "closed.json"));
    const json& res = j.at("result");
    ASSERT_TRUE(res.at("open").is_object()) << res.dump();
    EXPECT_EQ(res.at("open_comparison").at("run"), true);
    const double rate = res.at("closed").at("achieved_rate_per_s").get<double>();
    EXPECT_DOUBLE_EQ(res.at("open").at("offered_rate_per_s").get<double>(), rate);
    EXPECT_EQ(res.at("open").at("jobs_posted").get<std::size_t>(),
              ArrivalTimetable::constant(rate, 300ms).size());
    EXPECT_EQ(res.at("open").at("lateness").at("count"), res.at("open").at("jobs_measured"));
    EXPECT_NE(r.out.find("p99 lateness: closed"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("seed 003"), std::string::npos);
    EXPECT_EQ(r.out.find("coordinated omission"), std::string::npos);
    for (const char* f : {"closed.csv", "closed-latency.csv", "closed-timeseries.csv",
                          "closed-closed.hgrm", "closed-open.hgrm"})
        EXPECT_TRUE(rigtest::fs::exists(rigtest::latestRun(dir / "out") / f)) << f;
}

TEST(ClosedMode, MissingClosedRateSaysWhyThereIsNoComparison) {
    // Every user's first job starts 2 s after its submission, after the 300 ms run:
    // nothing completes in the measured span, so there is no rate to compare at.
    const auto dir = rigtest::scratch("openclosed", "norate");
    const auto r = rigtest::rig(
        "--mode=closed --users=2 --think=2s --duration=300ms "
        "--warmup=100ms --load=100us --quiet --no-render",
        dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const json j = json::parse(rigtest::slurp(rigtest::latestRun(dir / "out") / "closed.json"));
    const json& res = j.at("result");
    EXPECT_TRUE(res.at("open").is_null());
    EXPECT_EQ(res.at("open_comparison").at("run"), false);
    EXPECT_NE(res.at("open_comparison").at("reason").get<std::string>().find("completed no job"),
              std::string::npos);
    // No completion in the span is no measured rate, not 0/s.
    EXPECT_TRUE(res.at("closed").at("achieved_rate_per_s").is_null());
    EXPECT_EQ(res.at("closed").at("completed_in_span"), 0);
    EXPECT_EQ(res.at("closed").at("span_too_short"), true);
    ASSERT_FALSE(j.at("warnings").empty());
    EXPECT_NE(j.at("warnings")[0].get<std::string>().find("open comparison not run"),
              std::string::npos);
    EXPECT_NE(r.out.find("Open comparison not run: the closed run completed no job"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("warning: open comparison not run"), std::string::npos) << r.out;
}

TEST(ClosedMode, ThroughputCountsCompletionsNotSubmissions) {
    // 4 users submit 4 jobs of 300 ms at once; none of them can end within the 50 ms span.
    // Counting submissions made that "80/s"; the span measured no completion at all.
    const RigRun r = rigtest::rigJsonIn("openclosed", "completions",
                                        "--mode=closed --users=4 --workers=2 --load=300ms "
                                        "--duration=50ms --warmup=0s");
    const json& c = r.j.at("result").at("closed");
    EXPECT_EQ(c.at("jobs_measured"), 4) << "the four submissions in the span";
    EXPECT_EQ(c.at("jobs_completed"), 4) << "all four ran after the span";
    EXPECT_EQ(c.at("completed_in_span"), 0);
    EXPECT_TRUE(c.at("achieved_rate_per_s").is_null()) << c.dump();
    EXPECT_EQ(c.at("span_too_short"), true);
    const std::string verdict = r.j.at("verdict").get<std::string>();
    EXPECT_NE(verdict.find("no throughput, no job completed in the measured span of 50.0ms: "
                           "it was too short for one job"),
              std::string::npos)
        << verdict;
    EXPECT_EQ(r.j.at("result").at("open_comparison").at("run"), false);
}

namespace {

/// Starts a one-minute run of `mode`, waits until its load has started (the progress
/// note), sends SIGINT and returns the exit status and the written envelope.
std::pair<int, json> interrupt(const std::string& mode, const std::string& startNote,
                               std::vector<std::string> args) {
    const auto dir = rigtest::scratch("openclosed", "stop-" + mode);
    const auto errFile = dir / "stderr.txt";
    args.insert(args.begin(),
                {"--mode=" + mode, "--duration=1min", "--load=100us", "--no-render", "--name=r"});
    const pid_t pid = rigtest::startRig(args, dir);
    const bool started = rigtest::waitForText(errFile, startNote);
    std::this_thread::sleep_for(300ms);
    ::kill(pid, SIGINT);
    int status = 0;
    ::waitpid(pid, &status, 0);
    EXPECT_TRUE(started) << rigtest::slurp(errFile);
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    json j;
    // through the link: a run stopped before it wrote anything leaves none
    if (rigtest::fs::exists(dir / "out" / "latest" / "r.json"))
        j = json::parse(rigtest::slurp(dir / "out" / "latest" / "r.json"));
    return {code, j};
}

}  // namespace

TEST(OpenMode, SigintGivesThePartialResult) {
    const auto [code, j] = interrupt("open", "open load:", {"--rate=1k"});
    EXPECT_EQ(code, 130);
    ASSERT_TRUE(j.is_object());
    EXPECT_EQ(j.at("partial"), true);
    EXPECT_EQ(j.at("result").at("interrupted"), true);
    EXPECT_LT(j.at("result").at("jobs_posted").get<int>(), 60'000);  // stopped early
    EXPECT_EQ(j.at("verdict").get<std::string>().rfind("interrupted", 0), 0u);
}

TEST(ClosedMode, SigintGivesThePartialResultWithoutComparison) {
    // Think time 5 s: the stop must not wait for the users' next jobs.
    const auto [code, j] = interrupt("closed", "closed load:", {"--users=2", "--think=5s"});
    EXPECT_EQ(code, 130);
    ASSERT_TRUE(j.is_object());
    EXPECT_EQ(j.at("partial"), true);
    EXPECT_EQ(j.at("result").at("closed").at("interrupted"), true);
    EXPECT_TRUE(j.at("result").at("open").is_null());
    EXPECT_NE(
        j.at("result").at("open_comparison").at("reason").get<std::string>().find("interrupted"),
        std::string::npos);
}
