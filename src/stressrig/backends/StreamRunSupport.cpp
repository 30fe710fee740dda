#include "backends/StreamRunSupport.hpp"

#include <algorithm>
#include <thread>

#include "analysis/SampleStatistics.hpp"

namespace pullsched::rig {

using namespace std::chrono_literals;

Duration samplerInterval(Duration run) {
    return std::clamp<Duration>(run / 100, Duration{10ms}, Duration{1s});
}

void finishResources(LoadRunResult& r, const ProcessSnapshot& s0, const ProcessSnapshot& s1,
                     ProcessSampler& sampler) {
    sampler.stop();
    r.samples = sampler.samples();
    r.cpuPercent = ProcessSampler::cpuPercent(s0, s1);
    r.wall = std::chrono::duration_cast<Duration>(s1.wall - s0.wall);
    for (const auto& s : r.samples) {
        r.rssMaxBytes = std::max(r.rssMaxBytes, s.rssBytes);
        if (s.queueDepth > 0)
            r.maxBacklog = std::max(r.maxBacklog, static_cast<std::uint64_t>(s.queueDepth));
    }
}

double rateOver(std::uint64_t jobs, Duration span) {
    const double s = std::chrono::duration<double>(span).count();
    return s > 0 ? static_cast<double>(jobs) / s : kMissing;
}

bool sleepUntil(pullsched::TimePoint t, const StopRequest* stop) {
    const auto now = pullsched::SteadyClock::now();
    if (t <= now) return stop && stop->requested();
    if (!stop) {
        std::this_thread::sleep_until(t);
        return false;
    }
    return stop->sleepFor(t - now);
}

double cpuShare(Duration cpu, Duration wall) {
    return 100.0 * std::chrono::duration<double>(cpu).count() /
           std::max(1e-9, std::chrono::duration<double>(wall).count());
}

}  // namespace pullsched::rig
