#include "legacy/ReportWriter.hpp"
#include "report/Shell.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "legacy/RigSetup.hpp"
#include "cli/UsageError.hpp"
#include "pullsched/testchain/DotWriter.hpp"
#include "pullsched/testchain/TestChainGraph.hpp"

namespace fs = std::filesystem;

namespace pullsched::rig {

ReportWriter::ReportWriter(const RigOptions& opt, std::string defaultName)
    : opt_(opt), dir_(opt.out), name_(opt.name.empty() ? std::move(defaultName) : opt.name) {
    if (dir_.empty()) dir_ = ".";
    std::error_code ec;
    fs::create_directories(dir_, ec);
    if (ec || !fs::is_directory(dir_))
        throw UsageError(fmt::format("cannot create output directory '{}' (--out): {}",
                                     dir_.string(), ec ? ec.message() : "not a directory"));
}

fs::path ReportWriter::path(std::string_view suffix) const {
    return dir_ / (name_ + std::string(suffix));
}

void ReportWriter::addConfiguration(std::string key, std::string value) {
    for (auto& kv : extra_)
        if (kv.first == key) {
            kv.second = std::move(value);
            return;
        }
    extra_.emplace_back(std::move(key), std::move(value));
}

ReportWriter::Comments ReportWriter::configuration() const {
    Comments c = configurationOf(opt_);
    for (auto& kv : CsvTable::environmentInfo())
        c.push_back(kv);
    for (auto& kv : extra_)
        c.push_back(kv);
    return c;
}

void ReportWriter::writeAtomically(const fs::path& file,
                                   const std::function<void(std::ostream&)>& fill) {
    fs::path tmp = file;
    tmp += fmt::format(".tmp.{}", static_cast<long>(::getpid()));
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) throw std::runtime_error(fmt::format("cannot write '{}'", tmp.string()));
        fill(out);
        out.flush();
        if (!out) {
            std::error_code ec;
            fs::remove(tmp, ec);
            throw std::runtime_error(fmt::format("error writing '{}'", file.string()));
        }
    }
    std::error_code ec;
    fs::rename(tmp, file, ec);
    if (ec) {
        fs::remove(tmp, ec);
        throw std::runtime_error(
            fmt::format("cannot rename into '{}': {}", file.string(), ec.message()));
    }
}

fs::path ReportWriter::writeCsv(CsvTable& table, std::string_view suffix) {
    for (auto& [k, v] : configuration())
        if (table.comment(k).empty()) table.setComment(k, v);  // the table's own win
    const fs::path file = path(std::string(suffix) + ".csv");
    writeAtomically(file, [&](std::ostream& os) { table.write(os); });
    written_.push_back(file);
    return file;
}

fs::path ReportWriter::writePlot(const GnuplotScript& script, std::string_view suffix) {
    const fs::path gp = path(std::string(suffix) + ".gp");
    fs::path picture = gp.filename();
    picture.replace_extension(".png");
    const std::string text = script.text(picture);
    writeAtomically(gp, [&](std::ostream& os) { os << text; });
    written_.push_back(gp);
    if (!opt_.render) {
        remarks_.push_back(fmt::format("not rendered (--no-render); render with: cd {} && {}",
                                       shellQuote(dir_.string()), GnuplotScript::renderHint(gp)));
        return gp;
    }
    GnuplotScript::RenderResult r = GnuplotScript::render(gp);
    if (r.rendered) {
        written_.push_back(r.picture);
    } else {
        remarks_.push_back(r.message);
    }
    return gp;
}

bool ReportWriter::graphvizAvailable() {
    return commandAvailable("dot");
}

bool ReportWriter::renderDot(const fs::path& dotFile, const fs::path& svg, std::string* remark) {
    const std::string hint =
        fmt::format("dot -Tsvg {} -o {}", shellQuote(dotFile.string()), shellQuote(svg.string()));
    if (!graphvizAvailable()) {
        if (remark) *remark = fmt::format("Graphviz is not installed; render later with: {}", hint);
        return false;
    }
    fs::path tmp = svg;
    tmp += ".tmp";
    const std::string cmd = fmt::format("dot -Tsvg {} -o {} 2>/dev/null",
                                        shellQuote(dotFile.string()), shellQuote(tmp.string()));
    std::error_code ec;
    if (std::system(cmd.c_str()) != 0 || !fs::exists(tmp, ec) || fs::file_size(tmp, ec) == 0) {
        fs::remove(tmp, ec);
        if (remark) *remark = fmt::format("dot failed; try by hand: {}", hint);
        return false;
    }
    fs::rename(tmp, svg, ec);
    if (ec) {
        if (remark) *remark = fmt::format("cannot write {}: {}", svg.string(), ec.message());
        return false;
    }
    return true;
}

fs::path ReportWriter::writeDot(const testchain::TestChainGraph& graph, std::string_view suffix) {
    const fs::path dot = path(std::string(suffix) + ".dot");
    writeAtomically(dot, [&](std::ostream& os) { testchain::DotWriter::write(os, graph); });
    written_.push_back(dot);
    fs::path svg = dot;
    svg.replace_extension(".svg");
    std::string remark;
    if (!opt_.render) {
        remarks_.push_back(
            fmt::format("not rendered (--no-render); render with: dot -Tsvg {} -o {}",
                        shellQuote(dot.string()), shellQuote(svg.string())));
    } else if (renderDot(dot, svg, &remark)) {
        written_.push_back(svg);
    } else {
        remarks_.push_back(remark);
    }
    return dot;
}

fs::path ReportWriter::writeText(std::string_view suffix, const std::string& content) {
    const fs::path file = path(suffix);
    writeAtomically(file, [&](std::ostream& os) { os << content; });
    written_.push_back(file);
    return file;
}

void ReportWriter::noteWritten(const fs::path& file) {
    written_.push_back(file);
}

void ReportWriter::printSummary(std::ostream& os) const {
    std::string dir = dir_.string();
    if (!dir.empty() && dir.back() != '/') dir += '/';
    fmt::print(os, "Results in {}:", dir);
    for (const fs::path& f : written_) {
        // files inside the directory by name, others by path
        std::error_code ec;
        const bool inside = f.parent_path() == dir_ || fs::equivalent(f.parent_path(), dir_, ec);
        fmt::print(os, " {}", inside ? f.filename().string() : f.string());
    }
    fmt::print(os, "\n");
    for (const std::string& r : remarks_)
        fmt::print(os, "  note: {}\n", r);
}

}  // namespace pullsched::rig
