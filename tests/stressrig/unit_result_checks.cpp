// --check: conditions parsed with their units (or refused with one exact line), held
// against a result per backend, graph or level, the busy-machine policy, check files, the
// metric catalogue and the page's figure and check tables.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/CheckOptions.hpp"
#include "cli/UsageError.hpp"
#include "modes/Mode.hpp"
#include "report/FigureTable.hpp"
#include "report/MetricCatalogue.hpp"
#include "report/ResultCheck.hpp"

using namespace pullsched::rig;
using nlohmann::json;

namespace {

const std::vector<FigureSource> kFigures = {{"lateness_p99"},
                                            {"efficiency"},
                                            {"throughput"},
                                            {"drop_rate", "jobs_expired/jobs_posted"},
                                            {"max_sustained_capacity"},
                                            {"jobs_expired"},
                                            {"rss_max"},
                                            {"metg", "metg_us.*"},
                                            {"steps_run", "levels[workers].steps_run"}};

Check one(const std::string& text) {
    const std::vector<Check> c = parseChecks(text, "test", kFigures);
    EXPECT_EQ(c.size(), 1u) << text;
    return c.empty() ? Check{} : c.front();
}

/// The one-line message parseChecks() refuses `text` with.
std::string refusal(const std::string& text) {
    try {
        parseChecks(text, "test", kFigures);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "<accepted>";
}

std::vector<CheckRow> rowsOf(const std::string& spec, const json& result) {
    return evaluateChecks(parseChecks(spec, "test", kFigures), result, "", BusyPolicy::Warn).rows;
}

}  // namespace

TEST(ResultChecks, ThresholdsAreReadInTheFiguresBaseUnit) {
    EXPECT_DOUBLE_EQ(one("lateness_p99<=50us").threshold, 50);
    EXPECT_DOUBLE_EQ(one("lateness_p99<=1ms").threshold, 1000);
    EXPECT_DOUBLE_EQ(one("lateness_p99 <= 2 s").threshold, 2e6);
    EXPECT_DOUBLE_EQ(one("lateness_p99<500ns").threshold, 0.5);
    EXPECT_DOUBLE_EQ(one("lateness_p99_us<=50µs").threshold, 50);  // the JSON key works too
    EXPECT_DOUBLE_EQ(one("throughput>=2k/s").threshold, 2000);
    EXPECT_DOUBLE_EQ(one("throughput>=50/ms").threshold, 50000);
    EXPECT_DOUBLE_EQ(one("throughput>=300").threshold, 300);
    EXPECT_DOUBLE_EQ(one("throughput>0/s").threshold, 0);
    EXPECT_DOUBLE_EQ(one("lateness_p99>=0us").threshold, 0);
    EXPECT_DOUBLE_EQ(one("lateness_p99<=1.5min").threshold, 90e6);
    EXPECT_DOUBLE_EQ(one("efficiency>=0.9").threshold, 0.9);
    EXPECT_DOUBLE_EQ(one("efficiency>=0.95x").threshold, 0.95);
    EXPECT_DOUBLE_EQ(one("efficiency>=95%").threshold, 0.95);
    EXPECT_DOUBLE_EQ(one("drop_rate<0.1%").threshold, 0.001);
    EXPECT_DOUBLE_EQ(one("max_sustained_capacity>=80%").threshold, 80);
    EXPECT_DOUBLE_EQ(one("rss_max<=512KiB").threshold, 0.5);
    EXPECT_DOUBLE_EQ(one("rss_max<=2GiB").threshold, 2048);
    EXPECT_DOUBLE_EQ(one("jobs_expired==3").threshold, 3);
}

TEST(ResultChecks, APercentConditionPrintsItsValueInPercent) {
    const json result = {{"jobs_expired", 21}, {"jobs_posted", 100}};
    const auto percent = rowsOf("drop_rate<50%", result);
    ASSERT_EQ(percent.size(), 1u);
    EXPECT_EQ(percent[0].valueText, "21.0 %");
    EXPECT_DOUBLE_EQ(*percent[0].value, 0.21);  // the JSON keeps the fraction
    EXPECT_EQ(percent[0].outcome, CheckRow::Outcome::Pass);
    EXPECT_EQ(rowsOf("drop_rate<0.5", result)[0].valueText, "0.210");
    EXPECT_EQ(
        rowsOf("drop_rate<0.5%", json{{"jobs_expired", 0}, {"jobs_posted", 100}})[0].valueText,
        "0 %");
}

TEST(ResultChecks, TheSoakMemoryTrendIsAFigure) {
    const std::vector<FigureSource> soakFigures = {
        {"rss_trend", "trend.memory_mib_per_hour.slope"}};
    const auto parse = [&](const std::string& text) {
        return parseChecks(text, "soak", soakFigures);
    };
    EXPECT_DOUBLE_EQ(parse("rss_trend<1MiB/h")[0].threshold, 1);
    EXPECT_DOUBLE_EQ(parse("rss_trend<512KiB/h")[0].threshold, 0.5);
    try {
        parse("rss_trend<1MiB");
        ADD_FAILURE() << "rss_trend<1MiB accepted";
    } catch (const UsageError& e) {
        EXPECT_STREQ(e.what(),
                     "invalid --check 'rss_trend<1MiB': rss_trend is a memory growth; 'MiB' is "
                     "not its unit (KiB/h, MiB/h, GiB/h)");
    }
    const json soak = {{"trend", {{"memory_mib_per_hour", {{"slope", 0.754}}}}}};
    const auto rows = evaluateChecks(parse("rss_trend<0.5MiB/h"), soak, "", BusyPolicy::Warn).rows;
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].valueText, "0.754 MiB/h");
    EXPECT_EQ(rows[0].outcome, CheckRow::Outcome::Fail);
    const json unfitted = {{"trend", {{"memory_mib_per_hour", nullptr}}}};
    EXPECT_EQ(
        evaluateChecks(parse("rss_trend<0.5MiB/h"), unfitted, "", BusyPolicy::Warn).rows[0].outcome,
        CheckRow::Outcome::Missing);
    EXPECT_NE(FigureTable::figures(soak).find("<th>memory trend</th><td class=\"num\">0.754 MiB/h"),
              std::string::npos)
        << FigureTable::figures(soak);
}

