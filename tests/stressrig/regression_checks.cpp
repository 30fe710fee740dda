// --check on the built binary, mode by mode: a condition the run satisfies exits 0, one it
// cannot satisfy exits 4 with the result written and the check table in the report, the
// envelope and the page; a bad condition exits 2 with one line before anything runs.
// Satisfiable conditions are loose enough for a busy machine (the default --check-busy=warn
// lets the outcomes stand), unsatisfiable ones impossible.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "RigTestSupport.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using rigtest::rig;

namespace {

const std::string kQuiet = " --quiet --no-render --out=out";

/// Runs `args --check='pass'` and `args --check='fail'` in fresh directories: exit 0, then
/// exit 4 with every file written and the table naming the failed condition.
void expectPassThenFail(const std::string& name, const std::string& args, const std::string& pass,
                        const std::string& fail) {
    const fs::path a = rigtest::scratch("checks", name + "-pass");
    const rigtest::Result ok = rig(args + kQuiet + " --check='" + pass + "'", a);
    EXPECT_EQ(ok.code, 0) << args << " --check=" << pass << "\n" << ok.out << ok.err;
    EXPECT_NE(ok.out.find("Checks: 0 of"), std::string::npos) << ok.out;
    const fs::path b = rigtest::scratch("checks", name + "-fail");
    const rigtest::Result bad = rig(args + kQuiet + " --check='" + fail + "'", b);
    EXPECT_EQ(bad.code, 4) << args << " --check=" << fail << "\n" << bad.out << bad.err;
    EXPECT_NE(bad.out.find("(exit 4)"), std::string::npos) << bad.out;
    EXPECT_NE(bad.out.find(fail.substr(0, fail.find(','))), std::string::npos) << bad.out;
    EXPECT_NE(bad.out.find("Results in"), std::string::npos) << bad.out;  // written
    fs::remove_all(a);
    fs::remove_all(b);
}

const std::string kRun = "--mode=run --pattern=burst --nodes=16 --load=20us --workers=2 --reps=2";

}  // namespace

TEST(Checks, Run) {
    expectPassThenFail("run", kRun, "lateness_max<=1h,jobs_expired>=0,past_deadline>=0",
                       "lateness_max>1h");
}

// Beside pool, which has no deadlines, no job expires: each backend has past_deadline
// instead of jobs_expired, counted against the default life window. Of 16 nodes x 2
// reps at most 32 jobs end past it, whatever the load, and never more.
TEST(Checks, RunWithBackendsChecksPastDeadline) {
    expectPassThenFail("run-backends", kRun + " --backends=pullsched,pool",
                       "past_deadline<=32,past_deadline[pullsched]>=0",
                       "past_deadline[pullsched]>32");
}

TEST(Checks, Topology) {
    expectPassThenFail("topology", "--mode=topology --pattern=burst --nodes=16",
                       "nodes==16,critical_path<=1s", "nodes!=16");
}

TEST(Checks, BreakingPoint) {
    expectPassThenFail("breaking-point",
                       "--mode=breaking-point --nodes=8 --reps=2 --load=100us --workers=2",
                       "breaking_stress>0", "breaking_stress>1000000x");
}

TEST(Checks, Open) {
    expectPassThenFail("open",
                       "--mode=open --rate=500 --duration=200ms --warmup=50ms --load=50us "
                       "--workers=2",
                       "throughput>0/s,drop_rate<=100%,lateness_max[pullsched]<=1h",
                       "throughput>=10M/s");
}

TEST(Checks, Closed) {
    expectPassThenFail("closed",
                       "--mode=closed --users=2 --duration=300ms --warmup=100ms --load=100us",
                       "throughput[closed]>0", "throughput[closed]>=10M/s");
}

TEST(Checks, Sweep) {
    expectPassThenFail("sweep",
                       "--mode=sweep --workers=1,2 --from=200/s --to=400/s --step=200/s "
                       "--hold=150ms --warmup=20ms --load=100us",
                       "steps_run[workers=2]>=1", "steps_run>=100");
}

TEST(Checks, Granularity) {
    expectPassThenFail("granularity",
                       "--mode=granularity --graphs=isolated:32 --min-size=1us --max-size=4us "
                       "--step=2 --reps=2 --workers=2",
                       "runs_verified>=1", "metg[pullsched]<1ns");
}

TEST(Checks, Soak) {
    expectPassThenFail("soak",
                       "--mode=soak --rate=500 --duration=800ms --interval=100ms --load=100us "
                       "--warmup=0s",
                       "throughput>0", "throughput>=10M/s");
}

