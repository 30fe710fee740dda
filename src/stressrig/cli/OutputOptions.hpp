#pragma once
// Where and how results go; the same for every mode, declared by the command line.

#include <filesystem>
#include <string>
#include <string_view>

#include "cli/OptionTable.hpp"

namespace pullsched::rig {

/// Longest --name: the files add suffixes such as "-timeseries.csv" to it.
inline constexpr std::size_t kMaxNameLength = 100;

/// Whether `name` may be a result's base name: 1..kMaxNameLength of [A-Za-z0-9._+-], not
/// starting with '.' (hidden, "..") or '-' (read as an option by tools).
bool safeResultName(std::string_view name);

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
