// SIGINT inside one long graph run, for every mode that runs graphs on a schedule: the
// run is cut short, what has not started is cancelled, and the rig ends with exit 130
// and a result marked partial. The wait for the end is bounded only as a hang guard (a
// broken stop would otherwise wait for a schedule of minutes); nothing here is timed.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "RigTestSupport.hpp"

namespace {

using namespace std::chrono_literals;
namespace fs = rigtest::fs;

struct Stopped {
    bool ended = false;  ///< the process ended within the hang guard
    int code = -1;
    nlohmann::json envelope;
    std::string out, err;
    std::vector<std::string> files;  ///< the names written to the output folder
};

/// Starts the rig with `args` (and --name=r), waits until it has calibrated its jobs,
/// gives it `inside` to be well inside its first long graph run (or its generation),
/// sends SIGINT and waits for it to end.
Stopped interruptInsideARun(const std::string& name, std::vector<std::string> args,
                            std::chrono::milliseconds inside = 2000ms) {
    const fs::path dir = rigtest::scratch("stop-inside", name);
    args.push_back("--no-render");
    args.push_back("--name=r");
    const pid_t pid = rigtest::startRig(args, dir);
    Stopped s;
    rigtest::waitForText(dir / "stderr.txt", "calibrated");  // a minute at most
    std::this_thread::sleep_for(inside);
    ::kill(pid, SIGINT);
    int status = 0;
    for (int i = 0; i < 400 && !s.ended; ++i) {  // hang guard: 20 s
        s.ended = ::waitpid(pid, &status, WNOHANG) == pid;
        if (!s.ended) std::this_thread::sleep_for(50ms);
    }
    if (!s.ended) {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, &status, 0);
    }
    s.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    s.out = rigtest::slurp(dir / "stdout.txt");
    s.err = rigtest::slurp(dir / "stderr.txt");
    // through the link: a stop may come before anything is written
    const fs::path run = dir / "out" / "latest";
    if (fs::exists(run / "r.json")) s.envelope = rigtest::fileEnvelope(run / "r.json");
    if (fs::exists(run))
        for (const auto& e : fs::directory_iterator(run))
            s.files.push_back(e.path().filename().string());
    fs::remove_all(dir);
    return s;
}

void expectPartial(const Stopped& s) {
    EXPECT_TRUE(s.ended) << "still running 20 s after SIGINT\n" << s.err;
    EXPECT_EQ(s.code, 130) << s.err;
    ASSERT_TRUE(s.envelope.is_object()) << s.err;
    EXPECT_EQ(s.envelope.at("partial"), true);
    EXPECT_EQ(s.envelope.at("exit_status"), 130);
    EXPECT_TRUE(s.envelope.at("failures").empty()) << s.envelope.at("failures");
}

}  // namespace

// Seven patterns of 100 000 nodes at 1 ms per level: the first one alone plans minutes.
TEST(StopInsideARun, Pipeclean) {
    expectPartial(interruptInsideARun("pipeclean", {"--mode=pipeclean", "--nodes=100000"}));
}

// One load peak of 99 999 jobs of 500 µs: half a minute of work on two workers.
TEST(StopInsideARun, ParamRange) {
    expectPartial(interruptInsideARun(
        "param-range", {"--mode=param-range", "--from=99999", "--to=100000", "--points=2"}));
}

// Jobs of 2 ms: the first probe's runs plan about a minute.
TEST(StopInsideARun, BreakingPoint) {
    expectPartial(interruptInsideARun(
        "breaking-point", {"--mode=breaking-point", "--nodes=100000", "--reps=2", "--load=2ms"}));
}

// One rep planned for 100 s. No rep ran to its end, so the text counts none of its jobs
// as "0 of 0" beside the thousands that ran before the stop.
TEST(StopInsideARun, Run) {
    const Stopped s =
        interruptInsideARun("run", {"--mode=run", "--nodes=100000", "--schedule=default",
                                    "--level=1ms", "--life-window=0s", "--backend-warmup=0"});
    expectPartial(s);
    EXPECT_NE(s.out.find("interrupted rep 1: "), std::string::npos) << s.out;
    EXPECT_NE(s.out.find("jobs             no rep ran to its end"), std::string::npos) << s.out;
    EXPECT_EQ(s.out.find(" 0 of 0 "), std::string::npos) << s.out;
    EXPECT_EQ(s.out.find("nothing ran"), std::string::npos) << s.out;
}

// A stop while a graph of three million nodes is still being prepared: nothing more is
// done with it, not even the seconds-long simulation of the ideal run.
TEST(StopInsideARun, BreakingPointWhilePreparingALargeGraph) {
    const Stopped s = interruptInsideARun(
        "breaking-point-large", {"--mode=breaking-point", "--nodes=3000000", "--reps=2"}, 300ms);
    expectPartial(s);
    const bool nothingMeasured =
        s.out.find("interrupted before anything was measured") != std::string::npos;
    const bool notSimulated = s.out.find("not simulated") != std::string::npos;
    EXPECT_TRUE(nothingMeasured || notSimulated) << s.out;
}

// A chain of 100 000 jobs of 1 ms: one run of over a minute, on pullsched and on a
// backend of the rig's own (its jobs wait in the job for their start).
TEST(StopInsideARun, Granularity) {
    expectPartial(interruptInsideARun("granularity", {"--mode=granularity", "--graphs=chain:100000",
                                                      "--min-size=1ms", "--max-run-time=10min"}));
}

TEST(StopInsideARun, GranularityOnThePool) {
    expectPartial(interruptInsideARun(
        "granularity-pool", {"--mode=granularity", "--graphs=chain:100000", "--min-size=1ms",
                             "--max-run-time=10min", "--backends=pool"}));
}

TEST(StopInsideARun, RunOnThePool) {
    expectPartial(
        interruptInsideARun("run-pool", {"--mode=run", "--nodes=100000", "--schedule=default",
                                         "--level=1ms", "--life-window=0s", "--backends=pool"}));
}

// A stop in the run of a graph of 150 000 nodes (SIGINT after the graph is made): the rig
// writes what it measured (envelope, per-rep table) and leaves out the files that grow with
// the graph, saying so; it does not spend the stop on them.
TEST(StopInsideARun, RunOfALargeGraphLeavesOutItsPerJobFiles) {
    const Stopped s = interruptInsideARun(
        "run-large",
        {"--mode=run", "--nodes=150000", "--schedule=default", "--level=1ms", "--life-window=0s"});
    expectPartial(s);
    const auto written = [&](const std::string& f) {
        return std::find(s.files.begin(), s.files.end(), f) != s.files.end();
    };
    for (const char* f : {"r.csv", "r.gp", "r.dot", "r-concurrency.csv", "r-concurrency.gp"})
        EXPECT_FALSE(written(f)) << f << " written after the stop\n" << s.out;
    EXPECT_TRUE(written("r.json"));
    ASSERT_TRUE(s.envelope.is_object());
    // (a stop before the first rep's preparation ends has measured nothing at all)
    if (s.envelope.at("verdict") != "interrupted before anything was measured") {
        EXPECT_TRUE(written("r-reps.csv"));
        const std::string warnings = s.envelope.at("warnings").dump();
        EXPECT_NE(warnings.find("not written: the run was stopped"), std::string::npos) << warnings;
    }
}
