#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "pullsched/testchain/Calibration.hpp"
#include "pullsched/testchain/CalibrationCache.hpp"
#include "pullsched/testchain/Duration.hpp"

namespace pullsched::testchain {

/// Calibrated busy work standing in for a job's computation (spec §6): a job of weight w
/// runs w × timeBase. invoke() is const and thread-safe (workers call it concurrently).
class ComputationalLoad {
  public:
    enum class Mode {
        Cpu,     ///< dependent chain of hashCombine steps (no memory traffic)
        Memory,  ///< prefix-add over a buffer of w × sizeBase words
    };
    static constexpr std::size_t kDefaultSizeBase = 1000;  ///< words per unit weight

    explicit ComputationalLoad(Mode mode = Mode::Cpu, std::size_t sizeBase = kDefaultSizeBase);

    /// Fresh calibration with the real clock (no cache).
    const Calibration& calibrate();
    /// Uses the cached speed if one short measurement confirms it within 5 % or runs
    /// slower (a busy machine: noted in slowerAtCheckPercent), else recalibrates and
    /// stores the new speed (see checkCached).
    const Calibration& calibrate(const CalibrationCache& cache);
    /// Injects a known calibration (tests, or a speed computed elsewhere).
    void setCalibration(const Calibration& c) noexcept { calibration_ = c; }

    bool isCalibrated() const noexcept { return calibration_.speed > 0.0; }
    const Calibration& calibration() const noexcept { return calibration_; }
    Mode mode() const noexcept { return mode_; }
    std::size_t sizeBase() const noexcept { return sizeBase_; }

    /// Busy work for d (memory mode: buffer of sizeBase words). Throws if uncalibrated.
    void invoke(Duration d) const;
    /// Busy work of a job: weight × timeBase (memory mode: buffer of weight × sizeBase).
    void invoke(std::size_t weight, Duration timeBase) const;

    /// Work units that take d at the calibrated speed (at least 1 for d > 0).
    std::uint64_t unitsFor(Duration d) const noexcept;
    /// One timed trial of about `trial` wall time; returns units per µs.
    double sampleSpeed(Duration trial = std::chrono::microseconds{300}) const;

    /// Cache key: CPU model, compiler and build flavour, mode and size base.
    std::string cacheKey() const;
    static std::string cpuModel();  ///< "model name" of /proc/cpuinfo, or "unknown-cpu"
    static std::string buildId();   ///< compiler version + optimisation/NDEBUG flavour

    /// The raw kernels (exposed for benchmarks): CPU steps / memory rounds over `words`.
    static void cpuWork(std::uint64_t steps) noexcept;
    static void memoryWork(std::size_t words, std::uint64_t rounds);

  private:
    Mode mode_;
    std::size_t sizeBase_;
    Calibration calibration_{};
};

}  // namespace pullsched::testchain
