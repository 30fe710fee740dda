#pragma once
// The text report's verdict line in the verdict's colour (green ok, amber caveat, red
// failure), as ANSI escapes, only where a person reads it: stdout is a terminal, NO_COLOR
// is unset or empty (the no-color.org convention) and --no-color was not given. A pipe, a
// file or a log never gets escape sequences.

#include <string>
#include <string_view>

#include "report/VerdictColour.hpp"

namespace pullsched::rig {

/// Whether to colour: `stdoutIsTerminal` (isatty), `noColorValue` (getenv("NO_COLOR"),
/// nullptr when unset) and the --no-color option, passed in so a test can decide them.
bool terminalColourWanted(bool stdoutIsTerminal, const char* noColorValue, bool noColorOption);

/// `line` in the terminal colour of `c`, reset at its end.
std::string terminalColoured(std::string_view line, VerdictClass c);

}  // namespace pullsched::rig