TEST(MetricCatalogue, CsvHeadersComeFromTheCatalogue) {
    EXPECT_EQ(MetricCatalogue::csvHeader("lateness_p99"), "p99 lateness us");
    EXPECT_EQ(MetricCatalogue::csvHeader("lateness_p99_9"), "p99.9 lateness us");
    EXPECT_EQ(MetricCatalogue::csvHeader("lateness_mean"), "mean lateness us");
    EXPECT_EQ(MetricCatalogue::csvHeader("throughput"), "achieved rate per s");
    EXPECT_EQ(MetricCatalogue::csvHeader("rss_max"), "rss max MiB");
    EXPECT_EQ(MetricCatalogue::csvHeader("jobs_expired"), "jobs expired");
    EXPECT_EQ(MetricCatalogue::csvHeader("lateness_p50"), "p50 lateness us");
    EXPECT_EQ(MetricCatalogue::csvHeader("runtime"), "runtime ms");
    EXPECT_EQ(MetricCatalogue::csvHeader("metg"), "metg us");
    EXPECT_EQ(MetricCatalogue::csvHeader("runs_verified"), "verified runs");
    EXPECT_EQ(MetricCatalogue::csvHeader("jobs_posted"), "jobs posted");
    EXPECT_EQ(MetricCatalogue::csvHeader("jobs_repeated"), "jobs repeated");
    EXPECT_THROW(MetricCatalogue::csvHeader("no_such_figure"), std::logic_error);
}

TEST(ResultChecks, EveryOperatorAndSelectorIsRead) {
    EXPECT_EQ(one("efficiency<1").op, CheckOp::Less);
    EXPECT_EQ(one("efficiency<=1").op, CheckOp::LessEqual);
    EXPECT_EQ(one("efficiency>1").op, CheckOp::Greater);
    EXPECT_EQ(one("efficiency>=1").op, CheckOp::GreaterEqual);
    EXPECT_EQ(one("efficiency==1").op, CheckOp::Equal);
    EXPECT_EQ(one("efficiency!=1").op, CheckOp::NotEqual);
    const Check c = one("metg[pullsched]<=1us");
    EXPECT_EQ(c.metric->name, "metg");
    EXPECT_EQ(c.path, "metg_us.*");
    EXPECT_EQ(c.selector, std::vector<std::string>{"pullsched"});
    EXPECT_EQ(one("steps_run[workers=2]>=1").selector, std::vector<std::string>{"workers=2"});
    EXPECT_EQ(one("metg[stencil/tbb]<1ms").selector, (std::vector<std::string>{"stencil", "tbb"}));
    EXPECT_EQ(
        parseChecks("efficiency>=0.9,metg[a/b]<=1us,lateness_p99<50us", "test", kFigures).size(),
        3u);
}

