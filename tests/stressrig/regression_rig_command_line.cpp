// The stressrig binary's command line: help, version, modes that own their options, and
// bad input (exit 2, one line naming the problem, nothing written).
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "RigTestSupport.hpp"
#include "format/TextWrap.hpp"
#include "modes/Mode.hpp"
#include "pullsched/testchain/Presets.hpp"

namespace fs = std::filesystem;
using rigtest::Result;
using rigtest::rig;

TEST(RigCommandLine, HelpMentionsEveryModePatternAndExitCode) {
    const fs::path dir = rigtest::scratch("cli", "help");
    const Result r = rig("--help", dir);
    EXPECT_EQ(r.code, 0);
    for (const auto& m : pullsched::rig::makeModes())
        EXPECT_NE(r.out.find(std::string(m->name())), std::string::npos) << m->name();
    for (const auto& p : pullsched::testchain::presetList())
        EXPECT_NE(r.out.find(std::string(p.name)), std::string::npos) << p.name;
    for (const char* word : {"RULE:KEY=VAL", "Exit codes", "130 / 143", "--out=DIR", "--json",
                             "Options of --mode=run"})
        EXPECT_NE(r.out.find(word), std::string::npos) << word;
    EXPECT_TRUE(fs::is_empty(dir / "") || !fs::exists(dir / "out"));
    fs::remove_all(dir);
}

TEST(RigCommandLine, EachModeHasItsOwnHelp) {
    const fs::path dir = rigtest::scratch("cli", "modehelp");
    const Result r = rig("--mode=topology --help", dir);
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("Options of --mode=topology"), std::string::npos);
    EXPECT_NE(r.out.find("--nodes=N"), std::string::npos);
    fs::remove_all(dir);
}

TEST(RigCommandLine, ModeHelpLeadsWithTheModesOptionsThenPointsToTheGeneralHelp) {
    const fs::path dir = rigtest::scratch("cli", "modehelp-first");
    const Result sweep = rig("--mode=sweep --help", dir);
    EXPECT_EQ(sweep.code, 0);
    EXPECT_EQ(sweep.out.rfind("stressrig --mode=sweep: ", 0), 0u) << sweep.out.substr(0, 200);
    const auto options = sweep.out.find("Options of --mode=sweep");
    const auto pointer = sweep.out.find("General help");
    ASSERT_NE(options, std::string::npos) << sweep.out;
    ASSERT_NE(pointer, std::string::npos) << sweep.out;
    EXPECT_LT(options, pointer);
    EXPECT_NE(sweep.out.find("  stressrig --help\n", pointer), std::string::npos);
    // what sweep does not use stays in the general help
    for (const char* general : {"RULE:KEY=VAL", "Patterns (--pattern)", "Exit codes"})
        EXPECT_EQ(sweep.out.find(general), std::string::npos) << general;
    // the general help keeps everything, ending with the default mode's options
    const Result general = rig("--help", dir);
    EXPECT_EQ(general.out.rfind("stressrig - runs", 0), 0u);
    EXPECT_NE(general.out.find("Options of --mode=run"), std::string::npos);
    EXPECT_EQ(general.out.find("General help"), std::string::npos);
    fs::remove_all(dir);
}

// Every help fits a terminal of kHelpWidth columns: long descriptions are folded under
// their column, and only a single word too long for a line (a list without spaces) may
// stick out.
TEST(RigCommandLine, EveryHelpLineFitsTheHelpWidth) {
    const fs::path dir = rigtest::scratch("cli", "help-width");
    std::vector<std::string> args{"--help"};
    for (const auto& m : pullsched::rig::makeModes())
        if (m->name() != "compare") args.push_back(fmt::format("--mode={} --help", m->name()));
    args.push_back("--mode=run --backends=all --help");  // with its "refused here" lines
    for (const std::string& a : args) {
        const Result r = rig(a, dir);
        ASSERT_EQ(r.code, 0) << a;
        std::size_t lines = 0;
        for (std::size_t begin = 0; begin < r.out.size();) {
            std::size_t end = r.out.find('\n', begin);
            if (end == std::string::npos) end = r.out.size();
            const std::string line = r.out.substr(begin, end - begin);
            begin = end + 1;
            ++lines;
            if (pullsched::rig::textColumns(line) <= pullsched::rig::kHelpWidth) continue;
            const auto word = line.find_first_not_of(' ');
            EXPECT_EQ(line.find(' ', word), std::string::npos)
                << a << ": a line of " << pullsched::rig::textColumns(line) << " columns:\n"
                << line;
        }
        EXPECT_GT(lines, 20u) << a;
    }
    fs::remove_all(dir);
}

