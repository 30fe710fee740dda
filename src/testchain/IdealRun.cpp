#include "pullsched/testchain/IdealRun.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <stdexcept>
#include <utility>
#include <vector>

namespace pullsched::testchain {

IdealRunResult idealRun(const TestChainGraph& graph, const LevelSchedule& schedule,
                        WeightPolicy policy, std::size_t workers, Duration timeBase,
                        bool deadlines) {
    if (workers == 0) throw std::invalid_argument("idealRun: workers must be > 0");
    const std::size_t n = graph.size();
    using Timed = std::pair<Duration, std::size_t>;  // (time, node): ordered by time, then index
    using MinHeap = std::priority_queue<Timed, std::vector<Timed>, std::greater<>>;

    std::vector<std::size_t> missing(n);  // predecessors not yet taken by a worker
    std::vector<Duration> readyAt(n);     // start, raised to each predecessor's end
    MinHeap waiting;                      // all predecessors taken: (ready time, node)
    MinHeap runnable;                     // ready at the current time: (start, node)
    for (std::size_t i = 0; i < n; ++i) {
        missing[i] = graph.node(i).predecessors().size();
        readyAt[i] = schedule.nodeStart(i);
        if (missing[i] == 0) waiting.push({readyAt[i], i});
    }
    // Busy workers as the times they are free again; the rest are idle. Time jumps from
    // event to event: a worker gets free, or (with one idle) a waiting job gets ready.
    std::priority_queue<Duration, std::vector<Duration>, std::greater<>> busyUntil;
    std::size_t idle = workers;

    IdealRunResult result;
    Duration now{0};
    std::size_t taken = 0;
    while (taken < n) {
        // Every job not taken yet hangs on one in `waiting` or `runnable` (a job enters
        // `waiting` when its last predecessor is taken), so an event always exists.
        Duration next = Duration::max();
        if (!busyUntil.empty()) next = busyUntil.top();
        if (idle > 0 && !waiting.empty()) next = std::min(next, waiting.top().first);
        now = std::max(now, next);
        // Zero-weight jobs end at once and may free a worker and ready a job at `now`.
        for (;;) {
            while (!busyUntil.empty() && busyUntil.top() <= now) {
                busyUntil.pop();
                ++idle;
            }
            while (!waiting.empty() && waiting.top().first <= now) {
                const std::size_t i = waiting.top().second;
                waiting.pop();
                runnable.push({schedule.nodeStart(i), i});
            }
            if (idle == 0 || runnable.empty()) break;
            const std::size_t i = runnable.top().second;
            runnable.pop();
            --idle;
            ++taken;
            if (deadlines && now > schedule.nodeDeadline(i)) ++result.expired;
            const auto weight =
                static_cast<Duration::rep>(effectiveWeight(graph.node(i).weight, policy));
            const Duration end = now + weight * timeBase;
            result.end = std::max(result.end, end);
            busyUntil.push(end);
            for (const std::uint32_t s : graph.node(i).successors()) {
                readyAt[s] = std::max(readyAt[s], end);
                if (--missing[s] == 0) waiting.push({readyAt[s], s});
            }
        }
    }
    return result;
}

}  // namespace pullsched::testchain
