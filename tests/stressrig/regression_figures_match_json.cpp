// The numbers a result shows are the JSON's (issue 47, item 2): for open, sweep,
// breaking-point, closed, soak and headroom, every row of the page's "Result figures" is the
// value under its JSON key, formatted as the catalogue says, the figures of the text report
// (which the page's Report repeats line for line) and the verdict are the JSON's for the same
// keys, and the pictures' data and titles are the JSON's too. Tiny runs; no timing.
// param-range, granularity, spawn and topology: regression_figures_match_json_graphs.cpp.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "FiguresSupport.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace rigtest;
using pullsched::rig::CsvTable;
using pullsched::rig::MetricCatalogue;

namespace {

/// A lateness distribution as the text prints it: the percentiles the JSON has (null where
/// the count does not support one), the largest, the mean and the count.
std::string latenessText(const json& l) {
    if (l.at("count").get<std::uint64_t>() == 0) return "no samples";
    struct Level {
        const char* text;
        const char* key;
    };
    std::string s;
    for (const Level& p : {Level{"p50", "p50_us"}, Level{"p90", "p90_us"}, Level{"p99", "p99_us"},
                           Level{"p99.9", "p99_9_us"}})
        if (l.at(p.key).is_number()) s += fmt::format("{} {}  ", p.text, usText(l.at(p.key)));
    return s + fmt::format("max {}  (mean {}, n={})", usText(l.at("max_us")),
                           usText(l.at("mean_us")), countText(l.at("count")));
}

/// One load run of closed (its users, or the open comparison): its counts line and the
/// lateness and resource lines below it are the JSON's.
void expectLoadRunShown(const Shown& s, const json& run) {
    const std::string method = run.at("method");
    std::string counts =
        fmt::format("{}: offered {}  achieved {}  jobs {} (measured {})  completed {}", method,
                    rateText(run.at("offered_rate_per_s")), rateText(run.at("achieved_rate_per_s")),
                    countText(run.at("jobs_posted")), countText(run.at("jobs_measured")),
                    countText(run.at("jobs_completed")));
    for (const auto& [key, text] : {std::pair<const char*, const char*>{"jobs_expired",
                                                                        "EXPIRED (past their "
                                                                        "deadline)"},
                                    {"jobs_failed", "FAILED"},
                                    {"jobs_cancelled", "cancelled"}})
        if (run.at(key) != 0) counts += fmt::format("  {} {}", text, countText(run.at(key)));
    if (run.at("drained") != true) counts += "  (not drained at the end)";
    EXPECT_EQ(trimmed(textLine(s, method + ": offered")), counts);
    const std::vector<std::string> below =
        textLinesAfter(s, method + ": offered", {"open: offered", "Closed:"});
    ASSERT_EQ(below.size(), 2u) << s.r.out;
    EXPECT_EQ(trimmed(below[0]), "lateness " + latenessText(run.at("lateness")));
    EXPECT_EQ(
        trimmed(below[1]),
        fmt::format(
            "CPU {} %{}  RSS max {}  max backlog {}{}", fixedText(run.at("cpu_percent"), 0),
            method == "open"
                ? fmt::format(" (generator {} %)", fixedText(run.at("generator_cpu_percent"), 1))
                : std::string(),
            shownAs(run.at("rss_max_mib"), [](double v) { return fmt::format("{:.1f} MiB", v); }),
            countText(run.at("max_backlog")),
            run.at("posted_late") != 0
                ? "  posted late by the generator: " + countText(run.at("posted_late"))
                : std::string()));
}

/// `significant` digits in fixed notation, as soak's trend prints a slope ("+12.3", "0.0012").
std::string fixedSignificant(double v, int significant, bool sign = false) {
    const int magnitude = v == 0 ? 0 : static_cast<int>(std::floor(std::log10(std::abs(v))));
    const int decimals = std::max(0, significant - 1 - magnitude);
    return sign ? fmt::format("{:+.{}f}", v, decimals) : fmt::format("{:.{}f}", v, decimals);
}

/// A fitted trend of soak's JSON as its text prints it: slope ± half the 95 % interval.
std::string slopeText(const json& fit, const char* unit) {
    if (fit.is_null()) return "n/a";
    const double slope = fit.at("slope"), high = fit.at("high_95");
    return fmt::format("{} ± {} {}", fixedSignificant(slope, 3, true),
                       fixedSignificant(high - slope, 2), unit);
}

/// A share of the jobs as soak prints it ("10.9 %").
std::string shareText(const json& fraction) {
    return shownAs(fraction, [](double v) { return fmt::format("{:.3g} %", 100 * v); });
}

}  // namespace

