#include "report/Reporter.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <ostream>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "load/StopRequest.hpp"
#include "measure/Environment.hpp"
#include "pullsched/testchain/DotWriter.hpp"
#include "report/GnuplotScript.hpp"
#include "report/HtmlPage.hpp"
#include "report/RunFolders.hpp"
#include "report/Shell.hpp"
#include "report/TerminalColour.hpp"
#include "report/VerdictColour.hpp"

namespace fs = std::filesystem;

namespace pullsched::rig {

namespace {

std::string commentValue(const nlohmann::json& v) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_null()) return "unset";
    return v.dump();
}

/// A rendered picture's content, for inlining in the page ("" when unreadable).
std::string pictureBytes(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Renders `dot` into `svg` inside the staging folder; false with a remark if not.
bool renderDot(const fs::path& dir, const std::string& dot, const std::string& svg,
               std::string& remark) {
    if (!commandAvailable("dot")) {
        remark = "Graphviz is not installed";
        return false;
    }
    const std::string cmd = fmt::format("cd {} && dot -Tsvg {} -o {} 2>/dev/null",
                                        shellQuote(dir.string()), shellQuote(dot), shellQuote(svg));
    std::error_code ec;
    if (std::system(cmd.c_str()) != 0 || !fs::exists(dir / svg, ec) ||
        fs::file_size(dir / svg, ec) == 0) {
        fs::remove(dir / svg, ec);
        remark = "dot failed";
        return false;
    }
    return true;
}

/// The result's files for its page: every staged one with its size, then the page and
/// the manifest (not yet written, so without a size).
std::vector<PageFile> pageFiles(const ResultFiles& files, const std::string& page,
                                const std::string& manifest) {
    std::vector<PageFile> list;
    for (const std::string& n : files.staged()) {
        std::error_code ec;
        const std::uintmax_t bytes = fs::file_size(files.staging() / n, ec);
        list.push_back({n, ec ? std::nullopt : std::optional<std::uintmax_t>(bytes)});
    }
    list.push_back({page, std::nullopt});
    list.push_back({manifest, std::nullopt});
    return list;
}

/// Rewrites --out's index.html, the list of every run in it. Written to a temporary name
/// and renamed, so a reader never sees half a page.
void writeIndex(const fs::path& out, const ResultFiles::Writer& writer) {
    const std::string html = HtmlPage::runsPage(runsIn(out), latestFolder(out));
    const fs::path tmp = out / fmt::format(".index.html.{}", static_cast<long>(::getpid()));
    try {
        (writer ? writer : ResultFiles::Writer(&ResultFiles::writeFile))(tmp, html);
    } catch (...) {
        std::error_code ec;
        fs::remove(tmp, ec);
        throw;
    }
    std::error_code ec;
    fs::rename(tmp, out / "index.html", ec);
    if (ec) {
        fs::remove(tmp, ec);
        throw ResultWriteError(fmt::format("cannot move '{}' into place: {}",
                                           (out / "index.html").string(), ec.message()));
    }
}

/// The mode's warnings, and one when the job body kept a cached calibration although the
/// CPU ran slower at its re-check (see testchain::checkCached): the job bodies then take
/// longer than their nominal size, and every time measured includes that.
std::vector<std::string> warningsOf(const ModeResult& r) {
    std::vector<std::string> warnings = r.warnings;
    if (r.calibration.is_object()) {
        const auto slower = r.calibration.find("slower_at_check_percent");
        if (slower != r.calibration.end() && slower->is_number() && slower->get<double>() > 0.0)
            warnings.push_back(fmt::format(
                "the CPU ran {:.0f} % slower when the job body's calibration was re-checked "
                "than when it was calibrated (other work on this machine or its host): job "
                "bodies may take longer than their nominal size, and the times include that",
                slower->get<double>()));
    }
    return warnings;
}

/// The envelope: { mode, version, configuration, environment, calibration, files, partial,
/// verdict, warnings, failures, exit_status, result }; files are filled in when written.
nlohmann::json envelopeOf(const ModeResult& r, const std::vector<std::string>& warnings,
                          const Invocation& inv, Environment& env, bool interrupted, int status) {
    nlohmann::json envelope;
    envelope["mode"] = inv.mode;
    envelope["version"] = env.version;
    envelope["configuration"] = inv.configuration;
    envelope["environment"] = env.json();
    envelope["calibration"] = r.calibration;
    envelope["files"] = nlohmann::json::array();
    envelope["partial"] = interrupted;
    envelope["verdict"] = r.verdict;
    envelope["warnings"] = warnings;
    envelope["failures"] = r.failures;
    envelope["exit_status"] = status;
    envelope["result"] = r.result;
    return envelope;
}

using Comments = std::vector<std::pair<std::string, std::string>>;

/// Configuration comments for every CSV: options, environment, calibration.
Comments csvComments(const ModeResult& r, const Invocation& inv, Environment& env,
                     bool interrupted) {
    Comments comments;
    comments.emplace_back("mode", inv.mode);
    for (const auto& [k, v] : inv.configuration.items())
        comments.emplace_back(k, commentValue(v));
    for (auto& kv : env.comments())
        comments.push_back(kv);
    if (!r.calibration.is_null()) comments.emplace_back("calibration", r.calibration.dump());
    if (interrupted) comments.emplace_back("partial", "yes: the run was interrupted");
    return comments;
}

/// The pictures for the result's page and the remarks for the report, as files are staged.
struct Renderings {
    std::vector<PagePicture> pictures;
    std::vector<std::string> remarks;
};

/// Why the pictures are not rendered ("" to render them): --no-render, or a stop (a
/// picture may take gnuplot or dot long, and a stop asks for the end).
std::string noRenderReason(const OutputSettings& output, const StopRequest& stop) {
    if (output.noRender) return "--no-render";
    if (stop.requested()) return "the run was stopped";
    return "";
}

/// How the page tells why a picture was not rendered.
std::string noRenderNote(const std::string& reason) {
    return reason == "--no-render" ? "--no-render was given" : reason;
}

/// Stages a Gnuplot script and, unless `noRender` gives a reason, its picture.
void stagePlot(ResultFiles& files, const ResultPlot& p, const std::string& name,
               const std::string& verdict, std::string_view verdictColour,
               const std::string& noRender, const std::string& dir, Renderings& out) {
    const std::string gp = name + p.suffix + ".gp";
    const std::string png = name + p.suffix + ".png";
    files.write(gp, p.script.text(png, verdict, verdictColour));
    if (!noRender.empty()) {
        out.remarks.push_back(fmt::format("not rendered ({}); render with: cd {} && gnuplot {}",
                                          noRender, shellQuote(dir), shellQuote(gp)));
        out.pictures.push_back(
            {gp, "", noRenderNote(noRender) + "; render with gnuplot " + gp, ""});
        return;
    }
    const GnuplotScript::RenderResult rr = GnuplotScript::render(files.staging() / gp);
    if (rr.rendered) {
        files.adopt(rr.picture.filename().string());
        out.pictures.push_back({gp, rr.picture.filename().string(), "",
                                pictureBytes(files.staging() / rr.picture.filename())});
        return;
    }
    // the renderer's own hint names the staging folder, gone by now
    const std::string why = Reporter::oneLine(rr.message.substr(0, rr.message.find("; render")));
    out.pictures.push_back({gp, "",
                            fmt::format("{}; render it in this folder with: "
                                        "gnuplot {}",
                                        why, gp),
                            ""});
    out.remarks.push_back(fmt::format("{} not rendered ({}); render with: cd {} && gnuplot {}", gp,
                                      why, shellQuote(dir), shellQuote(gp)));
}

/// Stages another file; a DOT graph also rendered to SVG unless `noRender` gives a reason.
void stageFile(ResultFiles& files, const ResultFile& f, const std::string& name,
               const std::string& noRender, const std::string& dir, Renderings& out) {
    const std::string file = name + f.suffix;
    files.write(file, f.content);
    if (f.kind != ResultFile::Kind::Dot) return;
    const std::string svg = fs::path(file).replace_extension(".svg").string();
    std::string why;
    if (!noRender.empty()) {
        out.remarks.push_back(
            fmt::format("not rendered ({}); render with: cd {} && dot -Tsvg {} -o {}", noRender,
                        shellQuote(dir), shellQuote(file), shellQuote(svg)));
        out.pictures.push_back({file, "", noRenderNote(noRender) + "; render with dot -Tsvg", ""});
    } else if (renderDot(files.staging(), file, svg, why)) {
        files.adopt(svg);
        out.pictures.push_back({file, svg, "", pictureBytes(files.staging() / svg)});
    } else {
        out.pictures.push_back({file, "",
                                fmt::format("{}; render it in this folder with: "
                                            "dot -Tsvg {} -o {}",
                                            why, file, svg),
                                ""});
        out.remarks.push_back(
            fmt::format("{} not rendered ({}); render with: cd {} && dot -Tsvg {} -o {}", file, why,
                        shellQuote(dir), shellQuote(file), shellQuote(svg)));
    }
}

/// What writing the result's files came to.
struct WrittenResult {
    fs::path folder;                   ///< the run's folder in --out
    std::vector<std::string> written;  ///< the names moved into it
    std::vector<std::string> remarks;  ///< notes for the report (not rendered, no index)
    std::vector<std::string> leftOut;  ///< warnings: files a stop left out
    bool indexWritten = false;         ///< --out's index.html lists the run
    std::string writeError;            ///< why no file was written; empty when the set was
};

/// The note for a file left out on a stop: `size` says how large it is.
std::string leftOutNote(const std::string& file, const std::string& size) {
    return fmt::format("{} not written: the run was stopped ({}, more than a stopped run writes)",
                       file, size);
}

/// Once the run's result is complete in its folder: `latest` points at it and --out's
/// index.html lists it. A failure of either is a note; the result stands.
void announceRun(const fs::path& out, const ResultFiles::Writer& writer, WrittenResult& w) {
    try {
        linkLatest(out, w.folder.filename().string());
    } catch (const std::exception& e) {
        w.remarks.push_back(
            fmt::format("{} not updated: {}", kLatestLink, Reporter::oneLine(e.what())));
    }
    try {
        writeIndex(out, writer);
        w.indexWritten = true;
    } catch (const std::exception& e) {
        w.remarks.push_back(fmt::format("{} not updated: {}", (out / "index.html").string(),
                                        Reporter::oneLine(e.what())));
    }
}

/// Creates the run's folder in --out, stages every file of the result there, then its page
/// (also the folder's index.html) and the envelope as manifest (which lists every file, so
/// `envelope` gains them), commits the set, then points `latest` at the folder and
/// rewrites --out's index.html. On a failure the run's folder goes again.
/// Once a stop is asked, a file past a stopped run's budget (StopRequest::kStoppedRunRows
/// rows, kStoppedRunBytes bytes) is left out with a warning, and nothing is rendered.
WrittenResult writeResult(const ModeResult& r, const std::string& name, const Comments& comments,
                          const OutputSettings& output, const ResultFiles::Writer& writer,
                          const StopRequest& stop, nlohmann::json& envelope) {
    WrittenResult w;
    const fs::path out = output.directory();
    std::vector<std::string>& leftOut = w.leftOut;
    const auto tooLarge = [&](std::size_t bytes) {
        return stop.requested() && bytes > StopRequest::kStoppedRunBytes;
    };
    try {
        const auto now = output.clock ? output.clock() : std::chrono::system_clock::now();
        w.folder = createRunFolder(out, name, runStamp(now));
        const fs::path& dir = w.folder;
        ResultFiles files(dir, writer);
        for (const ResultTable& t : r.tables) {
            const std::string file = name + t.suffix + ".csv";
            try {
                files.write(file,
                            t.table.toString(stop.predicateBeyond(t.table.rowCount()), comments));
            } catch (const testchain::Stopped&) {
                leftOut.push_back(leftOutNote(file, fmt::format("{} rows", t.table.rowCount())));
            }
        }
        Renderings rendered;
        for (const ResultPlot& p : r.plots) {
            if (tooLarge(p.script.dataSize())) {
                leftOut.push_back(leftOutNote(name + p.suffix + ".gp",
                                              fmt::format("{} bytes", p.script.dataSize())));
                continue;
            }
            stagePlot(files, p, name, r.verdict,
                      verdictTextColour(verdictClassOfName(envelope.value("verdict_class", ""))),
                      noRenderReason(output, stop), dir.string(), rendered);
        }
        for (const ResultFile& f : r.files) {
            if (tooLarge(f.content.size())) {
                leftOut.push_back(
                    leftOutNote(name + f.suffix, fmt::format("{} bytes", f.content.size())));
                continue;
            }
            stageFile(files, f, name, noRenderReason(output, stop), dir.string(), rendered);
        }
        w.remarks = std::move(rendered.remarks);
        for (const std::string& note : leftOut)
            envelope["warnings"].push_back(note);
        // The envelope is the manifest: written last, it lists every file of the set.
        const std::string manifest = name + ".json";
        const std::string pageFile = name + ".html";
        // names staged so far plus the page and the manifest itself
        std::vector<std::string> names = files.staged();
        names.push_back(pageFile);
        names.push_back(manifest);
        envelope["files"] = names;
        const std::vector<PageFile> listed = pageFiles(files, pageFile, manifest);
        const std::string page =
            HtmlPage::resultPage(name, envelope, r.text, rendered.pictures, listed);
        files.write(pageFile, page);
        // the folder's own page, so that `latest/` opens the newest result (not in the manifest)
        files.write("index.html", page);
        files.write(manifest, envelope.dump(2) + "\n");
        w.written = files.commit(manifest);
    } catch (const std::exception& e) {
        w.writeError = Reporter::oneLine(e.what());
        if (!w.folder.empty()) {
            std::error_code ec;
            fs::remove_all(w.folder, ec);  // made by this run, for this run alone
            w.folder.clear();
        }
        return w;
    }
    announceRun(out, writer, w);
    return w;
}

/// `p` as the terminal shows a folder: with a trailing '/'.
std::string folderText(const fs::path& p) {
    std::string d = p.string();
    if (!d.empty() && d.back() != '/') d += '/';
    return d;
}

/// Where the files went, and how to render what was not rendered.
void printFiles(std::ostream& info, const fs::path& out, const WrittenResult& w) {
    const std::string d = folderText(w.folder);
    fmt::print(info, "Results in {}:", d);
    for (const std::string& file : w.written)
        fmt::print(info, " {}", file);
    fmt::print(info, "\n");
    for (const std::string& rm : w.remarks)
        fmt::print(info, "  note: {}\n", rm);
    if (w.indexWritten)
        fmt::print(info, "Page: {}index.html (every run: {}index.html)\n", d, folderText(out));
    else
        fmt::print(info, "Page: {}index.html\n", d);
}

}  // namespace