TEST(Checks, Headroom) {
    expectPassThenFail("headroom",
                       "--mode=headroom --max-copies=2 --copy-work=20ms --workers=1 --load=200us "
                       "--hold=100ms --warmup=10ms",
                       "capacity>0", "capacity>=100M/s");
}

TEST(Checks, ParamRange) {
    expectPassThenFail("param-range",
                       "--mode=param-range --pattern=isolated --from=4 --to=12 --points=3 "
                       "--load=100us --workers=2",
                       "gradient<1h", "gradient>1h");
}

TEST(Checks, Pipeclean) {
    expectPassThenFail("pipeclean", "--mode=pipeclean", "failures==0", "failures>0");
}

/// With several backends each one is held to the same condition, or the one selected.
TEST(Checks, EveryBackendIsChecked) {
    const fs::path dir = rigtest::scratch("checks", "backends");
    const rigtest::JsonRun run =
        rigtest::rigJson(kRun +
                             " --backends=pullsched,pool --out=out "
                             "--check='lateness_max<=1h,lateness_mean[pool]<=1h'",
                         dir, 0);
    ASSERT_TRUE(run.j.contains("checks")) << run.r.err;
    const json& rows = run.j["checks"]["conditions"];
    ASSERT_EQ(rows.size(), 3u) << rows.dump();
    EXPECT_EQ(rows[0]["where"], "pool");  // backends in the result's (sorted) order
    EXPECT_EQ(rows[1]["where"], "pullsched");
    EXPECT_EQ(rows[2]["condition"], "lateness_mean[pool]<=1h");
    EXPECT_EQ(rows[2]["where"], "pool");
    fs::remove_all(dir);
}

TEST(Checks, Compare) {
    const fs::path dir = rigtest::scratch("checks", "compare-input");
    ASSERT_EQ(rig(kRun + " --quiet --no-render --out=a", dir).code, 0);
    expectPassThenFail("compare", "compare " + (dir / "a").string() + " " + (dir / "a").string(),
                       "beyond_noise>=0", "within_noise>1000");
    fs::remove_all(dir);
}

/// The envelope carries the table, the page shows it, and --json keeps stdout to the envelope.
TEST(Checks, EnvelopeAndPageHoldTheTable) {
    const fs::path dir = rigtest::scratch("checks", "envelope");
    const rigtest::JsonRun run = rigtest::rigJson(
        "--mode=topology --pattern=burst --nodes=16 --out=out "
        "--check='nodes==16,edges>1000'",
        dir, 4);
    ASSERT_TRUE(run.j.contains("checks")) << run.r.out;
    EXPECT_EQ(run.j["exit_status"], 4);
    EXPECT_EQ(run.j["checks"]["passed"], false);
    EXPECT_EQ(run.j["checks"]["busy"], false);  // topology measures nothing
    ASSERT_EQ(run.j["checks"]["conditions"].size(), 2u);
    EXPECT_EQ(run.j["checks"]["conditions"][0]["outcome"], "pass");
    EXPECT_EQ(run.j["checks"]["conditions"][1]["outcome"], "fail");
    EXPECT_EQ(run.j["checks"]["conditions"][1]["value"], 16);
    EXPECT_NE(run.r.err.find("Checks: 1 of 2 fails (exit 4)"), std::string::npos) << run.r.err;
    const std::string page =
        rigtest::slurp(rigtest::latestRun(dir / "out") / "topology-burst-16.html");
    EXPECT_NE(page.find("<h2>Checks</h2>"), std::string::npos);
    EXPECT_NE(page.find("<code>edges&gt;1000</code>"), std::string::npos);
    EXPECT_NE(page.find("<th>nodes</th><td class=\"num\">16</td>"), std::string::npos);
    fs::remove_all(dir);
}

TEST(Checks, AFileOfChecksIsRead) {
    const fs::path dir = rigtest::scratch("checks", "file");
    std::ofstream(dir / "gate.yaml") << "checks:\n  - nodes == 16   # the preset\n"
                                        "  - 'levels>=1'\n";
    const rigtest::Result r =
        rig("--mode=topology --pattern=burst --nodes=16 --check=@gate.yaml" + kQuiet, dir);
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("levels>=1"), std::string::npos) << r.out;
    fs::remove_all(dir);
}