TEST(FiguresMatchJson, Open) {
    const Shown s = runShown("open",
                             "--mode=open --rate=500 --duration=200ms --warmup=50ms --load=50us "
                             "--workers=2",
                             "open");
    const json& j = s.envelope.at("result");
    EXPECT_GT(expectPageFiguresAreTheJsons(s), 3u);
    const std::string counts = textLine(s, "open: offered");
    EXPECT_NE(
        counts.find(fmt::format(
            "offered {}  achieved {}  jobs {} (measured {})  completed {}",
            rateText(j.at("offered_rate_per_s")), rateText(j.at("achieved_rate_per_s")),
            j.at("jobs_posted").get<std::uint64_t>(), j.at("jobs_measured").get<std::uint64_t>(),
            j.at("jobs_completed").get<std::uint64_t>())),
        std::string::npos)
        << counts << "\n"
        << j.dump();
    const std::string late = textLine(s, "Late starts");
    EXPECT_NE(
        late.find(fmt::format("): {} of {} measured", j.at("late_starts").get<std::uint64_t>(),
                              j.at("lateness").at("count").get<std::uint64_t>())),
        std::string::npos)
        << late;
    fs::remove_all(s.dir);
}

TEST(FiguresMatchJson, Sweep) {
    const Shown s = runShown("sweep",
                             "--mode=sweep --workers=2 --from=200/s --to=400/s --step=200/s "
                             "--hold=150ms --warmup=20ms --load=100us",
                             "sweep");
    const json& j = s.envelope.at("result");
    expectPageFiguresAreTheJsons(s);  // its figures are in arrays: the Report shows them
    // the step table: a row per step, in the JSON's order, on the page as in the text
    std::istringstream in(s.r.out);
    std::vector<std::vector<std::string>> rows;
    bool inTable = false;
    for (std::string line; std::getline(in, line);) {
        const std::vector<std::string> w = words(line);
        if (w.size() > 2 && w[0] == "W" && w[1] == "offered") {
            inTable = true;
            continue;
        }
        if (inTable && w.empty()) break;
        // a step's row starts with its worker count (a note may follow the rows)
        if (inTable && w[0].find_first_not_of("0123456789") == std::string::npos) {
            rows.push_back(w);
            expectOnThePage(s, line);
        }
    }
    const json& steps = j.at("steps");
    ASSERT_EQ(rows.size(), steps.size()) << s.r.out;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const std::vector<std::string>& w = rows[i];
        const json& st = steps[i];
        ASSERT_GE(w.size(), 12u) << i;
        EXPECT_EQ(w[0], std::to_string(st.at("workers").get<unsigned>())) << i;
        EXPECT_EQ(w[1], rateText(st.at("offered_rate_per_s"))) << i;
        EXPECT_EQ(w[2], rateText(st.at("achieved_rate_per_s"))) << i;
        EXPECT_EQ(w[6], std::to_string(st.at("jobs_posted").get<std::uint64_t>())) << i;
        EXPECT_EQ(w[7], std::to_string(st.at("jobs_expired").get<std::uint64_t>())) << i;
        EXPECT_EQ(w[11], st.at("class").get<std::string>()) << i;
    }
    // the levels: the highest stable rate per worker count
    const std::string levels = textLine(s, "2 workers: highest stable");
    const json& lv = j.at("levels").at(0);
    EXPECT_NE(levels.find(
                  fmt::format("highest stable {},", lv.at("highest_stable_per_s").is_null()
                                                        ? std::string("none")
                                                        : rateText(lv.at("highest_stable_per_s")))),
              std::string::npos)
        << levels << "\n"
        << lv;
    fs::remove_all(s.dir);
}