TEST(ResultChecks, BadConditionsAreRefusedWithOneExactLine) {
    EXPECT_EQ(refusal("foo<1"),
              "invalid --check 'foo<1': unknown figure 'foo'; --mode=test has: lateness_p99, "
              "efficiency, throughput, drop_rate, max_sustained_capacity, jobs_expired, "
              "rss_max, metg, steps_run");
    EXPECT_EQ(refusal("nodes==16"),
              "invalid --check 'nodes==16': --mode=test does not produce nodes; it has: "
              "lateness_p99, efficiency, throughput, drop_rate, max_sustained_capacity, "
              "jobs_expired, rss_max, metg, steps_run");
    EXPECT_EQ(refusal("lateness_p99<=50"),
              "invalid --check 'lateness_p99<=50': lateness_p99 is a duration; give a unit "
              "(ns, us, ms, s, min, h)");
    EXPECT_EQ(refusal("lateness_p99<=5m"),
              "invalid --check 'lateness_p99<=5m': lateness_p99 is a duration; 'm' is not its "
              "unit (ns, us, ms, s, min, h)");
    EXPECT_EQ(refusal("efficiency>=5us"),
              "invalid --check 'efficiency>=5us': efficiency is a ratio; 'us' is not its unit (a "
              "plain number, x or %)");
    EXPECT_EQ(refusal("max_sustained_capacity>=80"),
              "invalid --check 'max_sustained_capacity>=80': max_sustained_capacity is a "
              "percentage; give a unit (write it in %, e.g. 80%)");
    EXPECT_EQ(refusal("jobs_expired<1ms"),
              "invalid --check 'jobs_expired<1ms': jobs_expired is a count; 'ms' is not "
              "its unit (a plain number)");
    EXPECT_EQ(refusal("throughput>2x/s"),
              "invalid --check 'throughput>2x/s': throughput is a rate; 'x/s' is not its unit "
              "(/s, k/s, /ms, /min, Hz, kHz or a plain number per second)");
    EXPECT_EQ(refusal("efficiency=0.9"),
              "invalid --check 'efficiency=0.9': expected FIGURE OP VALUE with OP one of < <= > "
              ">= == != (e.g. lateness_p99<=50us)");
    EXPECT_EQ(refusal("efficiency>="),
              "invalid --check 'efficiency>=': expected FIGURE OP VALUE with OP one of < <= > >= "
              "== != (e.g. lateness_p99<=50us)");
    EXPECT_EQ(refusal("efficiency>=abc"),
              "invalid --check 'efficiency>=abc': 'abc' is not a number");
    EXPECT_EQ(refusal("efficiency>=0.9,"),
              "invalid --check 'efficiency>=0.9,': an empty condition (a comma too many?)");
    EXPECT_EQ(refusal("metg[]<1us"),
              "invalid --check 'metg[]<1us': a selector is [NAME] after the figure, e.g. "
              "metg[pullsched]");
}

// A selector names what the result of the mode tells its figures apart by as configured
// (Mode::selectorLabels): a label (`workers=2`) or its value (`2`, `pullsched`).
TEST(ResultChecks, ASelectorNamesWhatTheRunWillHave) {
    const std::vector<std::string> labels{"pullsched", "tbb", "workers=2", "name=fib-25"};
    auto with = [](const std::string& text, const std::vector<std::string>& l) {
        try {
            parseChecks(text, "test", kFigures, {}, l);
        } catch (const UsageError& e) {
            return std::string(e.what());
        }
        return std::string("<accepted>");
    };
    for (const char* fine : {"metg[pullsched]<=1us", "steps_run[2]>=1", "steps_run[workers=2]>=1",
                             "metg[fib-25/tbb/2]<=1us", "metg[name=fib-25]<=1us", "metg<=1us"})
        EXPECT_EQ(with(fine, labels), "<accepted>") << fine;
    EXPECT_EQ(with("metg[nosuch]<=1us", labels),
              "invalid --check 'metg[nosuch]<=1us': 'nosuch' selects nothing: --mode=test tells "
              "its figures apart by pullsched, tbb, workers=2, name=fib-25");
    EXPECT_EQ(with("metg[fib-99/tbb]<=1us", labels),
              "invalid --check 'metg[fib-99/tbb]<=1us': 'fib-99' selects nothing: --mode=test "
              "tells its figures apart by pullsched, tbb, workers=2, name=fib-25");
    EXPECT_NE(with("steps_run[workers=3]>=1", labels).find("'workers=3' selects nothing"),
              std::string::npos);
    EXPECT_EQ(with("metg[pullsched]<=1us", {}),
              "invalid --check 'metg[pullsched]<=1us': --mode=test has one value of each "
              "figure; leave out the selector [pullsched]");
    // unchecked without labels
    EXPECT_EQ(one("metg[nosuch]<=1us").selector, std::vector<std::string>{"nosuch"});
}

