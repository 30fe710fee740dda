#pragma once
// The stressrig command line: `--mode` selects a mode, and the options that mode
// declares (plus the output options every mode has) are the only ones accepted.

#include <memory>
#include <string>
#include <vector>

#include "cli/CheckOptions.hpp"
#include "cli/OptionTable.hpp"
#include "cli/OutputOptions.hpp"
#include "modes/Mode.hpp"

namespace pullsched::rig {

/// A parsed command line. Not movable: the table's entries point into mode and output.
struct CommandLine {
    enum class Action { Run, Help, Version };
    Action action = Action::Run;
    bool modeGiven = false;  ///< --mode was on the command line (not the default)
    std::unique_ptr<Mode> mode;
    OutputOptions output;
    CheckOptions checkOptions;
    std::vector<Check> checks;     ///< parsed from --check, validated against the mode
    nlohmann::json checkBaseline;  ///< the stored result `F*baseline` conditions read
    OptionTable table;

    CommandLine() = default;
    CommandLine(const CommandLine&) = delete;
    CommandLine& operator=(const CommandLine&) = delete;
};

/// Parses and validates everything that can be checked without running. Throws
/// UsageError with one message naming the problem; nothing is written.
std::unique_ptr<CommandLine> parseCommandLine(const std::vector<std::string>& args);

/// --help: usage, modes, patterns, rules, units, outputs, exit codes, then the options of
/// `mode` by group. With --mode given: that mode's options first, then where the general
/// help is (`stressrig --help`).
std::string helpText(const CommandLine& cl);
/// --version: "stressrig (pullsched) 0.1.0, commit …, Release build".
std::string versionText();

}  // namespace pullsched::rig
