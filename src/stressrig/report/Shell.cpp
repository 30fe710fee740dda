#include "report/Shell.hpp"

#include <cstdlib>

namespace pullsched::rig {

std::string shellQuote(std::string_view s) {
    std::string q = "'";
    for (char c : s) {
        if (c == '\'') {
            q += "'\\''";
        } else {
            q += c;
        }
    }
    return q + "'";
}

bool commandAvailable(std::string_view program) {
    const std::string cmd = "command -v " + shellQuote(program) + " >/dev/null 2>&1";
    return std::system(cmd.c_str()) == 0;
}

}  // namespace pullsched::rig
