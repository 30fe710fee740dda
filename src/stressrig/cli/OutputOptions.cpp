#include "cli/OutputOptions.hpp"

#include <fmt/format.h>

#include "cli/UsageError.hpp"

namespace pullsched::rig {

bool safeResultName(std::string_view name) {
    // The name ends up in file names, shell commands for gnuplot and dot, HTML and CSV
    // comments: a small portable set keeps all of them plain.
    if (name.empty() || name.size() > kMaxNameLength || name[0] == '.' || name[0] == '-')
        return false;
    for (const char c : name) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-' || c == '+';
        if (!ok) return false;
    }
    return true;
}

void OutputOptions::declare(OptionTable& t) {
    t.group("Output");
    t.text("out", out, "DIR", "folder of the runs: each run's files go to DIR/<name>-<UTC time>/",
           [](const std::string& s) {
               if (s.find_first_not_of(" \t") == std::string::npos)
                   throw UsageError("invalid --out: empty directory name");
               return s;
           });
    t.text("name", name, "NAME",
           "base name of the result files (default: per mode); letters, digits and . _ - +",
           [](const std::string& s) {
               if (!safeResultName(s))
                   throw UsageError(fmt::format(
                       "invalid --name='{}': a file name stem of 1..{} letters, digits and "
                       ". _ - + that does not start with '.' or '-'",
                       s, kMaxNameLength));
               return s;
           });
    t.flag("json", json, "print the JSON result envelope on stdout instead of the text report");
    t.flag("quiet", quiet, "no progress lines on stderr");
    t.flag("no-render", noRender, "do not run gnuplot / dot (the scripts are still written)");
    t.flag("no-color", noColor,
           "no colour in the verdict line (it is coloured only on a terminal, and never "
           "with NO_COLOR set)");
}

}  // namespace pullsched::rig
