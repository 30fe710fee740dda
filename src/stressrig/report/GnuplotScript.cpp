#include "report/GnuplotScript.hpp"
#include "report/DoubleQuoted.hpp"
#include "report/Shell.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>
#include <sys/wait.h>

namespace pullsched::rig {
namespace fs = std::filesystem;
namespace {

constexpr const char* kEnd = "_End_of_Data_";

/// 1-based gnuplot column of a numeric table column.
std::size_t gpColumn(const CsvTable& t, const std::string& name) {
    const std::size_t i = t.columnIndex(name);
    if (t.columns()[i].kind != CsvTable::Kind::Number)
        throw std::invalid_argument(
            fmt::format("GnuplotScript: column '{}' is text and cannot be plotted", name));
    return i + 1;
}

std::string common(const PlotOptions& o) {
    std::string s;
    if (o.logX) s += "set logscale x\n";
    if (o.logY) s += "set logscale y\n";
    if (o.xTicStep > 0)
        s += fmt::format("set xtics {0}\nset offsets {1}, {1}, 0, 0\n", o.xTicStep, o.xTicStep / 2);
    s += "set grid\nset key top left box opaque\n";
    return s;
}

/// The files named by `set output '...'` lines of a script.
std::vector<fs::path> outputsOf(const fs::path& gpFile) {
    std::vector<fs::path> out;
    std::ifstream in(gpFile);
    for (std::string line; std::getline(in, line);) {
        const auto at = line.find("set output '");
        if (at == std::string::npos) continue;
        std::string name;
        for (std::size_t i = at + 12; i < line.size(); ++i) {
            if (line[i] == '\'') {
                if (i + 1 < line.size() && line[i + 1] == '\'') {
                    name += '\'';
                    ++i;
                    continue;
                }
                break;
            }
            name += line[i];
        }
        out.emplace_back(name);
    }
    return out;
}

}  // namespace

std::string GnuplotScript::quoteGp(const std::string& s) {
    std::string q = "'";
    for (char c : s) {
        if (c == '\'') q += '\'';
        if (c == '\n') c = ' ';
        q += c;
    }
    return q + "'";
}

std::string GnuplotScript::quoteGpLines(const std::string& s) {
    return doubleQuoted(s);
}

std::string GnuplotScript::titleGp(const std::string& title, const std::string& verdict,
                                   std::size_t wrap) {
    if (verdict.empty()) return quoteGp(title);
    // wrap the verdict at spaces so that a long one stays inside the picture
    std::string lines = title + "\n";
    std::size_t col = 0;
    std::istringstream words(verdict);
    for (std::string w; words >> w;) {
        if (col > 0 && col + 1 + w.size() > wrap) {
            lines += "\n";
            col = 0;
        } else if (col > 0) {
            lines += ' ';
            ++col;
        }
        lines += w;
        col += w.size();
    }
    return quoteGpLines(lines);
}

GnuplotScript GnuplotScript::parameterSeries(const CsvTable& data, PlotOptions options,
                                             SeriesColumns columns) {
    const LinearRegression model(data.numbers(columns.x), data.numbers(columns.result));
    return parameterSeries(data, model, std::move(options), std::move(columns));
}

GnuplotScript GnuplotScript::parameterSeries(const CsvTable& data, const LinearRegression& model,
                                             PlotOptions o, SeriesColumns c,
                                             std::optional<double> idealGradient) {
    const std::size_t x = gpColumn(data, c.x), res = gpColumn(data, c.result),
                      conc = gpColumn(data, c.concurrency), job = gpColumn(data, c.jobtime);
    const std::string xLabel = o.xLabel.empty() ? c.x : o.xLabel;
    std::string s = common(o);
    s += "set offsets graph 0.03, graph 0.03, 0, 0\n";
    s += fmt::format("set multiplot layout 2,1 title {}\n", kTitle);
    s += "# top: results and the regression line\n";
    s += fmt::format("set xlabel {}\nset ylabel {}\n", quoteGp(xLabel),
                     quoteGp(o.yLabel.empty() ? c.result + " [ms]" : o.yLabel));
    s += fmt::format("Model(p) = {:.15g} * p + {:.15g}\n", model.gradient(), model.socket());
    std::string ideal;
    if (idealGradient) {
        s += fmt::format("Ideal(p) = {:.15g} * p + {:.15g}\n", *idealGradient, model.socket());
        ideal = fmt::format(
            ", \\\n     Ideal(x) with lines lw 2 dt 2 lc rgb '#2e7d32' title {}",
            quoteGp(fmt::format("ideal: {:.4g}·p + the same offset (the work spread over "
                                "every core)",
                                *idealGradient)));
    }
    s += fmt::format(
        "plot $RunData using {}:{} with points pt 7 ps 1.2 title {}, \\\n"
        "     Model(x) with lines lw 2 title {}{}\n",
        x, res, quoteGp(c.result), quoteGp(model.formatModel()), ideal);
    s += "# bottom: concurrency (impulses) and average job time (second axis)\n";
    s += fmt::format("set ylabel {}\nset y2label {}\n", quoteGp(c.concurrency),
                     quoteGp(o.y2Label.empty() ? c.jobtime + " [µs]" : o.y2Label));
    // headroom above the tallest impulse, so that none ends on the frame
    s += "set offsets graph 0.03, graph 0.03, graph 0.08, 0\n";
    s += "set yrange [0:*]\nset y2range [0:*]\nset ytics nomirror\nset y2tics\n";
    s += fmt::format(
        "plot $RunData using {}:{} with impulses lw 4 title {}, \\\n"
        "     $RunData using {}:{} axes x1y2 with points pt 5 title {}\n",
        x, conc, quoteGp(c.concurrency), x, job, quoteGp(c.jobtime));
    s += "unset multiplot\n";
    return GnuplotScript(data.toString(), std::move(s), std::move(o));
}

GnuplotScript GnuplotScript::timePlot(const CsvTable& data, const std::string& xColumn,
                                      const std::vector<std::string>& yColumns,
                                      PlotOptions options) {
    if (options.style.empty()) options.style = "points pt 7 ps 0.6";
    return tablePlot(data, xColumn, yColumns, {}, std::move(options));
}

GnuplotScript GnuplotScript::tablePlot(const CsvTable& data, const std::string& xColumn,
                                       const std::vector<std::string>& yColumns,
                                       const std::vector<std::string>& y2Columns, PlotOptions o,
                                       const testchain::StopPredicate& stop) {
    if (yColumns.empty())
        throw std::invalid_argument("GnuplotScript: need at least one y column to plot");
    if (o.style.empty()) o.style = "linespoints pt 7";
    const std::size_t x = gpColumn(data, xColumn);
    std::string s = common(o);
    s += fmt::format("set title {}\nset xlabel {}\n", kTitle,
                     quoteGp(o.xLabel.empty() ? xColumn : o.xLabel));
    const std::string yLabel =
        !o.yLabel.empty() ? o.yLabel : (yColumns.size() == 1 ? yColumns.front() : "");
    s += fmt::format("set ylabel {}\n", quoteGp(yLabel));
    if (!y2Columns.empty()) {
        const std::string y2Label =
            !o.y2Label.empty() ? o.y2Label : (y2Columns.size() == 1 ? y2Columns.front() : "");
        // from zero: a saturated series (e.g. a capped p99) must not be zoomed into noise
        s += fmt::format("set y2label {}\nset ytics nomirror\nset y2tics\nset y2range [0:*]\n",
                         quoteGp(y2Label));
    }
    std::vector<std::string> parts;
    for (const auto& y : yColumns)
        parts.push_back(fmt::format("$RunData using {}:{} with {} title {}", x, gpColumn(data, y),
                                    o.style, quoteGp(y)));
    for (const auto& y : y2Columns)
        parts.push_back(fmt::format("$RunData using {}:{} axes x1y2 with {} title {}", x,
                                    gpColumn(data, y), o.style, quoteGp(y)));
    s += "plot ";
    for (std::size_t i = 0; i < parts.size(); ++i)
        s += (i ? ", \\\n     " : "") + parts[i];
    s += "\n";
    return GnuplotScript(data.toString(stop), std::move(s), std::move(o));
}

GnuplotScript GnuplotScript::custom(const CsvTable& data, std::string commands, PlotOptions options,
                                    const testchain::StopPredicate& stop) {
    return GnuplotScript(data.toString(stop), std::move(commands), std::move(options));
}

void GnuplotScript::markAsPart(const std::string& part, const std::string& partVerdict) {
    options_.title = options_.title.empty() ? part : part + ": " + options_.title;
    if (options_.verdict.empty()) options_.verdict = partVerdict;
}

std::string GnuplotScript::text(const fs::path& picture, const std::string& verdict,
                                std::string_view verdictColour) const {
    fs::path svg = picture;
    svg.replace_extension(".svg");
    const std::string size = fmt::format("size {},{}", options_.width, options_.height);
    std::string s;
    s += "# Generated by pullsched stressrig. Render with: gnuplot <this file>\n";
    s += "set encoding utf8\n";
    s += "set datafile separator \",;\"\n";
    s += fmt::format("$RunData << {}\n", kEnd);
    std::istringstream lines(data_);
    for (std::string line; std::getline(lines, line);) {
        if (line == kEnd)
            throw std::invalid_argument("GnuplotScript: data contain the datablock terminator");
        s += line + '\n';
    }
    s += fmt::format("{}\n\n", kEnd);
    s += "# file terminal, decided by the gnuplot that runs this: pngcairo, png or svg\n";
    s += "GpTerminals = \" \".GPVAL_TERMINALS.\" \"\n";
    s += "if (strstrt(GpTerminals, \" pngcairo \") > 0) {\n";
    s += fmt::format("    set terminal pngcairo {} noenhanced font 'sans,10'\n", size);
    s += fmt::format("    set output {}\n", quoteGp(picture.string()));
    s += "} else { if (strstrt(GpTerminals, \" png \") > 0) {\n";
    s += fmt::format("    set terminal png {} noenhanced\n", size);
    s += fmt::format("    set output {}\n", quoteGp(picture.string()));
    s += "} else {\n";
    s += fmt::format("    set terminal svg {} noenhanced\n", size);
    s += fmt::format("    set output {}\n", quoteGp(svg.string()));
    s += "} }\n\n";
    s += "set key autotitle columnheader\n";
    std::string commands = commands_;
    const std::string& verdictLine = options_.verdict.empty() ? verdict : options_.verdict;
    // about 7 px per character of the title font: a narrow picture wraps sooner
    const std::size_t wrap =
        options_.titleWrap ? options_.titleWrap
                           : std::clamp<std::size_t>(std::size_t(options_.width) / 7, 40, 150);
    std::string title = titleGp(options_.title, verdictLine, wrap);
    if (!verdictLine.empty() && !verdictColour.empty())  // every layout ends `title @TITLE@`
        title += " textcolor rgb " + quoteGp(std::string(verdictColour));
    for (std::size_t at = commands.find(kTitle); at != std::string::npos;
         at = commands.find(kTitle, at + title.size()))
        commands.replace(at, std::string(kTitle).size(), title);
    s += commands;
    s += "unset output\n";
    return s;
}

fs::path GnuplotScript::write(const fs::path& gpFile, fs::path picture) const {
    if (picture.empty()) picture = gpFile.stem().string() + ".png";
    std::ofstream out(gpFile);
    if (!out) throw std::runtime_error(fmt::format("cannot write {}", gpFile.string()));
    out << text(picture);
    out.flush();
    if (!out) throw std::runtime_error(fmt::format("error writing {}", gpFile.string()));
    return picture;
}

bool GnuplotScript::gnuplotAvailable() {
    return commandAvailable("gnuplot");
}

std::string GnuplotScript::renderHint(const fs::path& gpFile) {
    const fs::path dir = gpFile.parent_path();
    if (dir.empty()) return fmt::format("gnuplot {}", gpFile.string());
    return fmt::format("(cd {} && gnuplot {})", shellQuote(dir.string()),
                       shellQuote(gpFile.filename().string()));
}

GnuplotScript::RenderResult GnuplotScript::render(const fs::path& gpFile) {
    RenderResult r;
    if (!fs::exists(gpFile)) {
        r.message = fmt::format("no such script: {}", gpFile.string());
        return r;
    }
    if (!gnuplotAvailable()) {
        r.message =
            fmt::format("gnuplot is not installed; render later with: {}", renderHint(gpFile));
        return r;
    }
    const fs::path dir = fs::absolute(gpFile).parent_path();
    std::map<fs::path, fs::file_time_type> before;
    const auto outputs = outputsOf(gpFile);
    for (const auto& o : outputs) {
        const fs::path p = o.is_absolute() ? o : dir / o;
        std::error_code ec;
        before[p] = fs::exists(p, ec) ? fs::last_write_time(p, ec) : fs::file_time_type::min();
    }

    const std::string cmd = fmt::format("cd {} && gnuplot {} 2>&1", shellQuote(dir.string()),
                                        shellQuote(gpFile.filename().string()));
    std::string output;
    FILE* pipe = popen(cmd.c_str(), "r");
    if (!pipe) {
        r.message = "could not start gnuplot";
        return r;
    }
    std::array<char, 512> buf{};
    while (std::fgets(buf.data(), static_cast<int>(buf.size()), pipe))
        output += buf.data();
    const int status = pclose(pipe);
    const bool ok = status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;

    for (const auto& [p, t] : before) {
        std::error_code ec;
        if (!fs::exists(p, ec) || fs::file_size(p, ec) == 0) continue;
        const auto now = fs::last_write_time(p, ec);
        if (t == fs::file_time_type::min() || now != t) {
            r.picture = p;
            break;
        }
    }
    r.rendered = ok && !r.picture.empty();
    if (r.rendered)
        r.message = fmt::format("rendered {}", r.picture.string());
    else
        r.message = fmt::format("gnuplot failed on {}{}{}", gpFile.string(),
                                output.empty() ? "" : ": ", output);
    return r;
}

}  // namespace pullsched::rig
