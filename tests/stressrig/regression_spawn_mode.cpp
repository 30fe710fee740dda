// End-to-end runs of --mode=spawn on small recursions: every run counted and verified, the
// figures recomputed from the runs the envelope reports (ns per call, the ratio to oneTBB,
// the speed-up), one CSV row per shape, backend and worker count; pullsched's coroutine
// idiom (pullsched-coro) among them, with its idiom in --help and the JSON, and refused by
// the modes that run graphs or streams; bad input exits 2 with nothing written; SIGINT inside a
// long recursion abandons it and says so, and one in the pause before a run (--settle) ends the run
// there. The loop shapes: every index of every run checked, ns per iteration from the
// runs, loop1us's calibration in the envelope. No timing is asserted.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <filesystem>
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

namespace {

/// The runners of --backends=all in this build (RigTestSupport.hpp says why TSan differs):
/// the backends, and pullsched's coroutine idiom right after pullsched.
std::vector<std::string> backends() {
    std::vector<std::string> out = rigtest::runnableBackends();
    out.insert(out.begin() + 1, "pullsched-coro");
    return out;
}

std::string backendsOption() {
    std::string list;
    for (const std::string& b : backends())
        list += (list.empty() ? "" : ",") + b;
    return "--backends=" + list;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/// Help text with every run of blanks and line breaks as one space: wrapped lines read whole.
std::string squeezed(const std::string& text) {
    std::string out;
    for (const char c : text) {
        const bool blank = c == ' ' || c == '\n';
        if (!(blank && (out.empty() || out.back() == ' '))) out += blank ? ' ' : c;
    }
    return out;
}

const json* backendOf(const json& shape, const std::string& name) {
    for (const json& b : shape.at("backends"))
        if (b.at("name") == name) return &b;
    return nullptr;
}

}  // namespace

TEST(SpawnMode, EveryRunIsVerifiedAndTheFiguresComeFromTheRuns) {
    const fs::path dir = rigtest::scratch("spawn", "tiny");
    const Result r =
        rig("--mode=spawn --shapes=fib:12,skynet:2 --workers=1,2 --reps=3 "
            "--backend-warmup=1 --settle=1ms --quiet --no-render --json --out=. " +
                backendsOption(),
            dir);
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    const fs::path run = rigtest::latestRun(dir);  // --out=.
    const json e = rigtest::stdoutEnvelope(r);
    EXPECT_EQ(e.at("mode"), "spawn");
    EXPECT_FALSE(e.at("partial").get<bool>());
    EXPECT_TRUE(e.at("failures").empty());
    EXPECT_TRUE(e.at("calibration").is_null());  // no loop1us: nothing calibrated
    for (const char* f : {"spawn.csv", "spawn-runs.csv", "spawn.json"})
        EXPECT_TRUE(fs::exists(run / f)) << f;

    const json& res = e.at("result");
    EXPECT_EQ(res.at("workers"), json::array({1, 2}));
    ASSERT_EQ(res.at("shapes").size(), 2u);
    const json& fib = res.at("shapes")[0];
    EXPECT_EQ(fib.at("name"), "fib-12");
    EXPECT_EQ(fib.at("calls"), 465u);  // 2 fib(13) - 1
    EXPECT_EQ(fib.at("result"), 144u);
    EXPECT_EQ(res.at("shapes")[1].at("result"), 4950u);  // 0 + 1 + ... + 99
    const bool withTbb = backendOf(fib, "tbb") != nullptr;
    for (const json& shape : res.at("shapes")) {
        ASSERT_EQ(shape.at("backends").size(), backends().size());
        for (std::size_t i = 0; i < backends().size(); ++i)
            EXPECT_EQ(shape.at("backends")[i].at("name"), backends()[i]);
        const double calls = shape.at("calls");
        const json* tbb = backendOf(shape, "tbb");
        for (const json& b : shape.at("backends")) {
            const std::string what =
                shape.at("name").get<std::string>() + " " + b.at("name").get<std::string>();
            EXPECT_FALSE(b.at("idiom").get<std::string>().empty()) << what;
            ASSERT_EQ(b.at("points").size(), 2u) << what;
            std::vector<double> medians;
            for (std::size_t wi = 0; wi < 2; ++wi) {
                const json& p = b.at("points")[wi];
                EXPECT_EQ(p.at("runs"), 4u) << what;  // 1 warm-up + 3
                EXPECT_EQ(p.at("verified"), 4u) << what;
                const std::vector<double> wall = p.at("wall_us");
                ASSERT_EQ(wall.size(), 3u) << what;
                std::vector<double> ns;
                for (const double us : wall)
                    ns.push_back(us * 1e3 / calls);
                const double med = p.at("ns_per_call_median");
                EXPECT_DOUBLE_EQ(med, median(ns)) << what;
                EXPECT_DOUBLE_EQ(p.at("ns_per_call_min").get<double>(),
                                 *std::min_element(ns.begin(), ns.end()))
                    << what;
                medians.push_back(med);
                if (tbb) {
                    const double ref = tbb->at("points")[wi].at("ns_per_call_median");
                    EXPECT_DOUBLE_EQ(p.at("vs_reference").get<double>(), med / ref) << what;
                } else {
                    EXPECT_TRUE(p.at("vs_reference").is_null()) << what;
                }
            }
            EXPECT_DOUBLE_EQ(b.at("points")[0].at("speed_up").get<double>(), 1.0) << what;
            EXPECT_DOUBLE_EQ(b.at("points")[1].at("speed_up").get<double>(),
                             medians[0] / medians[1])
                << what;
        }
    }
    const CsvTable points = CsvTable::readFile(run / "spawn.csv");
    EXPECT_EQ(points.rowCount(), 2 * backends().size() * 2);
    EXPECT_EQ(points.hasColumn("vs tbb"), true);
    const CsvTable runs = CsvTable::readFile(run / "spawn-runs.csv");
    EXPECT_EQ(runs.rowCount(), 2 * backends().size() * 2 * 3);
    EXPECT_EQ(withTbb, !rigtest::skipUnderThreadSanitizer("tbb"));
    // One picture per shape: each backend's speed per worker count against tbb on one
    // worker (the first backend's when tbb did not run), from the medians above.
    for (const json& shape : res.at("shapes")) {
        const std::string name = shape.at("name");
        EXPECT_TRUE(fs::exists(run / ("spawn-" + name + ".gp"))) << name;
        const CsvTable speed = CsvTable::readFile(run / ("spawn-" + name + ".csv"));
        ASSERT_EQ(speed.rowCount(), 2u) << name;
        const json* base = backendOf(shape, withTbb ? "tbb" : backends().front());
        ASSERT_NE(base, nullptr);
        const double baseNs = base->at("points")[0].at("ns_per_call_median");
        for (const json& b : shape.at("backends"))
            for (std::size_t wi = 0; wi < 2; ++wi) {
                const double want =
                    baseNs / b.at("points")[wi].at("ns_per_call_median").get<double>();
                // the CSV keeps 15 significant digits
                EXPECT_NEAR(speed.number(wi, b.at("name").get<std::string>() + " speed"), want,
                            want * 1e-13)
                    << name << " " << b.at("name");
            }
    }
    fs::remove_all(dir);
}

TEST(SpawnMode, LoopShapesCheckEveryIndexAndReportNanosecondsPerIteration) {
    const fs::path dir = rigtest::scratch("spawn", "loop");
    const Result r =
        rig("--mode=spawn --shapes=loop:100,fib:5,loop1us:8 --workers=2 --reps=2 "
            "--backend-warmup=1 --settle=0ms --quiet --no-render --json --out=. " +
                backendsOption(),
            dir);
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    const fs::path run = rigtest::latestRun(dir);
    const json e = rigtest::stdoutEnvelope(r);
    EXPECT_TRUE(e.at("failures").empty()) << e.at("failures");
    EXPECT_EQ(e.at("calibration").at("kind"), "cpu");  // loop1us spins the calibrated body
    const json& shapes = e.at("result").at("shapes");
    ASSERT_EQ(shapes.size(), 3u);
    struct Want {
        const char *name, *kind;
        unsigned n;
    };
    const Want want[] = {
        {"loop-100", "loop", 100}, {"fib-5", "fib", 15}, {"loop1us-8", "loop1us", 8}};
    for (std::size_t si = 0; si < 3; ++si) {
        const json& shape = shapes[si];
        EXPECT_EQ(shape.at("name"), want[si].name);
        EXPECT_EQ(shape.at("kind"), want[si].kind);
        EXPECT_EQ(shape.at("calls"), want[si].n);
        if (si != 1) {
            EXPECT_EQ(shape.at("result"), want[si].n);  // every index exactly once
        }
        ASSERT_EQ(shape.at("backends").size(), backends().size());
        for (const json& b : shape.at("backends")) {
            const std::string what =
                std::string(want[si].name) + " " + b.at("name").get<std::string>();
            const json& p = b.at("points").at(0);
            EXPECT_EQ(p.at("runs"), 3u) << what;
            EXPECT_EQ(p.at("verified"), 3u) << what;
            const std::vector<double> wall = p.at("wall_us");
            ASSERT_EQ(wall.size(), 2u) << what;
            EXPECT_DOUBLE_EQ(p.at("ns_per_call_median").get<double>(),
                             (wall[0] + wall[1]) / 2 * 1e3 / want[si].n)
                << what;
        }
    }
    // a loop names the backend's loop, not its recursion
    EXPECT_NE(shapes[0].at("backends")[0].at("idiom"), shapes[1].at("backends")[0].at("idiom"));
    EXPECT_EQ(shapes[0].at("backends")[0].at("idiom"), shapes[2].at("backends")[0].at("idiom"));
    EXPECT_EQ(CsvTable::readFile(run / "spawn.csv").rowCount(), 3 * backends().size());
    EXPECT_EQ(CsvTable::readFile(run / "spawn-runs.csv").rowCount(), 3 * backends().size() * 2);
    fs::remove_all(dir);
}

TEST(SpawnMode, BadInputExitsTwoWithNothingWritten) {
    struct Case {
        std::string args, message;
    };
    for (const Case& c : std::vector<Case>{
             {"--shapes=fib:41", "--shapes: 'fib:41': at most 40"},
             {"--shapes=fib:20,stencil_1d:8x100",
              "--shapes: 'stencil_1d:8x100' is not a spawn shape: give fib:N, skynet:D, loop:N or "
              "loop1us:N"},
             {"--shapes=loop:0", "--shapes: 'loop:0': at least 1 iteration"},
             {"--shapes=loop1us:2000000", "--shapes: 'loop1us:2000000': at most 1048576"},
             {"--shapes=loop:8,fib:3,loop:8",
              "invalid --shapes='loop:8,fib:3,loop:8': loop-8 is "
              "given twice"},
             {"--shapes=skynet:", "--shapes: 'skynet:': the size must be a whole number"},
             {"--workers=0", "--workers"},
             {"--backends=nope", "--backends: "},
             {"--backends=pullsched-coro,pool,pullsched-coro",
              "invalid --backends='pullsched-coro,pool,pullsched-coro': pullsched-coro is given "
              "twice"},
         }) {
        const fs::path dir = rigtest::scratch("spawn", "bad");
        const Result r = rig("--mode=spawn --quiet --out=out " + c.args, dir);
        EXPECT_EQ(r.code, 2) << c.args << "\n" << r.err;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << "\n" << r.err;
        EXPECT_FALSE(fs::exists(dir / "out")) << c.args;
        fs::remove_all(dir);
    }
}

// fib(40) is 331 million calls, seconds on any backend: the stop must abandon the run
// itself, and the result must say that it did.
TEST(SpawnMode, SigintInsideARecursionAbandonsItAndSaysSo) {
    const fs::path dir = rigtest::scratch("spawn", "stop");
    const std::string backend = "pullsched";
    const pid_t pid =
        rigtest::startRig({"--mode=spawn", "--shapes=fib:40", "--workers=1",
                           "--backends=" + backend, "--no-render", "--name=r", "--out=out"},
                          dir);
    ASSERT_TRUE(rigtest::waitForText(dir / "stderr.txt", "fib-40 on 1 worker"));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ::kill(pid, SIGINT);
    int status = 0;
    ::waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 130);
    const json e = rigtest::fileEnvelope(rigtest::latestRun(dir / "out") / "r.json");
    EXPECT_EQ(e.at("partial"), true);
    EXPECT_TRUE(e.at("failures").empty()) << e.at("failures");
    const std::string warnings = e.at("warnings").dump();
    EXPECT_NE(warnings.find("the run of fib-40 on " + backend +
                            ", 1 worker was abandoned at the stop request"),
              std::string::npos)
        << warnings;
    EXPECT_EQ(e.at("result").at("shapes")[0].at("backends")[0].at("points")[0].at("runs"), 0u);
    fs::remove_all(dir);
}

