#include "measure/LatencyRecorder.hpp"

#include <chrono>

namespace pullsched::rig {

LatencyRecorder::LatencyRecorder(unsigned workers) {
    slots_.reserve(workers);
    for (unsigned i = 0; i < workers; ++i)
        slots_.push_back(std::make_unique<Slot>());
}

void LatencyRecorder::onJobStart(unsigned worker, const pullsched::JobEvent& e) {
    if (worker >= slots_.size()) return;
    Slot& s = *slots_[worker];
    s.started.fetch_add(1, std::memory_order_relaxed);
    if (!(e.tag & kMeasuredTag) || e.scheduledStart == pullsched::kAsap) return;
    const auto late =
        std::chrono::duration_cast<std::chrono::nanoseconds>(e.now - e.scheduledStart);
    std::lock_guard lock(s.mutex);
    s.histogram.record(late);
}

void LatencyRecorder::harvest(LatencyHistogram& into) {
    for (auto& s : slots_) {
        std::lock_guard lock(s->mutex);
        into.merge(s->histogram);
        s->histogram.reset();
    }
}

std::uint64_t LatencyRecorder::started() const noexcept {
    std::uint64_t n = 0;
    for (auto& s : slots_)
        n += s->started.load(std::memory_order_relaxed);
    return n;
}

}  // namespace pullsched::rig
