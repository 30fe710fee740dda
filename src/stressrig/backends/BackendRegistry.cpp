#include "backends/BackendRegistry.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "backends/BackendFactories.hpp"

namespace pullsched::rig {

namespace {

constexpr std::array kPullschedVariants{
    RecursionVariant{.name = "pullsched-coro",
                     .makeRunner = &makePullschedCoroutineRecursionRunner},
};

constexpr std::array kBackends{
    BackendInfo{
        .name = "pullsched",
        .summary = "this project's work-pulling, time-based scheduler (default)",
        .startTimes = StartTimes::Native,
        .instrumented = true,
        .deadlines = true,
        .placement = true,
        .submitsPrebuiltBatch = true,
        .graphStartTimesText =
            "native: every node job is posted with its start time and released by its last "
            "predecessor, not before it; as fast as possible: posted untimed behind a gate, "
            "the posting not timed",
        .streamStartTimesText =
            "native: each job is posted ahead with its intended start as its start time; the "
            "scheduler releases it then",
        .makeGraphRunner = &makePullschedGraphRunner,
        .makeStreamRunner = &makePullschedStreamRunner,
        .makeRecursionRunner = &makePullschedRecursionRunner,
        .recursionVariants = kPullschedVariants,
    },
    BackendInfo{
        .name = "tbb",
        .summary = "oneTBB flow graph: continue_node per node, arena of the worker count",
        .startTimes = StartTimes::HeldByRig,
        .graphStartTimesText =
            "wait in job: the flow graph has no timed start, so a node's body sleeps until "
            "200 us before its start, then spins, holding its thread (counted as start wait)",
        .streamStartTimesText = "generator posts: no timed start; the generator thread calls "
                                "task_arena::enqueue at the arrival time",
        .makeGraphRunner = &makeTbbGraphRunner,
        .makeStreamRunner = &makeTbbStreamRunner,
        .makeRecursionRunner = &makeTbbRecursionRunner,
    },
    BackendInfo{
        .name = "openmp",
        .summary = "OpenMP tasks with depend clauses (libgomp)",
        .startTimes = StartTimes::HeldByRig,
        .buildsGraphEveryRun = true,
        .graphStartTimesText =
            "wait in job: OpenMP tasks have no timed start, so a task sleeps until 200 us "
            "before its start, then spins, holding its thread (counted as start wait)",
        .streamStartTimesText =
            "generator posts: no timed start; at the arrival time the generator hands the job "
            "to the parallel region's single thread, which creates an OpenMP task",
        .makeGraphRunner = &makeOpenMpGraphRunner,
        .makeStreamRunner = &makeOpenMpStreamRunner,
        .makeRecursionRunner = &makeOpenMpRecursionRunner,
    },
    BackendInfo{
        .name = "asio",
        .summary = "Boost.Asio thread_pool; steady_timer for timed starts",
        .startTimes = StartTimes::Native,
        .buildsGraphEveryRun = true,
        .graphStartTimesText = "native: a ready job whose start is ahead waits on a "
                               "steady_timer, which posts it at its start",
        .streamStartTimesText =
            "native: each job waits on a steady_timer armed ahead for its intended start",
        .makeGraphRunner = &makeAsioGraphRunner,
        .makeStreamRunner = &makeAsioStreamRunner,
        .makeRecursionRunner = &makeAsioRecursionRunner,
    },
    BackendInfo{
        .name = "pool",
        .summary =
            "a mutex + condition-variable FIFO pool with atomic predecessor counts: the floor",
        .startTimes = StartTimes::HeldByRig,
        .buildsGraphEveryRun = true,
        .graphStartTimesText =
            "wait in job: a dequeued job whose start is ahead sleeps until 200 us before it, "
            "then spins, holding its thread (counted as start wait)",
        .streamStartTimesText = "generator posts: no timed start; the generator thread pushes "
                                "the job into the FIFO at the arrival time",
        .makeGraphRunner = &makePoolGraphRunner,
        .makeStreamRunner = &makePoolStreamRunner,
        .makeRecursionRunner = &makePoolRecursionRunner,
    },
};

std::string knownList(const std::vector<std::string>& known) {
    std::string s;
    for (const std::string& name : known) {
        if (!s.empty()) s += ", ";
        s += name;
    }
    return s;
}

/// "a,b,c" or "all" → names of `known` in the order given (duplicates removed).
std::vector<std::string> parseNames(std::string_view list, const std::vector<std::string>& known) {
    if (list == "all") return known;
    std::vector<std::string> out;
    std::size_t from = 0;
    for (;;) {
        const std::size_t comma = list.find(',', from);
        const std::string_view item = list.substr(
            from, comma == std::string_view::npos ? std::string_view::npos : comma - from);
        if (item.empty())
            throw std::invalid_argument("empty backend name in '" + std::string(list) +
                                        "' (known: " + knownList(known) + ", or all)");
        if (item == "all")
            throw std::invalid_argument("'all' cannot be combined with other backend names");
        if (std::find(known.begin(), known.end(), item) == known.end())
            throw std::invalid_argument("unknown backend '" + std::string(item) +
                                        "' (known: " + knownList(known) + ", or all)");
        if (std::find(out.begin(), out.end(), item) == out.end()) out.emplace_back(item);
        if (comma == std::string_view::npos) break;
        from = comma + 1;
    }
    return out;
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

const BackendInfo& BackendRegistry::find(std::string_view name) {
    for (const BackendInfo& b : kBackends)
        if (b.name == name) return b;
    throw std::invalid_argument("unknown backend '" + std::string(name) +
                                "' (known: " + knownList(names()) + ", or all)");
}

std::unique_ptr<GraphRunner> BackendRegistry::graphRunner(std::string_view name) {
    const BackendInfo& b = find(name);
    if (!b.runsGraphs())
        throw std::invalid_argument("backend '" + std::string(name) + "' cannot run graphs");
    return b.makeGraphRunner(b);
}

std::unique_ptr<StreamRunner> BackendRegistry::streamRunner(std::string_view name) {
    const BackendInfo& b = find(name);
    if (!b.runsStreams())
        throw std::invalid_argument("backend '" + std::string(name) +
                                    "' cannot run arrival streams");
    return b.makeStreamRunner(b);
}

std::unique_ptr<RecursionRunner> BackendRegistry::recursionRunner(std::string_view name) {
    for (const BackendInfo& b : kBackends)
        for (const RecursionVariant& v : b.recursionVariants)
            if (v.name == name) return v.makeRunner(b);
    const BackendInfo& b = find(name);
    if (!b.runsRecursion())
        throw std::invalid_argument("backend '" + std::string(name) +
                                    "' cannot run work that its jobs create");
    return b.makeRecursionRunner(b);
}

std::vector<std::string> BackendRegistry::recursionNames() {
    std::vector<std::string> out;
    for (const BackendInfo& b : kBackends) {
        if (b.runsRecursion()) out.emplace_back(b.name);
        for (const RecursionVariant& v : b.recursionVariants)
            out.emplace_back(v.name);
    }
    return out;
}

std::vector<std::string> BackendRegistry::parseList(std::string_view list) {
    return parseNames(list, names());
}

std::vector<std::string> BackendRegistry::parseRecursionList(std::string_view list) {
    return parseNames(list, recursionNames());
}

}  // namespace pullsched::rig
