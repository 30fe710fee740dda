#pragma once
// Bad input from the user: main() prints what() and exits with code 2.

#include <stdexcept>

namespace pullsched::rig {

/// Thrown for anything the user got wrong (unknown option, invalid value, unknown
/// pattern or mode, malformed rules, an output directory that cannot be created).
/// what() is the complete message, naming the offending option or value.
class UsageError : public std::invalid_argument {
  public:
    using std::invalid_argument::invalid_argument;
};

}  // namespace pullsched::rig
