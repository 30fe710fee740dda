#pragma once
// Where and how results go; the same for every mode, declared by the command line.

#include <cstddef>
#include <string_view>

#include "cli/OptionTable.hpp"
#include "report/OutputSettings.hpp"

namespace pullsched::rig {

/// Longest --name: the files add suffixes such as "-timeseries.csv" to it.
inline constexpr std::size_t kMaxNameLength = 100;

/// Whether `name` may be a result's base name: 1..kMaxNameLength of [A-Za-z0-9._+-], not
/// starting with '.' (hidden, "..") or '-' (read as an option by tools).
bool safeResultName(std::string_view name);

/// The output settings as command-line options: --out, --name, --json, --quiet, --no-render,
/// --no-color.
struct OutputOptions : OutputSettings {
    void declare(OptionTable& t);
};

}  // namespace pullsched::rig
