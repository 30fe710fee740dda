#pragma once
// Where and how results go; the same for every mode, declared by the command line.

#include <filesystem>
#include <string>

#include "cli/OptionTable.hpp"

namespace pullsched::rig {

struct OutputOptions {
    std::string out = "out";  ///< directory of the result files
    std::string name;         ///< base name of the result files; the mode's default when empty
    bool json = false;        ///< the JSON envelope on stdout instead of the text report
    bool quiet = false;       ///< no progress on stderr
    bool noRender = false;    ///< write .gp / .dot but do not run gnuplot / dot

    void declare(OptionTable& t);
    std::filesystem::path directory() const { return out; }
};

}  // namespace pullsched::rig
