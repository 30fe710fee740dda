#pragma once
// The scheduler backends the rig can compare, by name (--backends=...): one entry per
// backend, holding its name, capabilities and its runner factories; and, for
// --mode=spawn, the further recursion idioms of a backend (BackendInfo::recursionVariants).

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "backends/BackendInfo.hpp"
#include "backends/GraphRunner.hpp"
#include "backends/RecursionRunner.hpp"
#include "backends/StreamRunner.hpp"

namespace pullsched::rig {

class BackendRegistry {
  public:
    static constexpr std::string_view kDefault = "pullsched";

    /// Every backend, in comparison order (pullsched first).
    static std::span<const BackendInfo> all() noexcept;
    static std::vector<std::string> names();
    /// Throws std::invalid_argument naming the known backends for an unknown name.
    static const BackendInfo& find(std::string_view name);
    /// The backend's graph / arrival-stream runner. Throws std::invalid_argument for an
    /// unknown name or a backend without that capability.
    static std::unique_ptr<GraphRunner> graphRunner(std::string_view name);
    static std::unique_ptr<StreamRunner> streamRunner(std::string_view name);
    /// The runner of work its jobs create (RecursionRunner.hpp) of a backend or of one of
    /// its recursionVariants. Throws std::invalid_argument for an unknown name or a backend
    /// without that capability.
    static std::unique_ptr<RecursionRunner> recursionRunner(std::string_view name);
    /// What --mode=spawn runs, in comparison order: each backend's own idiom under its
    /// name, its recursionVariants right after it ("pullsched", "pullsched-coro", "tbb",
    /// ...). The other modes know only names().
    static std::vector<std::string> recursionNames();
    /// "a,b,c" or "all" → names in the order given (duplicates removed). Throws
    /// std::invalid_argument for an unknown or empty name.
    static std::vector<std::string> parseList(std::string_view list);
    /// parseList() over recursionNames(): --mode=spawn's --backends.
    static std::vector<std::string> parseRecursionList(std::string_view list);
};

}  // namespace pullsched::rig