/// A check file is read like --rules and --stages files: a directory, a device, a FIFO or a
/// file over the bound is refused with one line before anything runs. Fatal assertions:
/// without the refusal, /dev/zero (last) would be read until memory runs out.
TEST(Checks, ACheckFileIsARegularFileOfBoundedSize) {
    const fs::path dir = rigtest::scratch("checks", "argument-file");
    {
        std::ofstream big(dir / "big.txt");
        for (int i = 0; i < 8000; ++i)  // 72 KB of conditions the run would meet
            big << "nodes>=1\n";
    }
    ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
    const std::string topo = "--mode=topology --pattern=burst --nodes=16 --out=out ";
    // one line, exit 2, nothing written; a failure ends the test (see above)
    auto refused = [&](const rigtest::Result& r, const std::string& file,
                       const std::string& why) -> ::testing::AssertionResult {
        const std::string line = "stressrig: invalid --check=@" + file + ": " + why + "\n";
        if (r.code != 2 || r.err != line || !r.out.empty() || fs::exists(dir / "out"))
            return ::testing::AssertionFailure()
                   << "--check=@" << file << ": exit " << r.code << ", stderr "
                   << r.err.substr(0, 300) << ", " << r.out.size() << " bytes on stdout";
        return ::testing::AssertionSuccess();
    };
    ASSERT_TRUE(refused(rig(topo + "--check=@.", dir), ".", "is a directory, not a check file"));
    ASSERT_TRUE(refused(rig(topo + "--check=@/dev/null", dir), "/dev/null",
                        "is not a regular file (a character device); a check file must be one"));
    ASSERT_TRUE(refused(rig(topo + "--check=@big.txt", dir), "big.txt",
                        "larger than the 64 KiB a check file may hold"));
    // a FIFO must not block the open; should it, the test opens the writing end to end it
    const pid_t pid = rigtest::startRig({"--mode=topology", "--out=out", "--check=@fifo"}, dir);
    int status = 0;
    bool ended = false;
    for (int look = 0; look < 200 && !ended; ++look) {
        ended = ::waitpid(pid, &status, WNOHANG) == pid;
        if (!ended) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (!ended) {
        ADD_FAILURE() << "--check=@fifo blocked";
        ::close(::open((dir / "fifo").c_str(), O_WRONLY | O_NONBLOCK));
        ::waitpid(pid, &status, 0);
    }
    const rigtest::Result fifo{WIFEXITED(status) ? WEXITSTATUS(status) : -1,
                               rigtest::slurp(dir / "stdout.txt"),
                               rigtest::slurp(dir / "stderr.txt")};
    fs::remove(dir / "stdout.txt");
    fs::remove(dir / "stderr.txt");
    ASSERT_TRUE(refused(fifo, "fifo", "is not a regular file (a FIFO); a check file must be one"));
    ASSERT_TRUE(refused(rig(topo + "--check=@/dev/zero", dir), "/dev/zero",
                        "is not a regular file (a character device); a check file must be one"));
    EXPECT_TRUE(refused(rig(topo + "--check=@no-such-file", dir), "no-such-file",
                        "cannot read the file: No such file or directory"));
    const rigtest::Result none = rig(topo + "--check=@", dir);
    EXPECT_EQ(none.code, 2);
    EXPECT_EQ(none.err, "stressrig: invalid --check=@: no file name after '@'\n");
    fs::remove_all(dir);
}

/// `F*baseline` compares with the newest stored result of the same mode: the newest run of
/// an --out folder, a run's folder or a manifest.
TEST(Checks, ABaselineConditionReadsTheStoredResult) {
    const fs::path dir = rigtest::scratch("checks", "baseline");
    const std::string topo = "--mode=topology --pattern=burst --nodes=16";
    ASSERT_EQ(rig(topo + " --quiet --no-render --out=base", dir).code, 0);
    const rigtest::Result same =
        rig(topo + " --check='nodes<=1*baseline' --check-baseline=base" + kQuiet, dir);
    EXPECT_EQ(same.code, 0) << same.err;
    EXPECT_NE(same.out.find("16 (baseline 16)"), std::string::npos) << same.out;
    const rigtest::Result half =
        rig(topo + " --check='nodes<0.5*baseline' --check-baseline=base" + kQuiet, dir);
    EXPECT_EQ(half.code, 4) << half.err;
    // a run's folder, or its manifest, is a baseline as well as the --out folder holding it
    const std::string folder = rigtest::latestRun(dir / "base").string();
    for (const std::string& base : {folder, folder + "/topology-burst-16.json"}) {
        const rigtest::Result r = rig(
            topo + " --check='nodes<0.5*baseline' --check-baseline='" + base + "'" + kQuiet, dir);
        EXPECT_EQ(r.code, 4) << base << "\n" << r.err;
        EXPECT_NE(r.out.find("16 (baseline 16)"), std::string::npos) << base << "\n" << r.out;
    }
    const rigtest::Result other =
        rig("--mode=run --check='efficiency>=baseline' --check-baseline=base --out=x", dir);
    EXPECT_EQ(other.code, 2);
    EXPECT_EQ(other.err,
              "stressrig: invalid --check-baseline=base: no result of --mode=run in "
              "it\n");
    EXPECT_FALSE(fs::exists(dir / "x"));
    fs::remove_all(dir);
}

/// Each mode refuses what it does not produce, a wrong unit and an unknown figure with one
/// line and exit 2, before anything runs or is written.
TEST(Checks, BadConditionsExit2WithNothingWritten) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"--mode=run", "metg<=1us"},
        {"--mode=topology", "lateness_p99<=50us"},
        {"--mode=breaking-point", "efficiency>=0.9"},
        {"--mode=open", "breaking_to_ideal>=0.95"},
        {"--mode=closed", "nodes==1"},
        {"--mode=sweep", "lateness_p99<=1ms"},
        {"--mode=granularity", "throughput>1k/s"},
        {"--mode=soak", "metg<1us"},
        {"--mode=headroom", "lateness_p99<1ms"},
        {"--mode=param-range", "nodes==3"},
        {"--mode=pipeclean", "efficiency>0"},
        {"--mode=run", "lateness_p99<=50"},
        {"--mode=run", "efficiency>=5us"},
        {"--mode=run", "latency<1ms"},
        // pool has no deadlines: beside it no job expires (past_deadline instead)
        {"--mode=run --backends=pullsched,pool", "jobs_expired==0"},
        {"--mode=soak", "rss_trend<1MiB"},
        // a selector that names nothing the run has, and thresholds no value can meet (the
        // runs are short, should one start)
        {kRun, "runtime[nosuch]<=1s"},
        {kRun, "runtime[workers=2]<=1s"},
        {"--mode=topology --nodes=16", "nodes[burst]==16"},
        {"--mode=sweep --workers=1,2 --from=200/s --to=200/s --hold=50ms --warmup=0s",
         "steps_run[workers=4]>=1"},
        {kRun, "runtime<=-1ms"},
        {kRun, "jobs_expired<=-1"},
        {kRun, "efficiency<0"},
        {"--mode=open --rate=500 --duration=100ms --warmup=0s", "drop_rate>100%"},
        // the ratio to oneTBB needs tbb among the backends; shapes and worker counts as given
        {"--mode=spawn --shapes=fib:5 --reps=1 --workers=1", "vs_tbb<=1"},
        {"--mode=spawn --shapes=fib:5 --reps=1 --workers=1 --backends=pullsched,pool",
         "vs_tbb[pool]<=2"},
        {"--mode=spawn --shapes=fib:5 --reps=1 --workers=1", "time_per_call[fib-99]<=1s"},
        {"--mode=spawn --shapes=fib:5 --reps=1 --workers=1", "time_per_call[fib-5/tbb]<=1s"},
        {"--mode=spawn --shapes=fib:5 --reps=1 --workers=1", "speed_up[workers=2]>=1"},
    };
    for (const auto& [mode, check] : cases) {
        const fs::path dir = rigtest::scratch("checks", "bad");
        const rigtest::Result r = rig(mode + " --check='" + check + "' --out=out", dir);
        EXPECT_EQ(r.code, 2) << mode << " " << check << "\n" << r.err;
        EXPECT_EQ(r.err.rfind("stressrig: invalid --check '" + check + "': ", 0), 0u) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
        EXPECT_FALSE(fs::exists(dir / "out")) << mode << " " << check;
        fs::remove_all(dir);
    }
}

