// The stressrig command line: parsing into RigOptions (in-process) and the binary's
// handling of bad input (exit code 2, a message naming the problem, nothing written).
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "RigBinary.hpp"

#include <gtest/gtest.h>

#include "pullsched/scheduler/Scheduler.hpp"
#include "legacy/CommandLine.hpp"
#include "legacy/Modes.hpp"
#include "pullsched/testchain/Presets.hpp"

namespace fs = std::filesystem;
using namespace pullsched::rig;
using namespace std::chrono_literals;

namespace {

using rigtest::Result;
using rigtest::rig;
using rigtest::slurp;

fs::path scratch(const std::string& name) {
    return rigtest::scratch("cli", name);
}

ParsedCommandLine parse(std::vector<std::string> args) {
    return parseCommandLine(args);
}

}  // namespace

TEST(CommandLine, Defaults) {
    const ParsedCommandLine p = parse({});
    EXPECT_FALSE(p.help);
    EXPECT_EQ(p.options.mode, "run");
    EXPECT_EQ(p.options.pattern, "burst");
    EXPECT_EQ(p.options.reps, 1u);
    EXPECT_EQ(p.options.load, 500us);
    EXPECT_FALSE(p.options.loadGiven);
}

TEST(CommandLine, ValuesWithUnitsAndLists) {
    const ParsedCommandLine p =
        parse({"--mode=sweep", "--pattern=stationary", "--workers=1,2,4,8", "--load=2ms",
               "--duration=10min", "--rate=2k/s", "--seed=0x37", "--nodes=128", "--fan=8",
               "--stress=0.85", "--level=2ms", "--quiet", "--json", "--no-render", "--out=res",
               "--think=1ms", "--deadline-window=20ms"});
    const RigOptions& o = p.options;
    EXPECT_EQ(o.mode, "sweep");
    EXPECT_EQ(o.workers, (std::vector<unsigned>{1, 2, 4, 8}));
    EXPECT_EQ(o.primaryWorkers(), 1u);
    EXPECT_EQ(o.load, 2ms);
    EXPECT_TRUE(o.loadGiven);
    EXPECT_TRUE(o.nodesGiven);
    EXPECT_EQ(o.duration, 600s);
    EXPECT_DOUBLE_EQ(o.rate, 2000.0);
    ASSERT_TRUE(o.seed);
    EXPECT_EQ(*o.seed, 0x37u);
    EXPECT_EQ(o.nodes, 128u);
    EXPECT_EQ(o.fan, 8u);
    EXPECT_DOUBLE_EQ(o.stress, 0.85);
    EXPECT_EQ(o.schedule, "default");  // --level implies the default schedule
    EXPECT_EQ(o.level, 2ms);
    EXPECT_TRUE(o.quiet && o.json && !o.render);
    EXPECT_EQ(o.out, "res");
    EXPECT_EQ(o.think, 1ms);
    ASSERT_TRUE(o.deadlineWindow);
    EXPECT_EQ(*o.deadlineWindow, 20ms);
}

TEST(CommandLine, BreakingPointDefaultsToReferenceReps) {
    EXPECT_EQ(parse({"--mode=breaking-point"}).options.reps, 20u);
    EXPECT_EQ(parse({"--mode=breaking-point", "--reps=3"}).options.reps, 3u);
}

TEST(CommandLine, HelpFlag) {
    EXPECT_TRUE(parse({"--help"}).help);
}

TEST(CommandLine, BadInputThrowsUsageErrorNamingTheProblem) {
    auto message = [](std::vector<std::string> args) -> std::string {
        try {
            parse(std::move(args));
        } catch (const UsageError& e) {
            return e.what();
        }
        return "<no error>";
    };
    EXPECT_NE(message({"--bogus"}).find("bogus"), std::string::npos);
    EXPECT_NE(message({"--load=500"}).find("--load"), std::string::npos);  // unit required
    EXPECT_NE(message({"--pattern=nope"}).find("nope"), std::string::npos);
    EXPECT_NE(message({"--mode=warp"}).find("warp"), std::string::npos);
    EXPECT_NE(message({"--rules=expand:q=1"}).find("--rules"), std::string::npos);
    EXPECT_NE(message({"--workers=2,x"}).find("--workers"), std::string::npos);
    EXPECT_NE(message({"--workers=0"}).find("--workers"), std::string::npos);
    EXPECT_NE(message({"--nodes=1"}).find("--nodes"), std::string::npos);
    EXPECT_NE(message({"--stress=0"}).find("--stress"), std::string::npos);
    EXPECT_NE(message({"--fan=17"}).find("--fan"), std::string::npos);
    EXPECT_NE(message({"--from=50", "--to=10"}).find("--from"), std::string::npos);
    EXPECT_NE(message({"stray"}).find("stray"), std::string::npos);
}

TEST(CommandLine, ModeTableHasAllTenModes) {
    const std::vector<std::string> names{"topology", "run",     "breaking-point", "param-range",
                                         "open",     "closed",  "sweep",          "pipeclean",
                                         "soak",     "headroom"};
    ASSERT_EQ(modeTable().size(), names.size());
    for (std::size_t i = 0; i < names.size(); ++i) {
        EXPECT_EQ(modeTable()[i].name, names[i]);
        EXPECT_NE(modeTable()[i].run, nullptr);
        EXPECT_FALSE(modeTable()[i].summary.empty());
    }
}

TEST(CommandLineBinary, HelpMentionsEveryModeAndPattern) {
    const fs::path dir = scratch("help");
    const Result r = rig("--help", dir);
    EXPECT_EQ(r.code, 0);
    for (const ModeInfo& m : modeTable())
        EXPECT_NE(r.out.find(std::string(m.name)), std::string::npos) << m.name;
    for (const auto& p : pullsched::testchain::presetList())
        EXPECT_NE(r.out.find(std::string(p.name)), std::string::npos) << p.name;
    for (const char* word : {"RULE:KEY=VAL", "expand", "atJoin", "500us", "Exit codes", ".gp"})
        EXPECT_NE(r.out.find(word), std::string::npos) << word;
    fs::remove_all(dir);
}

TEST(CommandLineBinary, BadInputExitsTwoAndWritesNothing) {
    const fs::path dir = scratch("bad");
    const std::vector<std::pair<std::string, std::string>> cases{
        {"--bogus-option", "bogus-option"},
        {"--load=fast", "--load"},
        {"--pattern=zigzag", "zigzag"},
        {"--rules='expand:p=2x'", "--rules"},
        {"--rules='warp:p=0.5'", "warp"},
        {"--mode=teleport", "teleport"},
        {"--workers=", "workers"},
        {"--mode=param-range --pattern=isolated --from=1 --to=1", "--from"},
    };
    for (const auto& [args, word] : cases) {
        const Result r = rig(args + " --out=results", dir);
        EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
        EXPECT_NE(r.err.find(word), std::string::npos) << args << ": " << r.err;
        EXPECT_FALSE(fs::exists(dir / "results")) << args;
        EXPECT_TRUE(r.out.empty()) << args;
    }
    fs::remove_all(dir);
}

TEST(CommandLineBinary, TraceDumpWithoutTracePointsIsRefused) {
    if (pullsched::Scheduler::traceCompiledIn()) GTEST_SKIP() << "trace build";
    const fs::path dir = scratch("dump");
    const Result r = rig("--nodes=8 --trace-dump=dump.txt --out=results", dir);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("PULLSCHED_TRACE"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "results"));
    EXPECT_FALSE(fs::exists(dir / "dump.txt"));
    fs::remove_all(dir);
}