TEST(RigCommandLine, Version) {
    const fs::path dir = rigtest::scratch("cli", "version");
    const Result r = rig("--version", dir);
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out.rfind("stressrig (pullsched) ", 0), 0u) << r.out;
    EXPECT_NE(r.out.find("commit "), std::string::npos);
    // Taken at build time: in a git checkout it names HEAD (tests run on a fresh build).
    std::string head;
    if (FILE* git = ::popen(
            "git -C '" PULLSCHED_SOURCE_DIR "' rev-parse --short=12 HEAD 2>/dev/null", "r")) {
        char line[64] = {};
        if (std::fgets(line, sizeof line, git)) head = line;
        ::pclose(git);
    }
    while (!head.empty() && (head.back() == '\n' || head.back() == '\r'))
        head.pop_back();
    if (!head.empty()) {
        EXPECT_NE(r.out.find("commit " + head), std::string::npos) << r.out;
    }
    fs::remove_all(dir);
}

TEST(RigCommandLine, BadInputExitsTwoWithOneLineAndWritesNothing) {
    const fs::path dir = rigtest::scratch("cli", "bad");
    const std::vector<std::pair<std::string, std::string>> cases{
        {"--mode=topology --bogus-option", "unknown option --bogus-option"},
        {"--mode=topology --load=fast", "invalid --load='fast'"},
        {"--mode=topology --pattern=zigzag", "zigzag"},
        {"--mode=topology --rules='expand:p=2x'", "malformed --rules"},
        {"--mode=topology --rules=$'expand:p=0.5\\nwarp'", "expand:p=0.5\\nwarp"},
        {"--mode=topology --rules=", "invalid --rules: needs a value"},
        {"--mode=topology --rules=@/", "is a directory"},
        {"--mode=topology --rules='expand:max=3,max=35'", "key 'max' given twice"},
        {"--mode=teleport", "unknown --mode='teleport'"},
        {"--mode=topology --mode=run", "--mode given more than once"},
        {"--mode=topology --nodes=1", "invalid --nodes=1: must be 2..10000000"},
        {"--mode=topology --nodes=8 --nodes=9", "--nodes given more than once"},
        {"--mode=topology --name=a/b", "invalid --name='a/b'"},
        // a real newline inside the quotes (/bin/sh may not know $'\n')
        {"--mode=topology --name='a\nb'", "invalid --name='a\\nb'"},
        {"--mode=topology --name=.hidden", "invalid --name='.hidden'"},
        {"--mode=topology --rules=';;;'", "invalid --rules=';;;': an empty rule list"},
        {"--mode=topology --rules='\n'", "invalid --rules='\\n': an empty rule list"},
        {"--mode=topology --rules=@/dev/zero", "is not a regular file (a character device)"},
        {"--mode=topology --out=", "invalid --out: needs a value"},
        {"--mode=topology extra", "unexpected argument 'extra'"},
        {"--mode=run --placement=everywhere", "invalid --placement='everywhere'"},
        {"--mode=headroom --placement=pinned", "--placement does not apply here"},
        // a list value given twice would be measured twice and reported as two (the runs
        // are short, should one start)
        {"--mode=spawn --shapes=fib:5 --reps=1 --workers=1,1",
         "invalid --workers='1,1': 1 is given twice"},
        {"--mode=sweep --workers=2,1,2 --from=200/s --to=200/s --hold=50ms --warmup=0s",
         "invalid --workers='2,1,2': 2 is given twice"},
        {"--mode=spawn --reps=1 --workers=1 --shapes=fib:5,skynet:1,fib:05",
         "invalid --shapes='fib:5,skynet:1,fib:05': fib-5 is given twice"},
        {"--mode=run --nodes=16 --load=20us --reps=1 --backends=pullsched,pool,pullsched",
         "invalid --backends='pullsched,pool,pullsched': pullsched is given twice"},
        {"--mode=spawn --shapes=fib:5 --reps=1 --workers=1 --backends=pool,pool",
         "invalid --backends='pool,pool': pool is given twice"},
        {"--mode=granularity --graphs=isolated:8,isolated:8 --sizes=1us --reps=1",
         "invalid --graphs='isolated:8,isolated:8': isolated-8 is given twice"},
        {"--mode=granularity --graphs=isolated:8 --sizes=1us,2us,1000ns --reps=1",
         "invalid --sizes='1us,2us,1000ns': 1000ns is 1us again"},
        // a backend without native start times cannot hold a user's next job for later
        {"--mode=closed --duration=50ms --warmup=0s --think=1ms --backends=pullsched,tbb",
         "--think=1.00ms: tbb has no native start times"},
        // a placement only pullsched honours would leave the others measured otherwise
        {"--mode=open --duration=50ms --warmup=0s --placement=pinned --backends=pool",
         "--placement=pinned: pool has no worker placement"},
        {"--mode=soak --duration=50ms --interval=10ms --warmup=0s --placement=os "
         "--backends=pullsched,asio",
         "--placement=os: asio has no worker placement"},
        {"--mode=granularity --graphs=isolated:8 --sizes=1us --reps=1 --placement=os "
         "--backends=tbb",
         "--placement=os: tbb has no worker placement"},
    };
    for (const auto& [args, words] : cases) {
        const Result r = rig(args + " --out=results", dir);
        EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
        EXPECT_NE(r.err.find(words), std::string::npos) << args << ": " << r.err;
        EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
        EXPECT_FALSE(fs::exists(dir / "results")) << args;
        EXPECT_TRUE(r.out.empty()) << args;
    }
    fs::remove_all(dir);
}

