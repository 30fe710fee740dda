#pragma once
// The stressrig command line: Boost.Program_options -> RigOptions, and --help.

#include <string>
#include <vector>

#include "legacy/RigOptions.hpp"
#include "cli/UsageError.hpp"

namespace pullsched::rig {

struct ParsedCommandLine {
    bool help = false;  ///< --help: print helpText() and exit 0
    RigOptions options;
};

/// Parses and validates everything that can be checked without running: option names
/// and values (with units), the mode, the pattern, the rules (also `--rules=@FILE`),
/// and --trace-dump against the build. Throws UsageError with one message naming the
/// problem. Nothing is written.
ParsedCommandLine parseCommandLine(int argc, const char* const argv[]);
/// args without the program name.
ParsedCommandLine parseCommandLine(const std::vector<std::string>& args);

/// Checks an assembled RigOptions (also used by parseCommandLine). Throws UsageError.
void validateOptions(const RigOptions& opt);

/// The --help text: usage, every mode, pattern, the rule syntax, units, outputs, exit codes.
std::string helpText();

}  // namespace pullsched::rig