// fib:1 is one call: a thousand runs take milliseconds, unless every run first waits its
// --settle of a second; then the SIGINT meets the rig in a pause, before all but a few
// runs, and no run is abandoned (none was running).
TEST(SpawnMode, SigintInTheSettlePauseEndsTheRunThere) {
    const fs::path dir = rigtest::scratch("spawn", "settle");
    const pid_t pid = rigtest::startRig(
        {"--mode=spawn", "--shapes=fib:1", "--workers=1", "--reps=1000", "--settle=1s",
         "--backends=pullsched", "--no-render", "--name=r", "--out=out"},
        dir);
    ASSERT_TRUE(rigtest::waitForText(dir / "stderr.txt", "fib-1 on 1 worker"));
    ::kill(pid, SIGINT);
    int status = 0;
    ::waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 130);
    const json e = rigtest::fileEnvelope(rigtest::latestRun(dir / "out") / "r.json");
    EXPECT_EQ(e.at("partial"), true);
    EXPECT_EQ(e.at("warnings").dump().find("abandoned"), std::string::npos) << e.at("warnings");
    EXPECT_LT(e.at("result").at("shapes")[0].at("backends")[0].at("points")[0].at("runs"), 1001u);
    fs::remove_all(dir);
}

// pullsched-coro is an idiom of work that jobs create, not a backend: --mode=spawn lists it
// with its idiom, takes it in "all" and reports it; a mode that runs graphs or streams
// neither lists nor accepts it, and its "all" runs the backends as before.
TEST(SpawnMode, TheCoroutineIdiomIsSpawnsAlone) {
    const fs::path dir = rigtest::scratch("spawn", "coro");
    const Result help = rig("--mode=spawn --help", dir);
    ASSERT_EQ(help.code, 0) << help.err;
    const std::string idiom = "pullsched-coro (a call is a Task (C++20 coroutine)";
    EXPECT_NE(squeezed(help.out).find(idiom), std::string::npos) << help.out;
    for (const char* mode : {"granularity", "run", "open"}) {
        const Result other = rig(std::string("--mode=") + mode + " --help", dir);
        ASSERT_EQ(other.code, 0) << mode << other.err;
        EXPECT_EQ(other.out.find("pullsched-coro"), std::string::npos) << mode;
        EXPECT_NE(other.out.find("pullsched"), std::string::npos) << mode;
    }
    for (const char* args : {"--mode=granularity --graphs=isolated:8 --sizes=1us --reps=1",
                             "--mode=run --nodes=16 --load=20us --reps=1",
                             "--mode=open --duration=50ms --warmup=0s"}) {
        const Result r = rig(std::string(args) + " --backends=pullsched-coro --out=out", dir);
        EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
        EXPECT_NE(r.err.find("--backends: unknown backend 'pullsched-coro' (known: pullsched, "
                             "tbb, openmp, asio, pool, or all)"),
                  std::string::npos)
            << args << "\n"
            << r.err;
        EXPECT_FALSE(fs::exists(dir / "out")) << args;
    }
    const Result run =
        rig("--mode=spawn --shapes=fib:10,skynet:2 --workers=1,2 --reps=2 --settle=0s --quiet "
            "--no-render --json --backends=pullsched,pullsched-coro --out=out",
            dir);
    ASSERT_EQ(run.code, 0) << run.out << run.err;
    const json e = rigtest::stdoutEnvelope(run);
    EXPECT_TRUE(e.at("failures").empty()) << e.at("failures");
    for (const json& shape : e.at("result").at("shapes")) {
        const json* coro = backendOf(shape, "pullsched-coro");
        ASSERT_NE(coro, nullptr) << shape.at("name");
        EXPECT_NE(coro->at("idiom").get<std::string>().find("co_awaits"), std::string::npos);
        EXPECT_NE(coro->at("idiom"), backendOf(shape, "pullsched")->at("idiom"));
        for (const json& p : coro->at("points")) {
            EXPECT_EQ(p.at("runs"), 3u) << shape.at("name");  // 1 warm-up + 2, each right
            EXPECT_EQ(p.at("verified"), 3u) << shape.at("name");
        }
    }
    fs::remove_all(dir);
}
