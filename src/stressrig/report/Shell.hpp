#pragma once
// The rig renders with external tools (gnuplot, dot) through the shell; these keep
// paths with spaces or quotes from breaking the command line.

#include <string>
#include <string_view>

namespace pullsched::rig {

/// `s` in single quotes for /bin/sh, with embedded single quotes escaped.
std::string shellQuote(std::string_view s);

/// Whether `program` is on the PATH (`command -v`).
bool commandAvailable(std::string_view program);

}  // namespace pullsched::rig
