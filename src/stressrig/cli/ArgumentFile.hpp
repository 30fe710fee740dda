#pragma once
// A small text file named on the command line (`--rules=@FILE`, `--stages=@FILE`,
// `--check=@FILE`), read safely: never a FIFO, device or directory, never more than a bound.

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace pullsched::rig {

/// The whole content of `file`. UsageError, starting with `what` (e.g. "invalid
/// --rules=@x.txt") and naming `kind` (e.g. "a rules file"), when it cannot be read, is
/// not a regular file or holds more than `maxBytes`.
std::string readArgumentFile(const std::filesystem::path& file, std::string_view what,
                             std::string_view kind, std::size_t maxBytes);

}  // namespace pullsched::rig