// The refusal of jobs_expired beside a backend without deadlines names that backend and
// the figure they do have.
TEST(Checks, JobsExpiredBesideABackendWithoutDeadlinesPointsToPastDeadline) {
    const fs::path dir = rigtest::scratch("checks", "misses");
    const rigtest::Result r =
        rig("--mode=run --backends=pullsched,pool --check='jobs_expired<=5' --out=out", dir);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("no job expires"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("past_deadline[pullsched]<=5"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "out"));
    // alone, both figures are there
    const rigtest::Result help = rig("--mode=run --help", dir);
    EXPECT_NE(help.out.find("  jobs_expired            count"), std::string::npos) << help.out;
    EXPECT_NE(help.out.find("  past_deadline "), std::string::npos) << help.out;
    EXPECT_EQ(help.out.find("refused here"), std::string::npos) << help.out;
    // the help beside pool says so, with the reason
    const rigtest::Result compared = rig("--mode=run --backends=pullsched,pool --help", dir);
    EXPECT_EQ(compared.code, 0);
    EXPECT_EQ(compared.out.find("  jobs_expired            count"), std::string::npos)
        << compared.out;
    EXPECT_NE(compared.out.find("  jobs_expired            refused here: pool has no deadlines"),
              std::string::npos)
        << compared.out;
    EXPECT_NE(compared.out.find("  past_deadline "), std::string::npos) << compared.out;
    // a bad option does not keep the help from being shown
    EXPECT_EQ(rig("--mode=run --no-such-option --help", dir).code, 0);
    fs::remove_all(dir);
}