TEST(FiguresMatchJson, BreakingPoint) {
    const Shown s = runShown("breaking-point",
                             "--mode=breaking-point --pattern=burst --nodes=8 --load=100us "
                             "--workers=2 --reps=2",
                             "breaking-point-burst-8");
    const json& j = s.envelope.at("result");
    EXPECT_GT(expectPageFiguresAreTheJsons(s), 3u);
    const std::string line = textLine(s, "breaking stress");
    const auto stress = [](const json& v) {
        return v.is_number() ? fmt::format("{:.3f}", v.get<double>()) : std::string("n/a");
    };
    if (j.at("converged") == true)
        EXPECT_NE(
            line.find(fmt::format("breaking stress  {}   bisection bracket [{}, {}] ({} probes",
                                  stress(j.at("breaking_stress")), stress(j.at("bracket_low")),
                                  stress(j.at("bracket_high")), j.at("probes").get<std::size_t>())),
            std::string::npos)
            << line << "\n"
            << j.dump();
    else
        EXPECT_NE(line.find("n/a"), std::string::npos) << line;
    fs::remove_all(s.dir);
}

TEST(FiguresMatchJson, Closed) {
    const Shown s = runShown("closed",
                             "--mode=closed --users=2 --duration=200ms --warmup=50ms --load=50us "
                             "--workers=2",
                             "closed");
    const json& j = s.envelope.at("result");
    EXPECT_GT(expectPageFiguresAreTheJsons(s), 3u);
    const json& closed = j.at("closed");
    expectLoadRunShown(s, closed);
    ASSERT_EQ(j.at("open_comparison").at("run"), true) << j.at("open_comparison");
    const json& open = j.at("open");
    expectLoadRunShown(s, open);
    const json &c99 = closed.at("lateness").at("p99_us"), &o99 = open.at("lateness").at("p99_us");
    if (c99.is_number() && o99.is_number()) {
        const double c = c99.get<double>(), o = o99.get<double>();
        EXPECT_EQ(trimmed(textLine(s, "p99 lateness: closed")),
                  fmt::format("p99 lateness: closed {} vs open {}{}", usText(c99), usText(o99),
                              c > 0 ? fmt::format(" ({:.1f}x)", o / c) : std::string()));
    }
    std::string verdict = fmt::format("{} closed users reached {}", j.at("users").get<unsigned>(),
                                      rateText(closed.at("achieved_rate_per_s")));
    if (c99.is_number()) verdict += " with p99 lateness " + usText(c99);
    if (o99.is_number()) verdict += "; open load at that rate: p99 lateness " + usText(o99);
    EXPECT_EQ(verdictShown(s), verdict);
    // the picture: lateness by percentile, the JSON's percentiles among its points
    EXPECT_EQ(expectPictureTitlesHoldTheVerdict(s), 1u);
    const CsvTable pic = pictureData(s, "closed-latency.gp");
    std::size_t matched = 0;
    for (std::size_t row = 0; row < pic.rowCount(); ++row)
        for (const auto& [percentile, key] : {std::pair<double, const char*>{50, "p50_us"},
                                              {90, "p90_us"},
                                              {99, "p99_us"},
                                              {99.9, "p99_9_us"},
                                              {100, "max_us"}})
            if (pic.number(row, "percentile") == percentile) {
                ++matched;
                EXPECT_EQ(cellText(pic, row, "closed lateness us"),
                          cellText(closed.at("lateness").at(key)))
                    << key;
                EXPECT_EQ(cellText(pic, row, "open lateness us"),
                          cellText(open.at("lateness").at(key)))
                    << key;
            }
    EXPECT_EQ(matched, 5u) << datablockOf(slurp(s.run / "closed-latency.gp"));
    fs::remove_all(s.dir);
}

