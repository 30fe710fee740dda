#pragma once
// The lanes of a trace: each thread that ran jobs of a run gets a small number of its own,
// so that a viewer draws one row per thread whatever the backend calls its threads.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "pullsched/testchain/Duration.hpp"

namespace pullsched::rig {

/// Per job, the lane of the thread that ran it (`ranBy`, a default id for a job that did
/// not run: lane -1). Threads are numbered 0, 1, ... in the order they began their first
/// job (`began`, per job), so lane 0 is the thread that started the run.
inline std::vector<std::int32_t> threadLanes(std::span<const std::thread::id> ranBy,
                                             std::span<const testchain::Duration> began) {
    std::unordered_map<std::thread::id, testchain::Duration> first;
    for (std::size_t i = 0; i < ranBy.size(); ++i)
        if (ranBy[i] != std::thread::id{}) {
            const auto [it, added] = first.try_emplace(ranBy[i], began[i]);
            if (!added) it->second = std::min(it->second, began[i]);
        }
    std::vector<std::pair<testchain::Duration, std::thread::id>> order;
    for (const auto& [id, when] : first)
        order.emplace_back(when, id);
    std::sort(order.begin(), order.end());
    std::unordered_map<std::thread::id, std::int32_t> lane;
    for (std::size_t k = 0; k < order.size(); ++k)
        lane.emplace(order[k].second, static_cast<std::int32_t>(k));
    std::vector<std::int32_t> lanes(ranBy.size(), -1);
    for (std::size_t i = 0; i < ranBy.size(); ++i)
        if (ranBy[i] != std::thread::id{}) lanes[i] = lane.at(ranBy[i]);
    return lanes;
}

}  // namespace pullsched::rig
