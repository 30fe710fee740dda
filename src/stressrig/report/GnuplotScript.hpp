#pragma once
// Self-contained Gnuplot scripts (data inlined) for the rig's tables, and rendering
// them when gnuplot is installed.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/LinearRegression.hpp"
#include "report/CsvTable.hpp"

namespace pullsched::rig {

struct PlotOptions {
    std::string title{};
    std::string xLabel{};  ///< default: the x column's name
    std::string yLabel{};  ///< default: the y column's name if there is only one
    std::string y2Label{};
    int width = 1200;  ///< picture size in pixels
    int height = 800;
    /// Gnuplot style for the generic layouts; default "points" for time plots,
    /// "linespoints" for table plots.
    std::string style{};
    bool logX = false;
    bool logY = false;
    /// x tics this far apart, with room beside the first and last x (0: gnuplot's
    /// choice). For categories numbered 1, 2, ... (backends), 1.
    double xTicStep = 0;
    /// One line under the title saying what the picture shows (wrapped when long); the
    /// Reporter fills in the mode's verdict where a layout left it empty.
    std::string verdict{};
    /// Characters a title line may take before it wraps; 0: as many as the picture's width
    /// holds. Gnuplot centres the title over the plot area, so a layout with a wide left
    /// margin needs fewer.
    std::size_t titleWrap = 0;
};

/// Column names the parameter-series layout reads (the published CSV header).
struct SeriesColumns {
    std::string x = "load size";
    std::string result = "result time";
    std::string concurrency = "concurrency";
    std::string jobtime = "avg jobtime";
};

/// A Gnuplot script whose data travel with it: the table (with its `# key: value`
/// configuration comments) is inlined as the datablock `$RunData`, read with
/// `set datafile separator ",;"` and `set key autotitle columnheader`, so the script
/// renders anywhere with a plain `gnuplot file.gp`.
///
/// The terminal is chosen when the script runs, from GPVAL_TERMINALS: pngcairo if
/// the gnuplot has it, else png, else svg (the picture then gets the extension .svg).
/// Terminals are `noenhanced`, so '_' in column names stays literal. A relative
/// picture name is relative to gnuplot's working directory; render() and
/// tools/plot/render-all.sh run gnuplot in the script's directory.
///
/// Plotted columns must be numeric (std::invalid_argument otherwise); unknown
/// column names throw std::out_of_range naming the column.
class GnuplotScript {
  public:
    /// Two-row multiplot. Top: scatter of `result` over `x` with the regression line
    /// and its `Model: a·p + b` legend. Bottom: `concurrency` as impulses (left axis)
    /// and `jobtime` as points on the second y axis. An `idealGradient` (result per x)
    /// is drawn as a second line through the model's socket, so the slopes compare.
    static GnuplotScript parameterSeries(const CsvTable& data, const LinearRegression& model,
                                         PlotOptions options = {}, SeriesColumns columns = {},
                                         std::optional<double> idealGradient = {});
    /// Same, fitting the regression from the table's x and result columns.
    static GnuplotScript parameterSeries(const CsvTable& data, PlotOptions options = {},
                                         SeriesColumns columns = {});
    /// Single run over time: each y column against the x (time) column.
    static GnuplotScript timePlot(const CsvTable& data, const std::string& xColumn,
                                  const std::vector<std::string>& yColumns,
                                  PlotOptions options = {});
    /// Generic table: y columns on the first axis, y2 columns on the second. `stop` as for
    /// CsvTable::write(), while the table is inlined.
    static GnuplotScript tablePlot(const CsvTable& data, const std::string& xColumn,
                                   const std::vector<std::string>& yColumns,
                                   const std::vector<std::string>& y2Columns = {},
                                   PlotOptions options = {},
                                   const testchain::StopPredicate& stop = {});

    /// Any layout: `commands` plot `$RunData` (the table inlined) however they like.
    /// For pictures the fixed layouts above do not cover (lanes, timelines). Where the
    /// commands write kTitle (e.g. `set title @TITLE@`), text() puts the title and the
    /// verdict line as a Gnuplot string.
    /// `stop` as for tablePlot().
    static GnuplotScript custom(const CsvTable& data, std::string commands,
                                PlotOptions options = {},
                                const testchain::StopPredicate& stop = {});

    /// Stands for the quoted title (+ verdict) in a layout's commands.
    static constexpr const char* kTitle = "@TITLE@";

    /// The complete script writing to `picture` (an svg fallback replaces its extension).
    /// `verdict` is shown under the title unless the options carry their own; with a
    /// verdict line, the title is drawn in `verdictColour` (e.g. "#2e7d32") if given.
    std::string text(const std::filesystem::path& picture, const std::string& verdict = {},
                     std::string_view verdictColour = {}) const;
    /// The title as a Gnuplot string: single-quoted without a verdict, else a
    /// double-quoted "title\nverdict" with the verdict wrapped at `wrap` characters.
    static std::string titleGp(const std::string& title, const std::string& verdict,
                               std::size_t wrap = 150);
    const PlotOptions& options() const noexcept { return options_; }
    /// The same picture as one part of a larger result (one backend of several): `part`
    /// leads the title, and a picture without a verdict line of its own shows
    /// `partVerdict` instead of the whole result's, so it says what it draws.
    void markAsPart(const std::string& part, const std::string& partVerdict);
    /// Bytes of the inlined data: what the script weighs beyond its few lines of commands.
    std::size_t dataSize() const noexcept { return data_.size(); }
    /// Writes the script; picture defaults to `<gp stem>.png` next to it (written as a
    /// relative name, so the directory can be moved). Returns the picture path as
    /// written into the script. Throws std::runtime_error on I/O errors.
    std::filesystem::path write(const std::filesystem::path& gpFile,
                                std::filesystem::path picture = {}) const;

    struct RenderResult {
        bool rendered = false;
        std::filesystem::path picture;  ///< the picture made (resolved against the gp dir)
        std::string message;            ///< what happened / how to render by hand
    };
    /// `command -v gnuplot`.
    static bool gnuplotAvailable();
    /// Runs gnuplot on the script in the script's directory. rendered is true only if
    /// gnuplot succeeded and one of the script's `set output` files was (re)written
    /// and is non-empty. Without gnuplot, message says how to render it later.
    static RenderResult render(const std::filesystem::path& gpFile);
    /// "gnuplot <file>" (run in the script's directory).
    static std::string renderHint(const std::filesystem::path& gpFile);

    /// Gnuplot single-quoted string literal ('' escapes a quote).
    static std::string quoteGp(const std::string& s);
    /// Gnuplot double-quoted string literal; '\n' in `s` becomes a line break.
    static std::string quoteGpLines(const std::string& s);

  private:
    GnuplotScript(std::string data, std::string commands, PlotOptions options)
        : data_(std::move(data)), commands_(std::move(commands)), options_(std::move(options)) {}

    std::string data_;      ///< the CSV text for the datablock
    std::string commands_;  ///< everything after the terminal setup
    PlotOptions options_;
};

}  // namespace pullsched::rig
