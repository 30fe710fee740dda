#include "measure/ProcessSampler.hpp"

#include <fstream>
#include <stdexcept>

#include <sys/resource.h>
#include <unistd.h>

namespace pullsched::rig {

ProcessSampler::ProcessSampler(std::chrono::nanoseconds interval, DepthProbe depthProbe)
    : interval_(interval), probe_(std::move(depthProbe)) {
    if (interval.count() <= 0)
        throw std::invalid_argument("ProcessSampler: the interval must be positive");
}

ProcessSampler::~ProcessSampler() {
    stop();
}

ProcessSnapshot ProcessSampler::snapshot() {
    ProcessSnapshot s;
    s.wall = std::chrono::steady_clock::now();
    rusage ru{};
    if (getrusage(RUSAGE_SELF, &ru) == 0) {
        auto tv = [](const timeval& v) {
            return std::chrono::seconds{v.tv_sec} + std::chrono::microseconds{v.tv_usec};
        };
        s.cpuTime = tv(ru.ru_utime) + tv(ru.ru_stime);
    }
    std::ifstream statm("/proc/self/statm");
    std::uint64_t sizePages = 0, residentPages = 0;
    if (statm >> sizePages >> residentPages) {
        const long page = sysconf(_SC_PAGESIZE);
        s.rssBytes = residentPages * static_cast<std::uint64_t>(page > 0 ? page : 4096);
    }
    return s;
}

double ProcessSampler::cpuPercent(const ProcessSnapshot& earlier,
                                  const ProcessSnapshot& later) noexcept {
    const auto wall = later.wall - earlier.wall;
    if (wall.count() <= 0) return 0.0;
    const auto cpu = later.cpuTime - earlier.cpuTime;
    return 100.0 * static_cast<double>(cpu.count()) /
           static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(wall).count());
}

void ProcessSampler::start() {
    if (running()) return;
    {
        std::lock_guard lock(mutex_);
        samples_.clear();
        stopping_ = false;
    }
    origin_ = std::chrono::steady_clock::now();
    thread_ = std::thread([this] { run(); });
}

void ProcessSampler::stop() {
    if (!running()) return;
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

std::vector<ProcessSample> ProcessSampler::samples() const {
    std::lock_guard lock(mutex_);
    return samples_;
}

void ProcessSampler::takeSample(ProcessSnapshot& previous) {
    const ProcessSnapshot now = snapshot();
    ProcessSample row;
    row.t = now.wall - origin_;
    row.cpuPercent = cpuPercent(previous, now);
    row.rssBytes = now.rssBytes;
    if (probe_) row.queueDepth = probe_();
    previous = now;
    std::lock_guard lock(mutex_);
    samples_.push_back(row);
}

void ProcessSampler::run() {
    ProcessSnapshot previous = snapshot();
    auto next = previous.wall + interval_;
    for (;;) {
        {
            std::unique_lock lock(mutex_);
            // Absolute deadlines: the sampling grid does not drift with sampling cost.
            if (wake_.wait_until(lock, next, [this] { return stopping_; })) break;
        }
        takeSample(previous);
        next += interval_;
        const auto now = std::chrono::steady_clock::now();
        if (next < now) next = now + interval_;  // fell behind: skip, don't burst
    }
    takeSample(previous);  // final row covering the tail of the run
}

}  // namespace pullsched::rig
