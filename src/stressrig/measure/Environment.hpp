#pragma once
// The facts every result records: what was built, where it ran, and how busy the
// machine was at the start, at the end and in between.

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "measure/ProcessSampler.hpp"

namespace pullsched::rig {

struct Environment {
    std::string version;    ///< pullsched version
    std::string commit;     ///< git commit of the build ("unknown" outside a checkout)
    std::string buildType;  ///< e.g. "Release (optimised, NDEBUG)"
    std::string compiler;
    std::string machine;                     ///< uname
    std::string cpu;                         ///< model name
    unsigned cores = 0;                      ///< hardware threads
    std::string date;                        ///< UTC, ISO 8601, at capture
    std::optional<double> loadAverageStart;  ///< 1-minute load average
    std::optional<double> loadAverageEnd;
    /// Cores that other work kept busy on average from capture() to finish()
    /// (MachineCpuTicks::otherWorkCores); unset when /proc/stat cannot tell.
    std::optional<double> otherWorkCores;
    MachineCpuTicks machineAtCapture;  ///< /proc/stat at capture()
    std::chrono::nanoseconds ownCpuAtCapture{0};

    /// Everything but loadAverageEnd and otherWorkCores, now.
    static Environment capture();
    /// Records the load average at the end of the run and the other work since capture().
    void finish();
    /// The 1-minute load average, when the system tells it.
    static std::optional<double> loadAverage();

    /// True when the load average exceeds half the cores, or other work kept a quarter of
    /// them busy during the run: it competed with the run, so times and lateness include
    /// that competition.
    bool busy() const;
    /// busy(), or the load average read now exceeds half the cores: for a verdict made
    /// before finish() records the load at the end.
    bool busyNow() const;
    /// "load average 3.10 on 2 cores: other work is running, results will be noisy", or "".
    std::string busyWarning() const;

    nlohmann::json json() const;
    /// `key: value` lines for CSV comments.
    std::vector<std::pair<std::string, std::string>> comments() const;
};

}  // namespace pullsched::rig