// A threshold no value of the figure can meet fails every run: refused up front.
TEST(ResultChecks, AThresholdNoValueCanMeetIsRefused) {
    EXPECT_EQ(refusal("lateness_p99<=-1us"),
              "invalid --check 'lateness_p99<=-1us': lateness_p99 is never below 0, so the "
              "condition cannot hold");
    EXPECT_EQ(refusal("jobs_expired<0"),
              "invalid --check 'jobs_expired<0': jobs_expired is never below 0, so the "
              "condition cannot hold");
    EXPECT_NE(refusal("jobs_expired==-1").find("is never below 0"), std::string::npos);
    EXPECT_NE(refusal("throughput<=-1k/s").find("is never below 0"), std::string::npos);
    EXPECT_EQ(refusal("drop_rate>100%"),
              "invalid --check 'drop_rate>100%': drop_rate is never above 100 %, so the "
              "condition cannot hold");
    EXPECT_EQ(refusal("drop_rate>=1.5"),
              "invalid --check 'drop_rate>=1.5': drop_rate is never above 1, so the condition "
              "cannot hold");
    for (const char* fine : {"jobs_expired<=0", "jobs_expired==0", "jobs_expired>=0",
                             "jobs_expired>-1", "jobs_expired!=-1", "drop_rate<=100%",
                             "drop_rate==1", "efficiency>5", "throughput>0", "lateness_p99>=0us"})
        EXPECT_EQ(refusal(fine), "<accepted>") << fine;
    // figures that may be negative, and a correlation's own bounds
    const std::vector<FigureSource> signedFigures{{"gradient"}, {"correlation"}, {"rss_trend"}};
    EXPECT_EQ(
        parseChecks("gradient<-1ms,rss_trend<-1MiB/h,correlation>=-0.5", "test", signedFigures)
            .size(),
        3u);
    try {
        parseChecks("correlation<-1", "test", signedFigures);
        ADD_FAILURE() << "correlation<-1 accepted";
    } catch (const UsageError& e) {
        EXPECT_STREQ(e.what(),
                     "invalid --check 'correlation<-1': correlation is never below -1, so the "
                     "condition cannot hold");
    }
}

// What a message echoes of a condition is every byte of it, visibly (a NUL byte would end
// what() there), and short: a whole file must not become one line.
TEST(ResultChecks, AnEchoedConditionShowsEveryByteAndIsShort) {
    EXPECT_EQ(refusal(std::string("efficiency>=0.9\0x", 17)),
              "invalid --check 'efficiency>=0.9\\x00x': efficiency is a ratio; '\\x00x' is not "
              "its unit (a plain number, x or %)");
    const std::string longName = refusal(std::string(5000, 'y') + "<1");
    EXPECT_LT(longName.size(), 500u) << longName.substr(0, 500);
    EXPECT_EQ(longName.rfind("invalid --check 'yyyy", 0), 0u) << longName.substr(0, 400);
    EXPECT_NE(longName.find("y…'"), std::string::npos) << longName.substr(0, 400);
    std::string many;
    for (int i = 0; i < 3000; ++i)
        many += "efficiency>=0.9,";
    const std::string trailing = refusal(many);
    EXPECT_LT(trailing.size(), 300u) << trailing.substr(0, 300);
    EXPECT_NE(trailing.find("': an empty condition (a comma too many?)"), std::string::npos)
        << trailing.substr(0, 300);
    // a UsageError keeps a NUL byte of any message visible
    EXPECT_STREQ(UsageError(std::string("a\0b", 3)).what(), "a\\x00b");
}