TEST(FiguresMatchJson, Soak) {
    // eight intervals: seven after the first, enough to fit the trends
    const Shown s =
        runShown("soak",
                 "--mode=soak --rate=500 --duration=400ms --warmup=50ms --interval=50ms "
                 "--load=50us --workers=2",
                 "soak");
    const json& j = s.envelope.at("result");
    EXPECT_GT(expectPageFiguresAreTheJsons(s), 3u);
    EXPECT_NE(textLine(s, "Soak:")
                  .find(fmt::format("({:.0f} % of nominal capacity {}) for ",
                                    100 * j.at("rate_per_s").get<double>() /
                                        j.at("nominal_capacity_per_s").get<double>(),
                                    rateText(j.at("nominal_capacity_per_s")))),
              std::string::npos);
    // the interval table: a row per interval of the JSON, in its order
    std::vector<std::vector<std::string>> rows;
    bool inTable = false;
    for (const std::string& line : textLines(s)) {
        const std::vector<std::string> w = words(line);
        if (w.size() > 2 && w[0] == "t" && w[1] == "offered") {
            inTable = true;
            continue;
        }
        if (!inTable) continue;
        if (w.size() != 10) break;
        expectOnThePage(s, line);
        rows.push_back(w);
    }
    const json& intervals = j.at("intervals");
    ASSERT_EQ(rows.size(), intervals.size()) << s.r.out;
    for (std::size_t k = 0; k < rows.size(); ++k) {
        const json& iv = intervals[k];
        const std::vector<std::string> expected{
            durationText(iv.at("t_s"), 1e9),      rateText(iv.at("offered_per_s")),
            rateText(iv.at("throughput_per_s")),  usText(iv.at("p99_lateness_us")),
            fixedText(iv.at("rss_mib"), 1),       fixedText(iv.at("cpu_percent"), 0),
            fixedText(iv.at("steal_percent"), 1), fixedText(iv.at("backlog"), 0),
            countText(iv.at("jobs_expired")),     countText(iv.at("late_starts"))};
        EXPECT_EQ(rows[k], expected) << "interval " << k;
    }
    // the totals, the trend and the memory
    const json& v = j.at("verdict");
    EXPECT_EQ(trimmed(textLine(s, "Jobs ")),
              fmt::format("Jobs {}: completed {}, dropped at their deadline {} ({}), failed {}, "
                          "cancelled {}{}",
                          countText(j.at("jobs_posted")), countText(j.at("jobs_completed")),
                          countText(j.at("jobs_expired")), shareText(v.at("drop_fraction")),
                          countText(j.at("jobs_failed")), countText(j.at("jobs_cancelled")),
                          j.at("drained") == true ? "" : " (not drained at the end)"));
    EXPECT_EQ(trimmed(textLine(s, "Late starts:")),
              fmt::format("Late starts: {} of {} measured ({}); lateness {}",
                          countText(j.at("late_starts")), countText(j.at("jobs_measured")),
                          shareText(v.at("late_fraction")), latenessText(j.at("lateness"))));
    const json& trend = j.at("trend");
    ASSERT_FALSE(trend.at("throughput_percent_per_hour").is_null()) << trend;
    std::string cpu;
    if (!trend.at("cpu_percent_points_per_hour").is_null())
        cpu += ", CPU share " + slopeText(trend.at("cpu_percent_points_per_hour"), "points/h");
    if (!trend.at("steal_percent_points_per_hour").is_null())
        cpu += ", steal " + slopeText(trend.at("steal_percent_points_per_hour"), "points/h");
    const std::string trendText =
        fmt::format("throughput {}, memory {}{} (95 % interval, {} intervals)",
                    slopeText(trend.at("throughput_percent_per_hour"), "%/h"),
                    slopeText(trend.at("memory_mib_per_hour"), "MiB/h"), cpu,
                    countText(trend.at("intervals_used")));
    EXPECT_EQ(trend.at("text"), trendText);
    EXPECT_EQ(trimmed(textLine(s, "Trend:")), "Trend: " + trendText);
    if (trend.at("rss_peak_mib").is_number()) {
        EXPECT_EQ(trimmed(textLine(s, "RSS:")),
                  fmt::format("RSS: {} MiB at the first interval used, peak {} MiB, {} MiB at the "
                              "end{}",
                              fixedText(trend.at("rss_first_mib"), 1),
                              fixedText(trend.at("rss_peak_mib"), 1),
                              fixedText(trend.at("rss_last_mib"), 1),
                              v.at("memory_returned") == true ? " (memory given back)" : ""));
    }
    // the verdict and its reason's counts
    const std::string verdict = verdictShown(s);
    const std::string reason = v.at("reason");
    EXPECT_EQ(verdict, v.at("verdict").get<std::string>() + ": " + reason);
    const double threshold = v.at("threshold_percent").get<double>() / 100;
    if (v.at("drop_fraction").is_number() && v.at("drop_fraction").get<double>() > threshold) {
        EXPECT_NE(reason.find(fmt::format("{} of {} jobs dropped unstarted at their deadline",
                                          countText(j.at("jobs_expired")),
                                          countText(j.at("jobs_posted")))),
                  std::string::npos)
            << reason;
    }
    if (v.at("late_fraction").is_number() && v.at("late_fraction").get<double>() > threshold) {
        EXPECT_NE(reason.find(fmt::format("{} of {} measured jobs started later",
                                          countText(j.at("late_starts")),
                                          countText(j.at("jobs_measured")))),
                  std::string::npos)
            << reason;
    }
    if (v.at("over_threshold") != true && v.at("degrading") != true) {
        EXPECT_NE(reason.find(trendText), std::string::npos) << reason;
    }
    // the pictures: the interval table of the JSON
    EXPECT_EQ(expectPictureTitlesHoldTheVerdict(s), 3u);
    for (const char* gp : {"soak-throughput.gp", "soak-memory.gp", "soak-cpu.gp"}) {
        const CsvTable pic = pictureData(s, gp);
        ASSERT_EQ(pic.rowCount(), intervals.size()) << gp;
        for (std::size_t k = 0; k < intervals.size(); ++k)
            for (const auto& [col, key] :
                 {std::pair<std::string, const char*>{"time s", "t_s"},
                  {"offered per s", "offered_per_s"},
                  {"throughput per s", "throughput_per_s"},
                  {MetricCatalogue::csvHeader("lateness_p99"), "p99_lateness_us"},
                  {"rss MiB", "rss_mib"},
                  {"cpu %", "cpu_percent"},
                  {"steal %", "steal_percent"},
                  {"backlog", "backlog"},
                  {MetricCatalogue::csvHeader("jobs_expired"), "jobs_expired"}})
                EXPECT_EQ(cellText(pic, k, col), cellText(intervals[k].at(key)))
                    << gp << " interval " << k << " " << col;
    }
    fs::remove_all(s.dir);
}

