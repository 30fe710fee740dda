#include "backends/BackendRegistry.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "backends/BackendFactories.hpp"

namespace pullsched::rig {

namespace {

constexpr std::array kBackends{
    BackendInfo{"pullsched", "this project's work-pulling, time-based scheduler (default)",
                &makePullschedBackend},
    BackendInfo{"tbb", "oneTBB flow graph: continue_node per node, arena of the worker count",
                &makeTbbBackend},
    BackendInfo{"openmp", "OpenMP tasks with depend clauses (libgomp)", &makeOpenMpBackend},
    BackendInfo{"asio", "Boost.Asio thread_pool; steady_timer for timed starts", &makeAsioBackend},
    BackendInfo{"pool",
                "a mutex + condition-variable FIFO pool with atomic predecessor counts: the floor",
                &makePoolBackend},
};

std::string knownList() {
    std::string s;
    for (const BackendInfo& b : kBackends) {
        if (!s.empty()) s += ", ";
        s += b.name;
    }
    return s;
}

}  // namespace

std::span<const BackendInfo> BackendRegistry::all() noexcept {
    return kBackends;
}

std::vector<std::string> BackendRegistry::names() {
    std::vector<std::string> out;
    for (const BackendInfo& b : kBackends)
        out.emplace_back(b.name);
    return out;
}

std::unique_ptr<Backend> BackendRegistry::make(std::string_view name) {
    for (const BackendInfo& b : kBackends)
        if (b.name == name) return b.make();
    throw std::invalid_argument("unknown backend '" + std::string(name) +
                                "' (known: " + knownList() + ", or all)");
}

std::vector<std::string> BackendRegistry::parseList(std::string_view list) {
    if (list == "all") return names();
    std::vector<std::string> out;
    std::size_t from = 0;
    for (;;) {
        const std::size_t comma = list.find(',', from);
        const std::string_view item = list.substr(
            from, comma == std::string_view::npos ? std::string_view::npos : comma - from);
        if (item.empty())
            throw std::invalid_argument("empty backend name in '" + std::string(list) +
                                        "' (known: " + knownList() + ", or all)");
        if (item == "all")
            throw std::invalid_argument("'all' cannot be combined with other backend names");
        if (std::none_of(kBackends.begin(), kBackends.end(),
                         [&](const BackendInfo& b) { return b.name == item; }))
            throw std::invalid_argument("unknown backend '" + std::string(item) +
                                        "' (known: " + knownList() + ", or all)");
        if (std::find(out.begin(), out.end(), item) == out.end()) out.emplace_back(item);
        if (comma == std::string_view::npos) break;
        from = comma + 1;
    }
    return out;
}

}  // namespace pullsched::rig