// A figure the mode refuses as configured is refused with the mode's reason, and only a
// figure it does not produce: one it produces is parsed as usual.
TEST(ResultChecks, ARefusedFigureIsRefusedWithItsReason) {
    const std::vector<FigureRefusal> refused = {{"nodes", "name levels instead"},
                                                {"efficiency", "never used"}};
    try {
        parseChecks("nodes==16", "test", kFigures, refused);
        ADD_FAILURE() << "nodes==16 accepted";
    } catch (const UsageError& e) {
        EXPECT_STREQ(e.what(), "invalid --check 'nodes==16': name levels instead");
    }
    EXPECT_EQ(parseChecks("efficiency>=0.9", "test", kFigures, refused).size(), 1u);
    // without one the plain refusal
    EXPECT_NE(refusal("nodes==16").find("does not produce nodes"), std::string::npos);
}

TEST(ResultChecks, EachBackendIsHeldToTheCondition) {
    const json result = {{"lateness_p99_us", 40},
                         {"backends",
                          {{"pullsched", {{"lateness_p99_us", 40}, {"efficiency", 0.9}}},
                           {"tbb", {{"lateness_p99_us", 80}, {"efficiency", nullptr}}}}}};
    const std::vector<CheckRow> all = rowsOf("lateness_p99<=50us", result);
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].where, "pullsched");
    EXPECT_EQ(all[0].outcome, CheckRow::Outcome::Pass);
    EXPECT_EQ(all[0].valueText, "40.0µs");
    EXPECT_EQ(all[1].where, "tbb");
    EXPECT_EQ(all[1].outcome, CheckRow::Outcome::Fail);
    const std::vector<CheckRow> picked = rowsOf("lateness_p99[pullsched]<=50us", result);
    ASSERT_EQ(picked.size(), 1u);
    EXPECT_EQ(picked[0].where, "pullsched");
    // a figure not measured fails its check
    const std::vector<CheckRow> eff = rowsOf("efficiency>=0.5", result);
    ASSERT_EQ(eff.size(), 2u);
    EXPECT_EQ(eff[1].outcome, CheckRow::Outcome::Missing);
    EXPECT_EQ(eff[1].valueText, "n/a");
    // a selector that matches nothing is one failing row, not a silent pass
    const std::vector<CheckRow> none = rowsOf("lateness_p99[asio]<=50us", result);
    ASSERT_EQ(none.size(), 1u);
    EXPECT_EQ(none[0].where, "[asio]");
    EXPECT_EQ(none[0].valueText, "not in the result");
    EXPECT_EQ(none[0].outcome, CheckRow::Outcome::Missing);
}

TEST(ResultChecks, TopLevelWhenNoBackendHoldsTheFigure) {
    const json result = {{"jobs_expired", 2}, {"backends", {{"pullsched", {{"runs", 2}}}}}};
    const std::vector<CheckRow> rows = rowsOf("jobs_expired<=2", result);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].where, "");
    EXPECT_EQ(rows[0].outcome, CheckRow::Outcome::Pass);
    EXPECT_EQ(rowsOf("jobs_expired<2", result)[0].outcome, CheckRow::Outcome::Fail);
}

TEST(ResultChecks, RatiosGraphsAndLevelsAreFound) {
    const json open = {{"jobs_expired", 1}, {"jobs_posted", 1000}};
    EXPECT_EQ(rowsOf("drop_rate<0.1%", open)[0].outcome, CheckRow::Outcome::Fail);
    EXPECT_EQ(rowsOf("drop_rate<=0.1%", open)[0].outcome, CheckRow::Outcome::Pass);
    EXPECT_EQ(rowsOf("drop_rate<=0.1%", json{{"jobs_expired", 0}, {"jobs_posted", 0}})[0].outcome,
              CheckRow::Outcome::Missing);
    const json gran = json::parse(R"({"backends": {
        "pullsched": {"metg_us": {"stencil": 2.0, "fft": 9.0}},
        "tbb": {"metg_us": {"stencil": 5.0, "fft": null}}}})");
    const std::vector<CheckRow> rows = rowsOf("metg[pullsched]<=3us", gran);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].where, "pullsched/fft");
    EXPECT_EQ(rows[0].outcome, CheckRow::Outcome::Fail);
    EXPECT_EQ(rows[1].where, "pullsched/stencil");
    EXPECT_EQ(rows[1].outcome, CheckRow::Outcome::Pass);
    EXPECT_EQ(rowsOf("metg[stencil]<=6us", gran).size(), 2u);
    EXPECT_EQ(rowsOf("metg[stencil/tbb]<=6us", gran).size(), 1u);
    const json sweep = {{"levels", json::array({{{"workers", 1}, {"steps_run", 3}},
                                                {{"workers", 2}, {"steps_run", 1}}})}};
    const std::vector<CheckRow> levels = rowsOf("steps_run>=2", sweep);
    ASSERT_EQ(levels.size(), 2u);
    EXPECT_EQ(levels[0].where, "workers=1");
    EXPECT_EQ(levels[1].outcome, CheckRow::Outcome::Fail);
    EXPECT_EQ(rowsOf("steps_run[2]>=1", sweep).size(), 1u);
    EXPECT_EQ(rowsOf("steps_run[workers=1]>=1", sweep)[0].where, "workers=1");
}

