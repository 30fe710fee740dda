#include "backends/RecursionRunner.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace pullsched::rig {

RecursionRun RecursionRunner::run(const RecursionShape& shape, const std::atomic<bool>& abandon) {
    return isLoop(shape) ? runLoopShape(shape, abandon) : runRecursion(shape, abandon);
}

RecursionRun RecursionRunner::runLoopShape(const RecursionShape& shape,
                                           const std::atomic<bool>& abandon) {
    const bool spins = shape.kind == RecursionKind::Loop1us;
    if (spins && microsecondUnits_ == 0)
        throw std::logic_error("loop1us: the microsecond of load is not set");
    RecursionRun r;
    if (abandon.load(std::memory_order_relaxed)) {
        r.abandoned = true;
        return r;
    }
    counters_.assign(shape.size, 0);  // untimed, so every run starts from 0
    const LoopWork work{counters_, spins ? microsecondUnits_ : 0};
    const auto t0 = std::chrono::steady_clock::now();
    runLoop(work);
    r.wall = std::chrono::duration_cast<testchain::Duration>(std::chrono::steady_clock::now() - t0);
    r.result = static_cast<std::uint64_t>(std::count(counters_.begin(), counters_.end(), 1u));
    return r;
}

}  // namespace pullsched::rig
