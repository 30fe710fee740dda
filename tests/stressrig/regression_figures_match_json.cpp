// The numbers a result shows are the JSON's (issue 47, item 2): for open, sweep and
// breaking-point, every row of the page's "Result figures" is the value under its JSON key,
// formatted as the catalogue says, and the figures of the text report (which the page's
// Report repeats line for line) are the JSON's for the same keys. Tiny runs; no timing.
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "RigTestSupport.hpp"
#include "format/Units.hpp"
#include "report/HtmlPage.hpp"
#include "report/MetricCatalogue.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using pullsched::rig::HtmlPage;
using pullsched::rig::MetricCatalogue;
using pullsched::rig::Units;
using rigtest::Result;
using rigtest::rig;

namespace {

/// A run's text (stdout), page and envelope.
struct Shown {
    fs::path dir;
    Result r;
    std::string page;
    json envelope;
};

Shown runShown(const std::string& name, const std::string& args, const std::string& base) {
    Shown s;
    s.dir = rigtest::scratch("figures-match-json", name);
    s.r = rig(args + " --quiet --no-render --out=res", s.dir);
    EXPECT_EQ(s.r.code, 0) << args << "\n" << s.r.err;
    const fs::path out = rigtest::latestRun(s.dir / "res");
    s.page = rigtest::slurp(out / (base + ".html"));
    s.envelope = rigtest::fileEnvelope(out / (base + ".json"));
    return s;
}

/// The value under the dotted `path` of `j`; null if there is none.
json at(const json& j, const std::string& path) {
    const json* v = &j;
    std::istringstream parts(path);
    for (std::string key; std::getline(parts, key, '.');) {
        if (!v->is_object() || !v->contains(key)) return json(nullptr);
        v = &v->at(key);
    }
    return *v;
}

/// Every row of the page's "Result figures" shows the value under its JSON key; returns
/// how many rows it has (0 without the table: a result whose figures are all in arrays).
std::size_t expectPageFiguresAreTheJsons(const Shown& s) {
    const std::string table = "<table class=\"figures\">";
    const auto begin = s.page.find(table);
    if (begin == std::string::npos) return 0;
    const std::string rows = s.page.substr(begin, s.page.find("</table>", begin) - begin);
    const std::regex row(
        R"(<tr><th>[^<]*</th><td class="num">([^<]*)</td>.*?<code>([^<]*)</code></td></tr>)");
    std::size_t n = 0;
    const json& result = s.envelope.at("result");
    for (auto it = std::sregex_iterator(rows.begin(), rows.end(), row);
         it != std::sregex_iterator(); ++it, ++n) {
        const std::string shown = (*it)[1], path = (*it)[2];
        std::string qualifier;
        const pullsched::rig::Metric* metric = MetricCatalogue::forPath(path, qualifier);
        if (!metric) {
            ADD_FAILURE() << "the page shows " << path << ", which the catalogue does not know";
            continue;
        }
        const json v = at(result, path);
        const std::string expected =
            v.is_number() ? MetricCatalogue::format(*metric, v.get<double>()) : "n/a";
        EXPECT_EQ(shown, HtmlPage::escape(expected)) << path << " = " << v;
    }
    return n;
}

/// The text line that starts (after blanks) with `start`; a failure if there is none. The
/// page's Report holds the same line.
std::string textLine(const Shown& s, const std::string& start) {
    std::istringstream in(s.r.out);
    for (std::string line; std::getline(in, line);)
        if (line.find_first_not_of(' ') != std::string::npos &&
            line.compare(line.find_first_not_of(' '), start.size(), start) == 0) {
            EXPECT_NE(s.page.find(HtmlPage::escape(line)), std::string::npos)
                << "the page's Report lacks: " << line;
            return line;
        }
    ADD_FAILURE() << "no text line starting with '" << start << "' in:\n" << s.r.out;
    return {};
}

/// The whitespace-separated words of `line`.
std::vector<std::string> words(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> w;
    for (std::string x; in >> x;)
        w.push_back(x);
    return w;
}

std::string rateText(const json& v) {
    return v.is_number() ? Units::formatRate(v.get<double>()) : "n/a";
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
            EXPECT_NE(s.page.find(HtmlPage::escape(line)), std::string::npos) << line;
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