TEST(ResultChecks, ABaselineThresholdIsAFactorOfTheSameFigureStoredBefore) {
    const Check c = one("lateness_p99<=1.1*baseline");
    EXPECT_TRUE(c.relative);
    EXPECT_DOUBLE_EQ(c.threshold, 1.1);
    EXPECT_DOUBLE_EQ(one("efficiency>=baseline").threshold, 1);
    EXPECT_EQ(refusal("efficiency>=1.1baseline"),
              "invalid --check 'efficiency>=1.1baseline': a baseline threshold is F*baseline, "
              "e.g. lateness_p99<=1.1*baseline");
    const json base = json::parse(R"({"backends": {
        "pullsched": {"lateness_p99_us": 100}, "tbb": {"lateness_p99_us": null}}})");
    const json now = json::parse(R"({"backends": {
        "pullsched": {"lateness_p99_us": 105}, "tbb": {"lateness_p99_us": 50},
        "asio": {"lateness_p99_us": 50}}})");
    const std::vector<CheckRow> rows = evaluateChecks({c}, now, "", BusyPolicy::Warn, base).rows;
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0].where, "asio");  // not in the baseline: no threshold
    EXPECT_EQ(rows[0].outcome, CheckRow::Outcome::Missing);
    EXPECT_EQ(rows[0].valueText, "50.0µs (baseline n/a)");
    EXPECT_EQ(rows[1].where, "pullsched");
    EXPECT_EQ(rows[1].outcome, CheckRow::Outcome::Pass);  // 105 <= 1.1 x 100
    EXPECT_EQ(rows[1].baseline, 100);
    EXPECT_EQ(rows[1].valueText, "105µs (baseline 100µs)");
    EXPECT_EQ(rows[2].outcome, CheckRow::Outcome::Missing);  // baseline not measured
    const Check strict = one("lateness_p99[pullsched]<=1.04*baseline");
    EXPECT_EQ(evaluateChecks({strict}, now, "", BusyPolicy::Warn, base).rows[0].outcome,
              CheckRow::Outcome::Fail);
}

TEST(ResultChecks, ABaselineConditionNeedsABaselineAndABaselineACondition) {
    CheckOptions o;
    o.spec = "efficiency>=0.9*baseline";
    const std::vector<Check> relative = o.parse("test", kFigures);
    try {
        o.baseline("test", relative);
        ADD_FAILURE() << "accepted";
    } catch (const UsageError& e) {
        EXPECT_STREQ(e.what(),
                     "invalid --check 'efficiency>=0.9*baseline': needs "
                     "--check-baseline=DIR, a folder with a stored result of "
                     "--mode=test");
    }
    o.baselineDir = ::testing::TempDir();
    EXPECT_THROW(o.baseline("no-such-mode", relative), UsageError);
    o.spec = "efficiency>=0.9";
    EXPECT_THROW(o.baseline("test", o.parse("test", kFigures)), UsageError);
    o.baselineDir.clear();
    EXPECT_TRUE(o.baseline("test", o.parse("test", kFigures)).is_null());
}

