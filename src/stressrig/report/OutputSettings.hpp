#pragma once
// Where and how a result goes: the settings the Reporter reads. The command line fills
// them (cli/OutputOptions.hpp); the reporter does not know the command line.

#include <filesystem>
#include <string>

namespace pullsched::rig {

struct OutputSettings {
    std::string out = "out";  ///< directory of the result files
    std::string name;         ///< base name of the result files; the mode's default when empty
    bool json = false;        ///< the JSON envelope on stdout instead of the text report
    bool quiet = false;       ///< no progress on stderr
    bool noRender = false;    ///< write .gp / .dot but do not run gnuplot / dot
    bool noColor = false;     ///< --no-color: never colour the verdict line
    /// Colour the text report's verdict line: decided at start from whether stdout is a
    /// terminal, NO_COLOR and noColor (report/TerminalColour.hpp).
    bool colour = false;

    std::filesystem::path directory() const { return out; }
};

}  // namespace pullsched::rig
