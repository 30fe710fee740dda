#include "report/DoubleQuoted.hpp"

namespace pullsched::rig {

std::string doubleQuoted(const std::string& s) {
    std::string q = "\"";
    for (char c : s) {
        if (c == '\n') {
            q += "\\n";
            continue;
        }
        if (c == '"' || c == '\\') q += '\\';
        q += c;
    }
    return q + "\"";
}

}  // namespace pullsched::rig