TEST(ResultChecks, ABusyMachineIsDecidedByThePolicy) {
    const json result = {{"efficiency", 0.5}};
    const auto checks = parseChecks("efficiency>=0.9", "test", kFigures);
    const auto passing = parseChecks("efficiency>=0.1", "test", kFigures);
    EXPECT_TRUE(evaluateChecks(checks, result, "", BusyPolicy::Pass).failed());
    EXPECT_FALSE(evaluateChecks(passing, result, "", BusyPolicy::Fail).failed());
    EXPECT_TRUE(evaluateChecks(checks, result, "load 9", BusyPolicy::Warn).failed());
    EXPECT_FALSE(evaluateChecks(passing, result, "load 9", BusyPolicy::Warn).failed());
    EXPECT_TRUE(evaluateChecks(passing, result, "load 9", BusyPolicy::Fail).failed());
    EXPECT_FALSE(evaluateChecks(checks, result, "load 9", BusyPolicy::Pass).failed());
    const CheckReport r = evaluateChecks(checks, result, "load 9", BusyPolicy::Pass);
    EXPECT_EQ(r.failures(), 1u);  // still shown as failed
    const std::vector<std::string> lines = r.lines();
    ASSERT_EQ(lines.size(), 5u);
    EXPECT_EQ(lines[3],
              "  the machine was busy (load 9); --check-busy=pass: failed checks do "
              "not fail the run");
    EXPECT_EQ(lines[4], "Checks: 1 of 1 fails (passed)");
    const json j = r.json();
    EXPECT_EQ(j["busy"], true);
    EXPECT_EQ(j["busy_policy"], "pass");
    EXPECT_EQ(j["passed"], true);
    EXPECT_EQ(j["conditions"][0]["outcome"], "fail");
    EXPECT_EQ(j["conditions"][0]["value"], 0.5);
}

TEST(ResultChecks, TheTableNamesConditionPlaceValueAndOutcome) {
    const auto checks = parseChecks("efficiency>=0.9,efficiency<=1", "test", kFigures);
    const std::vector<std::string> lines =
        evaluateChecks(checks, json{{"efficiency", 0.5}}, "", BusyPolicy::Warn).lines();
    ASSERT_EQ(lines.size(), 5u);
    EXPECT_EQ(lines[0], "Checks:");
    EXPECT_EQ(lines[1], "  condition        where  value  result");
    EXPECT_EQ(lines[2], "  efficiency>=0.9         0.500  FAIL");
    EXPECT_EQ(lines[3], "  efficiency<=1           0.500  pass");
    EXPECT_EQ(lines[4], "Checks: 1 of 2 fails (exit 4)");
}

TEST(ResultChecks, CheckFilesHoldOneConditionPerLineOrAChecksBlock) {
    EXPECT_EQ(checkFileConditions("lateness_p99<=50us\n# why\n\nefficiency>=0.9  # floor\n"),
              "lateness_p99<=50us,efficiency>=0.9");
    EXPECT_EQ(checkFileConditions("checks:\n  - 'metg[pullsched]<=1us'\n  - drop_rate<0.1%\n"),
              "metg[pullsched]<=1us,drop_rate<0.1%");
    const std::string file = ::testing::TempDir() + "pullsched-checks.txt";
    std::ofstream(file) << "checks:\n  - efficiency>=0.9\n  - lateness_p99<=50us\n";
    CheckOptions o;
    o.spec = "@" + file;
    EXPECT_EQ(o.parse("test", kFigures).size(), 2u);
    o.spec = "@" + file + ".missing";
    EXPECT_THROW(o.parse("test", kFigures), UsageError);
    o.busy = "fail";
    EXPECT_EQ(o.busyPolicy(), BusyPolicy::Fail);
    EXPECT_EQ(CheckOptions{}.busyPolicy(), BusyPolicy::Warn);  // the default
}

TEST(MetricCatalogue, NamesAreUniqueAndFoundByNameOrKey) {
    std::set<std::string_view> names;
    for (const Metric& m : MetricCatalogue::all()) {
        EXPECT_TRUE(names.insert(m.name).second) << m.name;
        EXPECT_FALSE(m.label.empty()) << m.name;
        EXPECT_FALSE(m.meaning.empty()) << m.name;
        EXPECT_EQ(MetricCatalogue::find(m.key), &m);
    }
    std::string q;
    const Metric* m = MetricCatalogue::forPath("backends.pullsched.lateness.p99_us", q);
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->name, "lateness_p99");
    EXPECT_EQ(q, "backends.pullsched");
    EXPECT_EQ(MetricCatalogue::forPath("xlateness_p99_us", q), nullptr);
    EXPECT_EQ(MetricCatalogue::format(*MetricCatalogue::find("runtime"), 1.5), "1.50ms");
    EXPECT_EQ(MetricCatalogue::format(*MetricCatalogue::find("throughput"), 2500), "2.50k/s");
    EXPECT_EQ(MetricCatalogue::jsonUnit(*MetricCatalogue::find("runtime_ms")), "ms");
}

