#pragma once
// The scheduler backends the rig can compare, by name (--backends=...).

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "backends/Backend.hpp"

namespace pullsched::rig {

struct BackendInfo {
    std::string_view name;
    std::string_view summary;  ///< one line for --help
    std::unique_ptr<Backend> (*make)();
};

class BackendRegistry {
  public:
    static constexpr std::string_view kDefault = "pullsched";

    /// Every backend, in comparison order (pullsched first).
    static std::span<const BackendInfo> all() noexcept;
    static std::vector<std::string> names();
    /// Throws std::invalid_argument naming the known backends for an unknown name.
    static std::unique_ptr<Backend> make(std::string_view name);
    /// "a,b,c" or "all" → names in the order given (duplicates removed). Throws
    /// std::invalid_argument for an unknown or empty name.
    static std::vector<std::string> parseList(std::string_view list);
};

}  // namespace pullsched::rig
