#include "report/TerminalColour.hpp"

namespace pullsched::rig {

bool terminalColourWanted(bool stdoutIsTerminal, const char* noColorValue, bool noColorOption) {
    const bool noColorSet = noColorValue != nullptr && noColorValue[0] != '\0';
    return stdoutIsTerminal && !noColorSet && !noColorOption;
}

std::string terminalColoured(std::string_view line, VerdictClass c) {
    // SGR colours every terminal has: green, yellow (shown as amber / dark yellow), red
    std::string_view start = "\x1b[32m";
    if (c == VerdictClass::Caveat) start = "\x1b[33m";
    if (c == VerdictClass::Failure) start = "\x1b[1;31m";
    return std::string(start) + std::string(line) + "\x1b[0m";
}

}  // namespace pullsched::rig