/// Every figure a mode declares names the catalogue and lies where the mode's recorded
/// JSON keys (tests/stressrig/mode_json_keys) put it, at the top or per backend.
TEST(MetricCatalogue, EveryModesFiguresAreInItsRecordedKeys) {
    for (const auto& mode : makeModes()) {
        std::ifstream in(std::string(PULLSCHED_SOURCE_DIR) + "/tests/stressrig/mode_json_keys/" +
                         std::string(mode->name()) + ".txt");
        ASSERT_TRUE(in) << mode->name();
        std::vector<std::string> keys;
        for (std::string line; std::getline(in, line);)
            keys.push_back(line);
        EXPECT_FALSE(mode->figures().empty()) << mode->name();
        for (const FigureSource& f : mode->figures()) {
            const Metric* m = MetricCatalogue::find(f.metric);
            ASSERT_NE(m, nullptr) << mode->name() << ": " << f.metric;
            const std::string path(f.path.empty() ? m->key : f.path);
            for (std::size_t at = 0, next = 0; at <= path.size(); at = next + 1) {
                next = path.find('/', at);
                if (next == std::string::npos) next = path.size();
                std::string re;
                for (char c : path.substr(at, next - at))
                    re += c == '*'   ? std::string("[^.]+")
                          : c == '.' ? std::string("\\.")
                                     : std::string(1, c);
                re = std::regex_replace(re, std::regex("\\[[a-z_]+\\]"), "\\[\\]");
                const std::regex full("result\\.(backends\\.[^.]+\\.)?" + re);
                EXPECT_TRUE(
                    std::any_of(keys.begin(), keys.end(),
                                [&](const std::string& k) { return std::regex_match(k, full); }))
                    << mode->name() << ": " << f.metric << " at " << path;
            }
        }
    }
}

TEST(FigureTable, FiguresAreLabelledWithUnitsAndMeaning) {
    const json result = {{"nodes_seen", 3},
                         {"backends", {{"pullsched", {{"lateness", {{"p99_us", 12.5}}}}}}}};
    const std::string html = FigureTable::figures(result);
    EXPECT_NE(html.find("<th>p99 lateness (pullsched)</th><td class=\"num\">12.5µs</td>"),
              std::string::npos)
        << html;
    EXPECT_NE(html.find("99% of the jobs started"), std::string::npos);
    EXPECT_NE(html.find("<code>backends.pullsched.lateness.p99_us</code>"), std::string::npos);
    EXPECT_EQ(html.find("nodes_seen"), std::string::npos);
    EXPECT_EQ(FigureTable::figures(json{{"nodes_seen", 3}}), "");
    // catalogue order, and one backend's rows that repeat the top level are left out
    const json run = json::parse(R"({"nodes": 16, "efficiency": 0.5, "lateness_max_us": 3,
        "backends": {"pullsched": {"efficiency": 0.5, "lateness_max_us": 4}}})");
    const std::string ordered = FigureTable::figures(run);
    const auto at = [&](const std::string& label) {
        return ordered.find("<th>" + label + "</th>");
    };
    EXPECT_LT(at("largest lateness"), at("largest lateness (pullsched)"));
    EXPECT_LT(at("largest lateness (pullsched)"), at("efficiency"));
    EXPECT_LT(at("efficiency"), at("nodes"));
    EXPECT_EQ(at("efficiency (pullsched)"), std::string::npos) << ordered;
    const auto checks = parseChecks("efficiency>=0.9", "test", kFigures);
    const std::string table = FigureTable::checks(
        evaluateChecks(checks, json{{"efficiency", 0.5}}, "load 9", BusyPolicy::Warn).json());
    EXPECT_NE(table.find("Failed (exit 4): 1 of 1"), std::string::npos) << table;
    EXPECT_NE(table.find("<code>efficiency&gt;=0.9</code>"), std::string::npos);
    EXPECT_NE(table.find("The machine was busy (load 9); --check-busy=warn"), std::string::npos);
    EXPECT_EQ(FigureTable::checks(nullptr), "");
}
