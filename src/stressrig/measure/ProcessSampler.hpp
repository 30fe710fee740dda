#pragma once
// Periodic sampling of the own process's CPU use, memory and a queue depth while a
// run is in progress (metrics *during* the run, not only at its end).

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

namespace pullsched::rig {

/// Raw reading of the process counters at one instant.
struct ProcessSnapshot {
    std::chrono::steady_clock::time_point wall{};
    std::chrono::nanoseconds cpuTime{0};  ///< user + system time of all threads
    std::uint64_t rssBytes = 0;           ///< resident set size (0 if unavailable)
};

/// The machine's CPU time from the "cpu" line of /proc/stat, in clock ticks.
struct MachineCpuTicks {
    bool known = false;       ///< the line was read
    bool stealKnown = false;  ///< the kernel reports steal time (8th column)
    std::uint64_t total = 0;  ///< user + nice + system + idle + iowait + irq + softirq + steal
    std::uint64_t steal = 0;  ///< time a hypervisor ran something else on this machine's CPUs
    std::uint64_t idle = 0;   ///< idle + iowait

    /// Parses "cpu  user nice system idle iowait irq softirq steal guest guest_nice";
    /// unknown (known == false) for anything else. Guest time is inside user and nice.
    static MachineCpuTicks parse(std::string_view line);
    /// Reads /proc/stat now; unknown where it cannot be read.
    static MachineCpuTicks read();
    /// 100 · Δsteal / Δtotal: the per cent of the machine's CPU time taken by the
    /// hypervisor between the two readings; NaN when either lacks steal or no time passed.
    static double stealPercent(const MachineCpuTicks& earlier,
                               const MachineCpuTicks& later) noexcept;
    /// How many of the machine's `cores` other work kept busy on average between the two
    /// readings: its busy ticks (steal included) less `ownCpu`, this process's CPU time
    /// meanwhile, over all its ticks. The load average lags by a minute, so a short run
    /// beside other work would otherwise pass for a quiet one. NaN when either reading is
    /// unknown or fewer than kMinTicks passed (too short to tell at 10 ms a tick).
    static double otherWorkCores(const MachineCpuTicks& earlier, const MachineCpuTicks& later,
                                 std::chrono::nanoseconds ownCpu, long ticksPerSecond,
                                 unsigned cores) noexcept;
    static constexpr std::uint64_t kMinTicks = 50;
};

/// One row of the sampled series.
struct ProcessSample {
    std::chrono::nanoseconds t{0};  ///< since start()
    double cpuPercent = 0;          ///< over the interval ending here; 100 = one core busy
    std::uint64_t rssBytes = 0;
    std::int64_t queueDepth = -1;  ///< from the depth probe; -1 when there is none
};

/// Samples on a background thread every `interval` from start() until stop() (or
/// destruction), plus one final sample at stop() so that even a short run yields a
/// row. CPU time comes from getrusage(RUSAGE_SELF), RSS from /proc/self/statm.
/// The depth probe runs on the sampler thread, so it must be thread-safe (e.g. read
/// an atomic counter).
class ProcessSampler {
  public:
    using DepthProbe = std::function<std::int64_t()>;

    explicit ProcessSampler(std::chrono::nanoseconds interval, DepthProbe depthProbe = {});
    ~ProcessSampler();
    ProcessSampler(const ProcessSampler&) = delete;
    ProcessSampler& operator=(const ProcessSampler&) = delete;

    /// Clears earlier samples and starts sampling; no effect while running.
    void start();
    /// Takes the final sample and joins the thread; no effect when not running.
    void stop();
    bool running() const noexcept { return thread_.joinable(); }

    /// Copy of the samples so far (safe while running).
    std::vector<ProcessSample> samples() const;

    /// Reads the counters now.
    static ProcessSnapshot snapshot();
    /// 100 · Δcpu / Δwall between two snapshots: per cent of one core, so 4 busy
    /// threads give about 400. Returns 0 when Δwall ≤ 0 (no interval to divide by).
    static double cpuPercent(const ProcessSnapshot& earlier, const ProcessSnapshot& later) noexcept;

  private:
    void run();
    void takeSample(ProcessSnapshot& previous);

    std::chrono::nanoseconds interval_;
    DepthProbe probe_;
    std::chrono::steady_clock::time_point origin_{};
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::vector<ProcessSample> samples_;
    std::thread thread_;
};

}  // namespace pullsched::rig