// vs_tbb is oneTBB's ratio: refused, and listed as refused, without tbb among the backends.
TEST(Checks, SpawnHasTheRatioToOneTbbOnlyWithTbb) {
    const fs::path dir = rigtest::scratch("checks", "vs-tbb");
    const rigtest::Result r =
        rig("--mode=spawn --shapes=fib:5 --reps=1 --check='vs_tbb<=1' --out=out", dir);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("needs tbb among --backends"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "out"));
    const rigtest::Result alone = rig("--mode=spawn --backends=pullsched --help", dir);
    EXPECT_EQ(alone.out.find("  vs_tbb                  ratio"), std::string::npos) << alone.out;
    EXPECT_NE(alone.out.find("  vs_tbb                  refused here: "), std::string::npos)
        << alone.out;
    const rigtest::Result with = rig("--mode=spawn --backends=pullsched,tbb --help", dir);
    EXPECT_NE(with.out.find("  vs_tbb                  ratio"), std::string::npos) << with.out;
    EXPECT_EQ(with.out.find("refused here"), std::string::npos) << with.out;
    fs::remove_all(dir);
}

/// A condition read from a file is echoed whole (a NUL byte shown, not cutting the message)
/// and short (a long one elided), on one line.
TEST(Checks, AConditionFromAFileIsEchoedVisiblyAndShort) {
    const fs::path dir = rigtest::scratch("checks", "echo");
    std::ofstream(dir / "nul.txt") << std::string("nodes==1\0x\n", 12);
    const rigtest::Result nul = rig("--mode=topology --nodes=16 --check=@nul.txt --out=out", dir);
    EXPECT_EQ(nul.code, 2);
    EXPECT_EQ(nul.err,
              "stressrig: invalid --check 'nodes==1\\x00x': nodes is a count; '\\x00x' is not "
              "its unit (a plain number)\n");
    std::ofstream(dir / "long.txt") << "checks:\n  - nodes<=1" << std::string(60000, 'x') << "\n";
    const rigtest::Result longer =
        rig("--mode=topology --nodes=16 --check=@long.txt --out=out", dir);
    EXPECT_EQ(longer.code, 2);
    EXPECT_LT(longer.err.size(), 400u) << longer.err.substr(0, 400);
    EXPECT_EQ(longer.err.rfind("stressrig: invalid --check 'nodes<=1xxx", 0), 0u)
        << longer.err.substr(0, 400);
    EXPECT_NE(longer.err.find("x…"), std::string::npos) << longer.err.substr(0, 400);
    EXPECT_EQ(std::count(longer.err.begin(), longer.err.end(), '\n'), 1);
    EXPECT_FALSE(fs::exists(dir / "out"));
    fs::remove_all(dir);
}

TEST(Checks, HelpNamesExitCode4AndTheModesFigures) {
    const fs::path dir = rigtest::scratch("checks", "help");
    const rigtest::Result r = rig("--mode=granularity --help", dir);
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("a condition that fails exits 4"), std::string::npos) << r.out;
    // the exit codes themselves are in the general help
    EXPECT_NE(rig("--help", dir).out.find("4 a --check condition failed"), std::string::npos);
    EXPECT_NE(r.out.find("--check=EXPR[,EXPR...]"), std::string::npos);
    EXPECT_NE(r.out.find("--check-busy=KIND"), std::string::npos);
    EXPECT_NE(r.out.find("Figures --check may name for --mode=granularity"), std::string::npos);
    EXPECT_NE(r.out.find("  metg "), std::string::npos) << r.out;
    fs::remove_all(dir);
}
