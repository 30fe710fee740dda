#pragma once
// Where a mode's results go: out/<name>.csv, .gp (+ picture), .dot (+ svg), written
// atomically, with the run configuration attached, and a summary of what was written.

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "report/CsvTable.hpp"
#include "report/GnuplotScript.hpp"
#include "legacy/RigOptions.hpp"
#include "report/Shell.hpp"

namespace pullsched::testchain {
class TestChainGraph;
}

namespace pullsched::rig {

/// One mode's output files. Construction creates `opt.out` (UsageError naming the
/// directory if that fails), so create the writer only after all input is validated:
/// bad input must leave nothing behind.
///
/// Files are named `<out>/<name><suffix>` where name = opt.name, or defaultName when
/// that is empty. Every file is written to a temporary name and renamed into place, so
/// a reader never sees half a file. Pictures are rendered when the tool is installed
/// and opt.render is set; otherwise the summary says how to render them.
class ReportWriter {
  public:
    using Comments = std::vector<std::pair<std::string, std::string>>;

    ReportWriter(const RigOptions& opt, std::string defaultName);

    const std::filesystem::path& directory() const noexcept { return dir_; }
    const std::string& name() const noexcept { return name_; }
    /// `<out>/<name><suffix>`, e.g. path(".csv").
    std::filesystem::path path(std::string_view suffix) const;

    /// Extra `key: value` lines for every later CSV (e.g. calibration, hash).
    void addConfiguration(std::string key, std::string value);
    /// The configuration comments: environmentInfo() + the options + added ones.
    Comments configuration() const;

    /// Adds the configuration comments (keeping comments the table already has) and
    /// writes `<name><suffix>.csv`. Returns the path.
    std::filesystem::path writeCsv(CsvTable& table, std::string_view suffix = {});
    /// Writes `<name><suffix>.gp` (picture `<name><suffix>.png`, or .svg when gnuplot
    /// lacks png) and renders it when gnuplot is installed and rendering is on.
    std::filesystem::path writePlot(const GnuplotScript& script, std::string_view suffix = {});
    /// Writes `<name><suffix>.dot` and `<name><suffix>.svg` when Graphviz is installed.
    std::filesystem::path writeDot(const testchain::TestChainGraph& graph,
                                   std::string_view suffix = {});
    /// Any other text file, `<name><suffix>` (suffix with extension, e.g. "-trace.json").
    std::filesystem::path writeText(std::string_view suffix, const std::string& content);
    /// Records a file written by someone else (e.g. --trace-json=FILE) for the summary.
    void noteWritten(const std::filesystem::path& file);

    /// Every file written, in order (pictures included).
    const std::vector<std::filesystem::path>& written() const noexcept { return written_; }
    /// Rendering remarks ("gnuplot is not installed; render later with: …").
    const std::vector<std::string>& remarks() const noexcept { return remarks_; }
    /// "Results in out/: a.csv a.gp a.png …" plus the remarks.
    void printSummary(std::ostream& os) const;

    /// Writes `file` through `fill` into `file.tmp.<pid>` and renames it into place.
    /// Throws std::runtime_error naming the file on I/O errors.
    static void writeAtomically(const std::filesystem::path& file,
                                const std::function<void(std::ostream&)>& fill);
    /// `command -v dot`.
    static bool graphvizAvailable();
    /// Renders a DOT file to `svg` with `dot -Tsvg`; false (with a remark) otherwise.
    static bool renderDot(const std::filesystem::path& dotFile, const std::filesystem::path& svg,
                          std::string* remark = nullptr);

  private:
    const RigOptions& opt_;
    std::filesystem::path dir_;
    std::string name_;
    Comments extra_;
    std::vector<std::filesystem::path> written_;
    std::vector<std::string> remarks_;
};


}  // namespace pullsched::rig
