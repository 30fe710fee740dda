// The numbers a result shows are the JSON's (issue 47, item 2): for open, sweep and
// breaking-point, every row of the page's "Result figures" is the value under its JSON key,
// formatted as the catalogue says, and the figures of the text report (which the page's
// Report repeats line for line) are the JSON's for the same keys. Tiny runs; no timing.
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "FiguresSupport.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace rigtest;

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
