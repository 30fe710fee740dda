#include "measure/ProcessSampler.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>

#include <sys/resource.h>
#include <unistd.h>

namespace pullsched::rig {

MachineCpuTicks MachineCpuTicks::parse(std::string_view line) {
    MachineCpuTicks t;
    if (!line.starts_with("cpu ")) return t;
    line.remove_prefix(4);
    std::uint64_t column[8] = {};
    std::size_t columns = 0;
    while (columns < std::size(column)) {
        const auto start = line.find_first_not_of(' ');
        if (start == std::string_view::npos) break;
        line.remove_prefix(start);
        const auto [end, ec] =
            std::from_chars(line.data(), line.data() + line.size(), column[columns]);
        if (ec != std::errc{}) return {};
        line.remove_prefix(static_cast<std::size_t>(end - line.data()));
        ++columns;
    }
    if (columns < 4) return {};  // user nice system idle: every kernel has those
    for (std::size_t i = 0; i < columns; ++i)
        t.total += column[i];
    t.known = true;
    t.stealKnown = columns >= 8;  // Linux 2.6.11 and later
    t.steal = t.stealKnown ? column[7] : 0;
    t.idle = column[3] + (columns >= 5 ? column[4] : 0);
    return t;
}

MachineCpuTicks MachineCpuTicks::read() {
    std::ifstream stat("/proc/stat");
    std::string line;
    if (!std::getline(stat, line)) return {};
    return parse(line);
}

double MachineCpuTicks::stealPercent(const MachineCpuTicks& earlier,
                                     const MachineCpuTicks& later) noexcept {
    if (!earlier.stealKnown || !later.stealKnown || later.total <= earlier.total ||
        later.steal < earlier.steal)
        return std::numeric_limits<double>::quiet_NaN();
    return 100.0 * static_cast<double>(later.steal - earlier.steal) /
           static_cast<double>(later.total - earlier.total);
}

double MachineCpuTicks::otherWorkCores(const MachineCpuTicks& earlier, const MachineCpuTicks& later,
                                       std::chrono::nanoseconds ownCpu, long ticksPerSecond,
                                       unsigned cores) noexcept {
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    if (!earlier.known || !later.known || later.total < earlier.total + kMinTicks ||
        later.idle < earlier.idle || ticksPerSecond <= 0)
        return kNaN;
    const double ticks = static_cast<double>(later.total - earlier.total);
    const double idle = static_cast<double>(later.idle - earlier.idle);
    const double own = std::chrono::duration<double>(ownCpu).count() * double(ticksPerSecond);
    const double other = std::max(0.0, ticks - idle - own);
    return std::min(other / ticks, 1.0) * cores;
}

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
