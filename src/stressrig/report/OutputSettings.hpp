#pragma once
// Where and how a result goes: the settings the Reporter reads. The command line fills
// them (cli/OutputOptions.hpp); the reporter does not know the command line.

#include <chrono>
#include <filesystem>
#include <functional>
#include <string>

namespace pullsched::rig {

struct OutputSettings {
    std::string out = "out";  ///< holds a folder per run (report/RunFolders.hpp)
    std::string name;         ///< base name of the result files; the mode's default when empty
    bool json = false;        ///< the JSON envelope on stdout instead of the text report
    bool quiet = false;       ///< no progress on stderr
    bool noRender = false;    ///< write .gp / .dot but do not run gnuplot / dot
    bool noColor = false;     ///< --no-color: never colour the verdict line
    /// Colour the text report's verdict line: decided at start from whether stdout is a
    /// terminal, NO_COLOR and noColor (report/TerminalColour.hpp).
    bool colour = false;
    /// The time the run's folder is named after; the system clock when empty (tests set
    /// a fixed time to know the name).
    std::function<std::chrono::system_clock::time_point()> clock{};

    std::filesystem::path directory() const { return out; }
};

}  // namespace pullsched::rig
