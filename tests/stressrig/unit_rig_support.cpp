// Small pieces of the rig's framework: stop requests, environment, statistics with
// missing values, supported percentiles, --rules=@FILE.
#include <sys/stat.h>

#include <csignal>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "RigTestSupport.hpp"
#include "analysis/SampleStatistics.hpp"
#include "cli/GraphOptions.hpp"
#include "cli/OutputOptions.hpp"
#include "cli/UsageError.hpp"
#include "load/StopRequest.hpp"
#include "measure/Environment.hpp"
#include "report/LatencyReport.hpp"
#include "report/MetricCatalogue.hpp"
#include "report/MissingValues.hpp"

namespace fs = std::filesystem;
using namespace pullsched::rig;
using namespace std::chrono_literals;

TEST(StopRequest, RequestAndExitCodes) {
    StopRequest s;
    EXPECT_FALSE(s.requested());
    EXPECT_EQ(s.exitCode(), 0);
    EXPECT_FALSE(s.sleepFor(1ms));
    s.request(SIGINT);
    EXPECT_TRUE(s.requested());
    EXPECT_EQ(s.exitCode(), 130);
    EXPECT_TRUE(s.sleepFor(1h)) << "returns at once once requested";
    StopRequest t;
    t.request(SIGTERM);
    EXPECT_EQ(t.exitCode(), 143);
    StopRequest u;
    u.request();
    EXPECT_TRUE(u.requested());
    EXPECT_EQ(u.exitCode(), 0);
}

TEST(StopRequest, ASignalIsAStopRequest) {
    StopRequest s;
    s.watchSignals();
    std::raise(SIGTERM);
    EXPECT_TRUE(s.requested());
    EXPECT_EQ(s.exitCode(), 143);
    std::signal(SIGTERM, SIG_DFL);
}

TEST(Environment, BusyWhenTheLoadExceedsHalfTheCores) {
    Environment e;
    e.cores = 2;
    e.loadAverageStart = 0.9;
    e.loadAverageEnd = 1.0;
    EXPECT_FALSE(e.busy());
    EXPECT_TRUE(e.busyWarning().empty());
    e.loadAverageEnd = 3.1;
    EXPECT_TRUE(e.busy());
    EXPECT_NE(e.busyWarning().find("load average 3.10 on 2 cores"), std::string::npos);
    e.loadAverageStart.reset();
    e.loadAverageEnd.reset();
    EXPECT_FALSE(e.busy());
    EXPECT_TRUE(e.json()["load_average_start"].is_null());
}

TEST(Environment, CaptureFillsEveryField) {
    Environment e = Environment::capture();
    e.finish();
    EXPECT_FALSE(e.version.empty());
    EXPECT_FALSE(e.commit.empty());
    EXPECT_FALSE(e.buildType.empty());
    EXPECT_GE(e.cores, 1u);
    EXPECT_TRUE(e.loadAverageStart.has_value());
    EXPECT_EQ(e.comments().size(), 8u);
    EXPECT_TRUE(e.json().contains("other_work_cores"));
}

// The load average lags by a minute: other work measured during the run makes it busy too.
TEST(Environment, BusyWhenOtherWorkKeptAQuarterOfTheCoresBusy) {
    Environment e;
    e.cores = 2;
    e.loadAverageStart = 0.1;
    e.loadAverageEnd = 0.2;
    e.otherWorkCores = 0.49;
    EXPECT_FALSE(e.busy());
    EXPECT_TRUE(e.busyWarning().empty());
    e.otherWorkCores = 0.5;
    EXPECT_TRUE(e.busy());
    EXPECT_EQ(e.busyWarning(),
              "other work kept 0.50 of 2 cores busy during the run, so times and lateness "
              "include competition for the CPU (results will be noisy)");
    EXPECT_DOUBLE_EQ(e.json()["other_work_cores"].get<double>(), 0.5);
    EXPECT_TRUE(e.json()["busy"].get<bool>());
    e.otherWorkCores.reset();  // /proc/stat could not tell
    EXPECT_FALSE(e.busy());
    EXPECT_TRUE(e.json()["other_work_cores"].is_null());
}

