#include "measure/LatencyRecorder.hpp"

#include <algorithm>
#include <bit>
#include <functional>
#include <thread>

namespace pullsched::rig {

LatencyRecorder::LatencyRecorder(unsigned threads) {
    // Twice the threads keeps two workers off one stripe most of the time.
    const unsigned n = std::bit_ceil(std::clamp(2 * threads, 2u, 256u));
    stripes_.reserve(n);
    for (unsigned i = 0; i < n; ++i)
        stripes_.push_back(std::make_unique<Stripe>());
}

void LatencyRecorder::record(std::chrono::nanoseconds lateness) {
    const std::size_t h = std::hash<std::thread::id>{}(std::this_thread::get_id());
    // The hash of a thread id may be its address: mix so that neighbours spread.
    const std::size_t mixed = (h ^ (h >> 17) ^ (h >> 31)) * 0x9E3779B97F4A7C15ull;
    Stripe& s = *stripes_[(mixed >> 32) & (stripes_.size() - 1)];
    std::lock_guard lock(s.mutex);
    s.histogram.record(lateness);
}

void LatencyRecorder::harvest(LatencyHistogram& into) {
    for (auto& s : stripes_) {
        std::lock_guard lock(s->mutex);
        into.merge(s->histogram);
        s->histogram.reset();
    }
}

}  // namespace pullsched::rig