TEST(FiguresMatchJson, Headroom) {
    const Shown s = runShown("headroom",
                             "--mode=headroom --max-copies=2 --copy-work=5ms --hold=40ms "
                             "--warmup=10ms --load=200us --workers=2",
                             "headroom");
    const json& j = s.envelope.at("result");
    EXPECT_EQ(expectPageFiguresAreTheJsons(s), 3u);
    // the copies: a row per copy count
    EXPECT_NE(textLine(s, "Compute headroom:")
                  .find(fmt::format("k copies of a {}-job chain", countText(j.at("chain_jobs")))),
              std::string::npos);
    const std::vector<std::string> copyRows = textLinesAfter(s, "copies mach. CPU%");
    const json& copies = j.at("copies");
    ASSERT_EQ(copyRows.size(), copies.size()) << s.r.out;
    for (std::size_t k = 0; k < copies.size(); ++k) {
        const json& c = copies[k];
        EXPECT_EQ(words(copyRows[k]),
                  (std::vector<std::string>{
                      countText(c.at("copies")), fixedText(c.at("machine_cpu_percent"), 0),
                      durationText(c.at("time_s"), 1e9), fixedText(c.at("efficiency"), 2)}))
            << copyRows[k];
    }
    // the load steps: a row per step, the maximum sustained one marked
    EXPECT_NE(textLine(s, "Scheduler,")
                  .find(fmt::format("in steps of its capacity {} (hold",
                                    rateText(j.at("capacity_per_s")))),
              std::string::npos);
    const std::vector<std::string> stepRows =
        textLinesAfter(s, "offered   achieved", {"Maximum sustained load"});
    const json& load = j.at("load");
    ASSERT_EQ(stepRows.size(), load.size()) << s.r.out;
    std::optional<std::size_t> top;
    for (std::size_t k = 0; k < load.size(); ++k)
        if (load[k].at("sustained") == true) top = k;
    for (std::size_t k = 0; k < load.size(); ++k) {
        const json& st = load[k];
        EXPECT_EQ(
            squeezed(stepRows[k]),
            squeezed(fmt::format(
                "{} {} {} {} {} {}{}", rateText(st.at("offered_rate_per_s")),
                rateText(st.at("achieved_rate_per_s")), fixedText(st.at("machine_cpu_percent"), 0),
                countText(st.at("jobs_expired")), usText(st.at("lateness").at("mean_us")),
                usText(st.at("lateness").at("p99_us")),
                top == k ? " <- maximum sustained load" : "")))
            << "step " << k;
    }
    const std::string sustained = textLine(s, "Maximum sustained load");
    if (!load.empty()) {
        EXPECT_NE(sustained.find(fmt::format("low-load value {},",
                                             usText(load[0].at("lateness").at("mean_us")))),
                  std::string::npos)
            << sustained;
    }
    std::string verdict = "maximum sustained load undetermined";
    if (top) {
        EXPECT_EQ(j.at("max_sustained_rate_per_s"), load[*top].at("offered_rate_per_s"));
        EXPECT_EQ(j.at("max_sustained_capacity_percent"), load[*top].at("capacity_percent"));
        const std::string figures =
            fmt::format("{} ({} % of capacity)", rateText(j.at("max_sustained_rate_per_s")),
                        fixedText(j.at("max_sustained_capacity_percent"), 0));
        EXPECT_NE(sustained.find("): " + figures), std::string::npos) << sustained;
        verdict = "maximum sustained load " + figures;
    } else {
        EXPECT_TRUE(j.at("max_sustained_rate_per_s").is_null());
    }
    if (!copies.empty()) {
        const json& last = copies.back();
        verdict +=
            fmt::format("; {} cop{} at efficiency {}", countText(last.at("copies")),
                        last.at("copies") == 1 ? "y" : "ies", fixedText(last.at("efficiency"), 2));
    }
    EXPECT_EQ(verdictShown(s), verdict);
    // the pictures: the copies' and the steps' figures of the JSON
    EXPECT_EQ(expectPictureTitlesHoldTheVerdict(s), 2u);
    const CsvTable copiesPic = pictureData(s, "headroom-copies.gp");
    ASSERT_EQ(copiesPic.rowCount(), copies.size());
    for (std::size_t k = 0; k < copies.size(); ++k)
        for (const auto& [col, key] : {std::pair<std::string, const char*>{"copies", "copies"},
                                       {"time s", "time_s"},
                                       {MetricCatalogue::csvHeader("efficiency"), "efficiency"}})
            EXPECT_EQ(cellText(copiesPic, k, col), cellText(copies[k].at(key))) << col << " " << k;
    const CsvTable loadPic = pictureData(s, "headroom-load.gp");
    ASSERT_EQ(loadPic.rowCount(), load.size());
    for (std::size_t k = 0; k < load.size(); ++k) {
        const json& st = load[k];
        for (const auto& [col, value] :
             {std::pair<std::string, json>{"capacity %", st.at("capacity_percent")},
              {MetricCatalogue::csvHeader("offered_rate"), st.at("offered_rate_per_s")},
              {MetricCatalogue::csvHeader("throughput"), st.at("achieved_rate_per_s")},
              {"machine cpu %", st.at("machine_cpu_percent")},
              {MetricCatalogue::csvHeader("lateness_mean"), st.at("lateness").at("mean_us")},
              {MetricCatalogue::csvHeader("lateness_p99"), st.at("lateness").at("p99_us")},
              {MetricCatalogue::csvHeader("lateness_max"), st.at("lateness").at("max_us")},
              {"sustained", json(st.at("sustained") == true ? 1 : 0)}})
            EXPECT_EQ(cellText(loadPic, k, col), cellText(value)) << col << " step " << k;
    }
    fs::remove_all(s.dir);
}
