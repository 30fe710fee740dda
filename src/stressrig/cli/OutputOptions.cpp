#include "cli/OutputOptions.hpp"

#include <fmt/format.h>

#include "cli/UsageError.hpp"

namespace pullsched::rig {

void OutputOptions::declare(OptionTable& t) {
    t.group("Output");
    t.text("out", out, "DIR", "directory for the result files", [](const std::string& s) {
        if (s.find_first_not_of(" \t") == std::string::npos)
            throw UsageError("invalid --out: empty directory name");
        return s;
    });
    t.text("name", name, "NAME", "base name of the result files (default: per mode)",
           [](const std::string& s) {
               if (s.empty() || s.find('/') != std::string::npos || s == "." || s == "..")
                   throw UsageError(fmt::format("invalid --name='{}': a plain file name stem", s));
               return s;
           });
    t.flag("json", json, "print the JSON result envelope on stdout instead of the text report");
    t.flag("quiet", quiet, "no progress lines on stderr");
    t.flag("no-render", noRender, "do not run gnuplot / dot (the scripts are still written)");
}

}  // namespace pullsched::rig
