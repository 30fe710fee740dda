#pragma once
// What the tests that hold a result's shown numbers to its JSON share (issue 47, item 2):
// a tiny run's text, page and envelope, the page's "Result figures" checked row by row
// against the JSON, the text's lines (each also in the page's Report), the verdict, and
// values as the rig prints them. Built on RigTestSupport.hpp.

#include <cmath>
#include <cstdint>
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
#include "report/CsvTable.hpp"
#include "report/HtmlPage.hpp"
#include "report/MetricCatalogue.hpp"

namespace rigtest {

/// A run's text (stdout), page and envelope, and the run's folder.
struct Shown {
    fs::path dir;
    fs::path run;
    Result r;
    std::string page;
    nlohmann::json envelope;
};

/// Runs `args` tiny in a fresh scratch directory with --out there, and reads `<base>.html`
/// and `<base>.json` of the run's folder.
inline Shown runShown(const std::string& name, const std::string& args, const std::string& base) {
    Shown s;
    s.dir = scratch("figures-match-json", name);
    s.r = rig(args + " --quiet --no-render --out=res", s.dir);
    EXPECT_EQ(s.r.code, 0) << args << "\n" << s.r.err;
    s.run = latestRun(s.dir / "res");
    s.page = slurp(s.run / (base + ".html"));
    s.envelope = fileEnvelope(s.run / (base + ".json"));
    return s;
}

/// The value under the dotted `path` of `j`; null if there is none.
inline nlohmann::json at(const nlohmann::json& j, const std::string& path) {
    const nlohmann::json* v = &j;
    std::istringstream parts(path);
    for (std::string key; std::getline(parts, key, '.');) {
        if (!v->is_object() || !v->contains(key)) return nlohmann::json(nullptr);
        v = &v->at(key);
    }
    return *v;
}

/// Every row of the page's "Result figures" shows the value under its JSON key; returns
/// how many rows it has (0 without the table: a result whose figures are all in arrays).
inline std::size_t expectPageFiguresAreTheJsons(const Shown& s) {
    using pullsched::rig::HtmlPage;
    using pullsched::rig::MetricCatalogue;
    const std::string table = "<table class=\"figures\">";
    const auto begin = s.page.find(table);
    if (begin == std::string::npos) return 0;
    const std::string rows = s.page.substr(begin, s.page.find("</table>", begin) - begin);
    const std::regex row(
        R"(<tr><th>[^<]*</th><td class="num">([^<]*)</td>.*?<code>([^<]*)</code></td></tr>)");
    std::size_t n = 0;
    const nlohmann::json& result = s.envelope.at("result");
    for (auto it = std::sregex_iterator(rows.begin(), rows.end(), row);
         it != std::sregex_iterator(); ++it, ++n) {
        const std::string shown = (*it)[1], path = (*it)[2];
        std::string qualifier;
        const pullsched::rig::Metric* metric = MetricCatalogue::forPath(path, qualifier);
        if (!metric) {
            ADD_FAILURE() << "the page shows " << path << ", which the catalogue does not know";
            continue;
        }
        const nlohmann::json v = at(result, path);
        const std::string expected =
            v.is_number() ? MetricCatalogue::format(*metric, v.get<double>()) : "n/a";
        EXPECT_EQ(shown, HtmlPage::escape(expected)) << path << " = " << v;
    }
    return n;
}

/// Whether the page's Report (or the page elsewhere) holds `line` as the text has it.
inline void expectOnThePage(const Shown& s, const std::string& line) {
    EXPECT_NE(s.page.find(pullsched::rig::HtmlPage::escape(line)), std::string::npos)
        << "the page lacks: " << line;
}

/// The text's lines (stdout), in order.
inline std::vector<std::string> textLines(const Shown& s) {
    std::istringstream in(s.r.out);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

/// Whether `line` starts (after blanks) with `start`.
inline bool startsWith(const std::string& line, const std::string& start) {
    const auto first = line.find_first_not_of(' ');
    return first != std::string::npos && line.compare(first, start.size(), start) == 0;
}

/// `line` without its leading blanks.
inline std::string trimmed(const std::string& line) {
    const auto first = line.find_first_not_of(' ');
    return first == std::string::npos ? std::string() : line.substr(first);
}

/// `text`'s words joined by one blank: a table row compared without its column widths.
inline std::string squeezed(const std::string& text) {
    std::istringstream in(text);
    std::string out;
    for (std::string w; in >> w;)
        out += (out.empty() ? "" : " ") + w;
    return out;
}

/// The text line that starts (after blanks) with `start`; a failure if there is none. The
/// page's Report holds the same line.
inline std::string textLine(const Shown& s, const std::string& start) {
    for (const std::string& line : textLines(s))
        if (startsWith(line, start)) {
            expectOnThePage(s, line);
            return line;
        }
    ADD_FAILURE() << "no text line starting with '" << start << "' in:\n" << s.r.out;
    return {};
}

/// The text lines after the one starting with `start` up to the first blank line or the
/// first line starting with one of `ends`; each is on the page.
inline std::vector<std::string> textLinesAfter(const Shown& s, const std::string& start,
                                               const std::vector<std::string>& ends = {}) {
    std::vector<std::string> out;
    bool in = false;
    for (const std::string& line : textLines(s)) {
        if (!in) {
            in = startsWith(line, start);
            continue;
        }
        if (line.find_first_not_of(' ') == std::string::npos) break;
        bool end = false;
        for (const std::string& e : ends)
            end = end || startsWith(line, e);
        if (end) break;
        expectOnThePage(s, line);
        out.push_back(line);
    }
    EXPECT_TRUE(in) << "no text line starting with '" << start << "' in:\n" << s.r.out;
    return out;
}

/// The verdict: the envelope's, printed as the text's "Verdict:" line and on the page.
inline std::string verdictShown(const Shown& s) {
    const std::string v = s.envelope.at("verdict").get<std::string>();
    EXPECT_NE(s.r.out.find("Verdict: " + v + "\n"), std::string::npos) << v << "\n" << s.r.out;
    expectOnThePage(s, v);
    return v;
}

/// The whitespace-separated words of `line`.
inline std::vector<std::string> words(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> w;
    for (std::string x; in >> x;)
        w.push_back(x);
    return w;
}

/// A JSON value as the rig prints it: "n/a" for null, else `f` of the number.
template <typename F>
std::string shownAs(const nlohmann::json& v, F f) {
    return v.is_number() ? f(v.get<double>()) : std::string("n/a");
}

/// A rate (`12.5k/s`).
inline std::string rateText(const nlohmann::json& v) {
    return shownAs(v, [](double x) { return pullsched::rig::Units::formatRate(x); });
}

/// A duration given in µs, ms or ns (`unitNs` nanoseconds each) as the rig prints it:
/// rounded to the nanosecond, 3 significant digits (`12.3µs`).
inline std::string durationText(const nlohmann::json& v, double unitNs) {
    return shownAs(v, [&](double x) {
        return pullsched::rig::Units::formatDuration(
            std::chrono::nanoseconds{std::llround(x * unitNs)});
    });
}
inline std::string usText(const nlohmann::json& v) {
    return durationText(v, 1e3);
}
inline std::string msText(const nlohmann::json& v) {
    return durationText(v, 1e6);
}

/// A number with `decimals` after the point (`{:.2f}`).
inline std::string fixedText(const nlohmann::json& v, int decimals) {
    return shownAs(v, [&](double x) { return fmt::format("{:.{}f}", x, decimals); });
}

/// An unsigned count.
inline std::string countText(const nlohmann::json& v) {
    return std::to_string(v.get<std::uint64_t>());
}

/// Every picture script of the run (`*.gp`) names the verdict in its title, wrapped at
/// blanks; returns how many there are.
inline std::size_t expectPictureTitlesHoldTheVerdict(const Shown& s) {
    const std::string verdict = squeezed(s.envelope.at("verdict").get<std::string>());
    std::size_t n = 0;
    for (const auto& e : fs::directory_iterator(s.run)) {
        if (e.path().extension() != ".gp") continue;
        ++n;
        // the title's line breaks (\n inside its double quotes) as the blanks they were
        const std::string gp = slurp(e.path());
        std::string flat;
        for (std::size_t k = 0; k < gp.size(); ++k) {
            const bool wrap = gp[k] == '\\' && k + 1 < gp.size() && gp[k + 1] == 'n';
            flat += wrap ? ' ' : gp[k];
            k += wrap ? 1 : 0;
        }
        EXPECT_NE(flat.find(verdict), std::string::npos)
            << e.path().filename() << " lacks the verdict: " << verdict;
    }
    return n;
}

/// The `$RunData` block of the picture script `file` of the run, as a table.
inline pullsched::rig::CsvTable pictureData(const Shown& s, const std::string& file) {
    const std::string block = datablockOf(slurp(s.run / file));
    EXPECT_NE(block, "<no datablock>") << file;
    return pullsched::rig::CsvTable::parse(block);
}

/// A JSON value as a picture's data block prints it (an empty cell for null).
inline std::string cellText(const nlohmann::json& v) {
    return v.is_number() ? pullsched::rig::CsvTable::formatNumber(v.get<double>()) : std::string();
}

/// Row `row` of column `col` of a picture's data block, as printed.
inline std::string cellText(const pullsched::rig::CsvTable& t, std::size_t row,
                            const std::string& col) {
    return pullsched::rig::CsvTable::formatNumber(t.number(row, col));
}

}  // namespace rigtest