TEST(SampleStatistics, MissingValuesAreExcludedAndCounted) {
    const double v[] = {1.0, kMissing, 3.0, kMissing, 2.0};
    const SampleStatistics s = SampleStatistics::of(v);
    EXPECT_EQ(s.count, 3u);
    EXPECT_EQ(s.missing, 2u);
    EXPECT_DOUBLE_EQ(s.mean, 2.0);
    EXPECT_DOUBLE_EQ(s.sdev, 1.0);
    EXPECT_DOUBLE_EQ(s.median, 2.0);
    EXPECT_DOUBLE_EQ(s.min, 1.0);
    EXPECT_DOUBLE_EQ(s.max, 3.0);
    const double none[] = {kMissing};
    const SampleStatistics n = SampleStatistics::of(none);
    EXPECT_EQ(n.count, 0u);
    EXPECT_TRUE(std::isnan(n.mean));
    const double one[] = {4.0};
    EXPECT_TRUE(std::isnan(SampleStatistics::of(one).sdev)) << "no spread from one value";
    EXPECT_TRUE(jsonNumber(kMissing).is_null());
    EXPECT_EQ(textOr(kMissing, [](double) { return std::string("x"); }), "n/a");
}

TEST(LatencyReport, PercentilesOnlyWhereTheCountSupportsThem) {
    EXPECT_FALSE(percentileSupported(50, 1));
    EXPECT_TRUE(percentileSupported(50, 2));
    EXPECT_FALSE(percentileSupported(99, 99));
    EXPECT_TRUE(percentileSupported(99, 100));
    EXPECT_FALSE(percentileSupported(99.9, 999));
    EXPECT_TRUE(percentileSupported(99.9, 1000));
    LatencyHistogram h;
    EXPECT_EQ(percentileLine(h), "no samples");
    EXPECT_TRUE(histogramJson(h)["mean_us"].is_null());
    for (int i = 1; i <= 50; ++i)
        h.record(std::int64_t{i} * 1000);
    const std::string line = percentileLine(h);
    EXPECT_NE(line.find("p90 "), std::string::npos) << line;
    EXPECT_EQ(line.find("p99 "), std::string::npos) << line;
    EXPECT_NE(line.find("max 50.0µs"), std::string::npos) << line;
    const nlohmann::json j = histogramJson(h);
    EXPECT_TRUE(j["p99_us"].is_null());
    EXPECT_FALSE(j["p90_us"].is_null());
    EXPECT_EQ(j["count"], 50);
}

// The text's mean is the JSON's mean_us as the page's "mean lateness" shows it: rounded to
// the nanosecond, not cut (300.67 ns reads 301ns in both).
TEST(LatencyReport, TheTextsMeanIsTheJsonsAsThePageShowsIt) {
    LatencyHistogram h;
    for (const std::int64_t ns : {300, 301, 301})
        h.record(ns);
    const nlohmann::json j = histogramJson(h);
    const Metric* mean = MetricCatalogue::find("lateness_mean");
    ASSERT_NE(mean, nullptr);
    const std::string shown = MetricCatalogue::format(*mean, j["mean_us"].get<double>());
    EXPECT_EQ(shown, "301ns");
    EXPECT_NE(percentileLine(h).find("(mean " + shown + ", n=3)"), std::string::npos)
        << percentileLine(h);
}

TEST(GraphOptions, RulesFileErrorsSayWhy) {
    const fs::path dir = rigtest::scratch("rules", "file");
    auto error = [](const std::string& arg) -> std::string {
        try {
            readRulesArgument(arg);
        } catch (const UsageError& e) {
            return e.what();
        }
        return "no error";
    };
    EXPECT_EQ(error("@" + dir.string()),
              "invalid --rules=@" + dir.string() + ": is a directory, not a rules file");
    EXPECT_EQ(error("@" + (dir / "missing").string()),
              "invalid --rules=@" + (dir / "missing").string() +
                  ": cannot read the file: No such file or directory");
    { std::ofstream(dir / "empty") << "# nothing\n"; }
    EXPECT_EQ(error("@" + (dir / "empty").string()),
              "invalid --rules=@" + (dir / "empty").string() + ": the file holds no rules");
    { std::ofstream(dir / "burst") << "expand:p=0.27,max=4  # fan out\nreduce:p=0.44\n"; }
    EXPECT_EQ(readRulesArgument("@" + (dir / "burst").string()),
              "expand:p=0.27,max=4;reduce:p=0.44");
    EXPECT_EQ(readRulesArgument(" expand:p=0.5 "), "expand:p=0.5");
    fs::remove_all(dir);
}