TEST(RigCommandLine, AnOptionOfAnotherModeIsRejectedNamingWhoTakesIt) {
    const fs::path dir = rigtest::scratch("cli", "owner");
    // --fan belongs to every graph mode but topology declares it; --json is an output option
    const Result ok = rig("--mode=topology --nodes=8 --fan=8 --json --no-render --out=o", dir);
    EXPECT_EQ(ok.code, 0) << ok.err;
    // an option that no mode declares
    const Result r = rig("--mode=topology --warp-drive=2", dir);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("unknown option --warp-drive"), std::string::npos) << r.err;
    fs::remove_all(dir);
}

TEST(RigCommandLine, TopologyWritesItsResultSet) {
    const fs::path dir = rigtest::scratch("cli", "topology");
    const Result r = rig("--mode=topology --nodes=64 --no-render --out=res", dir);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(fs::exists(rigtest::latestRun(dir / "res") / "topology-burst-64.json"));
    EXPECT_TRUE(fs::exists(rigtest::latestRun(dir / "res") / "topology-burst-64.dot"));
    EXPECT_NE(r.out.find("graph hash 0x258C8DEF5E0791BF"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("total work          33.0ms  (66 x 500µs)"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("\nwork "), std::string::npos) << "one work figure, not two";
    fs::remove_all(dir);
}

TEST(RigCommandLine, AnUnwritableOutExitsThreeBeforeAnyWork) {
    const fs::path dir = rigtest::scratch("cli", "unwritable");
    const fs::path plain = dir / "plain";
    { std::ofstream(plain) << "a regular file\n"; }
    // A folder under a regular file, the regular file itself, and a place the kernel owns.
    const std::vector<std::string> outs{(plain / "results").string(), plain.string(),
                                        "/proc/pullsched-results"};
    // Each mode would print progress on stderr and take a while if it started.
    const std::vector<std::string> modes{"--mode=run --pattern=burst --nodes=64",
                                         "--mode=closed --duration=300ms --warmup=0s",
                                         "--mode=soak --duration=2s --interval=1s --warmup=0s"};
    for (const std::string& mode : modes)
        for (const std::string& out : outs) {
            const std::string args = mode + " --out='" + out + "'";
            const Result r = rig(args, dir);
            EXPECT_EQ(r.code, 3) << args << "\n" << r.err;
            EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line, no progress: " << r.err;
            EXPECT_NE(r.err.find("nothing was run"), std::string::npos) << r.err;
            EXPECT_NE(r.err.find(out), std::string::npos) << "names the folder: " << r.err;
            EXPECT_TRUE(r.out.empty()) << args << ": " << r.out;
        }
    EXPECT_EQ(rigtest::slurp(plain), "a regular file\n");
    std::vector<std::string> left;
    for (const auto& e : fs::directory_iterator(dir))
        left.push_back(e.path().filename().string());
    EXPECT_EQ(left, std::vector<std::string>{"plain"}) << "no staging folder left behind";
    fs::remove_all(dir);
}
