#pragma once
// What a mode hands to the reporter: its report, its data and pictures, and its verdict.
// Modes never print and never write files; the Reporter does both, the same way for all.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/CsvTable.hpp"
#include "report/GnuplotScript.hpp"

namespace pullsched::rig {

/// A CSV file of the result: `<name><suffix>.csv`.
struct ResultTable {
    std::string suffix;  ///< "" for `<name>.csv`, "-reps" for `<name>-reps.csv`
    CsvTable table;      ///< its own `# key: value` comments win over the configuration's
};

/// A Gnuplot script `<name><suffix>.gp`, rendered to `<name><suffix>.png`.
struct ResultPlot {
    std::string suffix;
    GnuplotScript script;
};

/// Any other file: `<name><suffix>` (the suffix carries the extension).
struct ResultFile {
    enum class Kind {
        Text,  ///< written as is (trace JSON, .hgrm, ...)
        Dot,   ///< Graphviz; also rendered to an .svg beside it
    };
    std::string suffix;  ///< e.g. ".dot", "-trace.json", "-open.hgrm"
    std::string content;
    Kind kind = Kind::Text;
};

/// The outcome of one mode run.
///
/// Missing values are missing: a number that could not be measured is NaN in tables
/// (an empty CSV cell), null in `result` and "n/a" in `text`, and never enters a mean.
/// Overload (deadline misses, drops) is a measurement and leaves systemFailure false;
/// systemFailure is for correctness failures of the system under test: a job lost or run
/// twice, a failed job, a hash mismatch on a run in which every job completed.
struct ModeResult {
    std::string name;                   ///< default base name of the files, e.g. "run-burst-64"
    std::vector<std::string> text;      ///< the text report, one line each (no '\n' inside)
    std::string verdict;                ///< one line: what the measurement says
    std::vector<std::string> warnings;  ///< e.g. "2 of 20 runs incomplete: excluded"
    bool systemFailure = false;         ///< exit 1
    std::vector<std::string> failures;  ///< why systemFailure, one line each
    bool partial = false;               ///< the mode stopped early on a stop request
    /// The verdict reports overload (deadline misses, drops, failing steps): the result
    /// stands (exit 0) but is coloured amber, not green (report/VerdictColour.hpp).
    bool overload = false;
    nlohmann::json result = nlohmann::json::object();  ///< the envelope's "result"
    nlohmann::json calibration = nullptr;              ///< the job body's calibration
    std::vector<ResultTable> tables;
    std::vector<ResultPlot> plots;
    std::vector<ResultFile> files;
};

}  // namespace pullsched::rig