Reporter::Reporter(const OutputSettings& output, std::ostream& out, std::ostream& err,
                   ResultFiles::Writer writer)
    : output_(output), out_(out), err_(err), writer_(std::move(writer)) {}

std::string Reporter::baseName(const ModeResult& result) const {
    return output_.name.empty() ? result.name : output_.name;
}

std::string Reporter::oneLine(const std::string& s) {
    std::string r;
    for (unsigned char c : s) {
        if (c == '\n')
            r += "\\n";
        else if (c == '\r')
            r += "\\r";
        else if (c == '\t')
            r += "\\t";
        else if (c < 0x20 || c == 0x7f)
            r += fmt::format("\\x{:02x}", c);
        else
            r += static_cast<char>(c);
    }
    return r;
}

int Reporter::report(const ModeResult& r, const Invocation& inv, Environment& env,
                     const StopRequest& stop) {
    env.finish();
    const bool interrupted = stop.requested() || r.partial;
    int status = kExitMeasured;
    if (r.systemFailure)
        status = kExitSystemFailure;
    else if (interrupted)
        status = stop.exitCode() ? stop.exitCode() : kExitInterrupted;

    const std::string name = baseName(r);
    const std::vector<std::string> warnings = warningsOf(r);
    nlohmann::json envelope = envelopeOf(r, warnings, inv, env, interrupted, status);
    // what the verdict means, coloured alike in the pictures and on the page
    const VerdictFacts facts{r.systemFailure, r.overload, !warnings.empty(),
                             inv.measures && env.busy(), interrupted};
    const VerdictClass verdictClass = verdictClassOf(facts);
    envelope["verdict_class"] = std::string(verdictClassName(verdictClass));
    std::optional<CheckReport> checks;
    if (!inv.checks.empty()) {
        checks = evaluateChecks(inv.checks, r.result,
                                inv.measures && env.busy() ? env.busyWarning() : "", inv.busyPolicy,
                                inv.checkBaseline);
        envelope["checks"] = checks->json();
        if (checks->failed() && status == kExitMeasured) status = kExitCheckFailed;
        envelope["exit_status"] = status;
    }
    const WrittenResult w = writeResult(r, name, csvComments(r, inv, env, interrupted), output_,
                                        writer_, stop, envelope);
    if (!w.writeError.empty()) {
        envelope["files"] = nlohmann::json::array();
        if (status == kExitMeasured || status == kExitCheckFailed) status = kExitWriteFailure;
        envelope["exit_status"] = status;
    }

    std::ostream& info = output_.json ? err_ : out_;
    if (output_.json) {
        out_ << envelope.dump() << '\n';
    } else {
        for (const std::string& line : r.text)
            fmt::print(out_, "{}\n", oneLine(line));
        if (!r.verdict.empty()) {
            const std::string line = "Verdict: " + oneLine(r.verdict);
            fmt::print(out_, "{}\n", output_.colour ? terminalColoured(line, verdictClass) : line);
        }
    }
    if (checks)
        for (const std::string& line : checks->lines())
            fmt::print(info, "{}\n", oneLine(line));
    for (const std::string& warning : warnings)
        fmt::print(info, "warning: {}\n", oneLine(warning));
    for (const std::string& warning : w.leftOut)
        fmt::print(info, "warning: {}\n", oneLine(warning));
    for (const std::string& f : r.failures)
        fmt::print(info, "FAILED: {}\n", oneLine(f));
    if (const std::string busy = env.busyWarning(); !busy.empty() && inv.measures)
        fmt::print(info, "note: {}\n", busy);
    if (interrupted)
        fmt::print(info,
                   "Interrupted: the result above covers what was measured until the stop "
                   "and is marked partial.\n");
    if (w.writeError.empty())
        printFiles(info, output_.directory(), w);
    else
        fmt::print(err_, "stressrig: {}; no result files were written\n", w.writeError);
    return status;
}

}  // namespace pullsched::rig
