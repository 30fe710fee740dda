#pragma once
// Text as a double-quoted literal, the form Gnuplot's strings and Graphviz's labels share.

#include <string>

namespace pullsched::rig {

/// `s` in double quotes with '"' and '\' escaped by a backslash and a newline written as
/// "\n" (a line break to both Gnuplot and Graphviz).
std::string doubleQuoted(const std::string& s);

}  // namespace pullsched::rig
