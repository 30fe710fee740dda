#pragma once
// The share of a run's jobs that its busiest thread ran. A dispatch cost measured while one
// thread ran the whole graph is that thread's cost per job, not what the backend pays to
// spread the work over its workers: the granularity mode reports the share beside the cost.

#include <algorithm>
#include <cstddef>
#include <span>
#include <thread>
#include <vector>

namespace pullsched::rig {

/// Of the jobs in `ranBy` (per job, the thread that ran it; a default id for a job that
/// did not run), the share the busiest thread ran: 1 when one thread ran them all, 1/P when
/// P threads ran the same number. 0 when no job ran.
inline double busiestThreadShare(std::span<const std::thread::id> ranBy) {
    std::vector<std::thread::id> ids;
    ids.reserve(ranBy.size());
    for (const std::thread::id& id : ranBy)
        if (id != std::thread::id{}) ids.push_back(id);
    if (ids.empty()) return 0;
    std::sort(ids.begin(), ids.end());
    std::size_t most = 0;
    for (auto run = ids.begin(); run != ids.end();) {
        const auto next = std::upper_bound(run, ids.end(), *run);
        most = std::max(most, static_cast<std::size_t>(next - run));
        run = next;
    }
    return static_cast<double>(most) / static_cast<double>(ids.size());
}

}  // namespace pullsched::rig