namespace {

/// The UsageError readRulesArgument throws for `arg`, or "no error".
std::string rulesError(const std::string& arg) {
    try {
        readRulesArgument(arg);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST(GraphOptions, AnEmptyRuleListIsAnError) {
    for (const std::string arg : {";;;", "\n", " ; \t;\r\n;", ";"})
        EXPECT_NE(rulesError(arg).find("an empty rule list"), std::string::npos)
            << "'" << arg << "': " << rulesError(arg);
    EXPECT_EQ(readRulesArgument("expand:p=0.5;;"), "expand:p=0.5;;") << "a rule is enough";
    const fs::path dir = rigtest::scratch("rules", "separators");
    { std::ofstream(dir / "semis") << ";;;\n  ;\n# only separators\n"; }
    EXPECT_EQ(rulesError("@" + (dir / "semis").string()),
              "invalid --rules=@" + (dir / "semis").string() + ": the file holds no rules");
    fs::remove_all(dir);
}

TEST(GraphOptions, RulesFileMustBeASmallRegularFile) {
    const fs::path dir = rigtest::scratch("rules", "kinds");
    // A device that never ends: refused before anything is read.
    EXPECT_EQ(rulesError("@/dev/zero"),
              "invalid --rules=@/dev/zero: is not a regular file (a character device); a rules "
              "file must be one");
    // A FIFO nobody writes to: refused, not waited on (a blocking open would hang here).
    const fs::path fifo = dir / "fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_EQ(rulesError("@" + fifo.string()),
              "invalid --rules=@" + fifo.string() +
                  ": is not a regular file (a FIFO); a rules file must be one");
    // One byte over the limit, however valid its content.
    const fs::path big = dir / "big";
    {
        std::ofstream out(big);
        std::string line = "expand:p=0.5\n";
        for (std::size_t written = 0; written <= kMaxRulesFileBytes; written += line.size())
            out << line;
    }
    EXPECT_EQ(
        rulesError("@" + big.string()),
        "invalid --rules=@" + big.string() + ": larger than the 1024 KiB a rules file may hold");
    fs::resize_file(big, kMaxRulesFileBytes);
    EXPECT_EQ(rulesError("@" + big.string()), "no error") << "the limit itself is allowed";
    fs::remove_all(dir);
}

TEST(OutputOptions, NamesAreASafeFileNameStem) {
    for (const std::string& ok : {std::string("r"), std::string("soak-2026.11.25"),
                                  std::string("A_b+c"), std::string("0"), std::string(100, 'x')})
        EXPECT_TRUE(safeResultName(ok)) << ok;
    for (const std::string& bad :
         {std::string(""), std::string("a\nb"), std::string("a/b"), std::string("."),
          std::string(".."), std::string(".hidden"), std::string("-rf"), std::string("a b"),
          std::string("a\0b", 3), std::string("caf\xc3\xa9"), std::string("x;rm"),
          std::string("$(id)"), std::string(101, 'x')})
        EXPECT_FALSE(safeResultName(bad)) << "'" << bad << "'";
}

TEST(GraphOptions, PatternRulesSeedAndFan) {
    GraphOptions g;
    OptionTable t;
    g.declare(t);
    EXPECT_EQ(g.label(), "burst");
    EXPECT_EQ(g.graph(64).graphHash(), 0x258C8DEF5E0791BFull);
    g.pattern = "zigzag";
    EXPECT_THROW(g.validate(t), UsageError);
    g.pattern = "burst";
    g.rules = "expand:max=3,max=35";
    EXPECT_THROW(g.validate(t), UsageError);
    g.rules = "expand:p=0.5";
    EXPECT_EQ(g.label(), "custom");
    g.fan = 4;
    EXPECT_EQ(g.rulesFor().maxFan(), 4u);
}

using pullsched::testchain::TestChainGraph;
using pullsched::testchain::WeightPolicy;

namespace {

/// Graph options as a mode declares them, parsed from `args` and validated.
GraphOptions parsedGraphOptions(const std::vector<std::string>& args, bool withNodes = true) {
    GraphOptions g;
    OptionTable t;
    g.declare(t, withNodes);
    t.parse(args);
    g.validate(t);
    return g;
}

std::string usageErrorOf(const std::vector<std::string>& args, bool withNodes = true) {
    try {
        (void)parsedGraphOptions(args, withNodes);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "accepted";
}

}  // namespace

TEST(GraphOptions, TaskBenchPatternWithWidthAndStepsFixesTheGraph) {
    const GraphOptions g = parsedGraphOptions({"--pattern=stencil_1d:8x10"});
    EXPECT_TRUE(g.taskBenchPattern());
    EXPECT_EQ(g.label(), "stencil_1d-8x10");
    EXPECT_EQ(g.nodes, 80u);  // the shape's job count
    const TestChainGraph graph = g.graph();
    EXPECT_EQ(graph.size(), 80u);
    EXPECT_EQ(graph.levels(), 10u);
    EXPECT_EQ(graph.edgeCount(), 9u * 22u);
    TestChainGraph recalculated = graph;
    EXPECT_EQ(graph.graphHash(), recalculated.recalculate().graphHash());  // hashed, as presets
    EXPECT_NE(graph.graphHash(), 0u);
    // the neutral rules stand for it: every job of weight 1 counts as 1 either way
    EXPECT_EQ(g.rulesFor().schedulingWeightPolicy(), WeightPolicy::UnitIfZero);
    // --seed re-seeds it like a preset
    const GraphOptions seeded = parsedGraphOptions({"--pattern=stencil_1d:8x10", "--seed=7"});
    EXPECT_EQ(seeded.graph().seed(), 7u);
    EXPECT_EQ(seeded.graph().edgeCount(), graph.edgeCount());
}

TEST(GraphOptions, TaskBenchPatternWithWidthTakesItsStepsFromTheNodeCount) {
    const GraphOptions g =
        parsedGraphOptions({"--pattern=nearest:8", "--nodes=100", "--radix=5", "--imbalance=1"});
    EXPECT_EQ(g.label(), "nearest-8-r5-i1");
    EXPECT_EQ(g.graph().size(), 8u * 13u);  // ⌈100 / 8⌉ steps
    EXPECT_EQ(g.graph(16).size(), 16u);
    EXPECT_GT(g.graph().weightSum(), g.graph().size());  // imbalanced weights around 16
    const GraphOptions series = parsedGraphOptions({"--pattern=tree:4"}, false);
    EXPECT_EQ(series.graph(12).size(), 1u + 2u + 4u);  // 3 steps: widths 1, 2, 4
}

TEST(GraphOptions, TaskBenchPatternErrorsSayWhy) {
    EXPECT_NE(usageErrorOf({"--pattern=stencil_1d:8x10", "--nodes=100"})
                  .find("--pattern=stencil_1d:8x10 fixes the graph's size (80 jobs)"),
              std::string::npos);
    EXPECT_NE(usageErrorOf({"--pattern=stencil_1d:8x10"}, false).find("give the width alone"),
              std::string::npos);
    EXPECT_NE(usageErrorOf({"--pattern=all_to_all:32"}).find("width of at most 16"),
              std::string::npos);
    EXPECT_NE(usageErrorOf({"--pattern=fft:8xx"}).find("invalid --pattern 'fft:8xx'"),
              std::string::npos);
    EXPECT_NE(usageErrorOf({"--pattern=burst", "--radix=4"})
                  .find("--radix shapes Task Bench patterns only"),
              std::string::npos);
    EXPECT_NE(usageErrorOf({"--pattern=burst", "--imbalance=0.5"})
                  .find("--imbalance shapes Task Bench patterns only"),
              std::string::npos);
    EXPECT_NE(usageErrorOf({"--pattern=fft:8x8", "--fan=4"}).find("--fan sets the generator's fan"),
              std::string::npos);
    EXPECT_EQ(usageErrorOf({"--pattern=fft:8x8"}), "accepted");
}
