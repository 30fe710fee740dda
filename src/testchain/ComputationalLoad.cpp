#include "pullsched/testchain/ComputationalLoad.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <stdexcept>
#include <vector>

#include "pullsched/testchain/HashCombine.hpp"

namespace pullsched::testchain {

namespace {

/// Makes `value` count as used without storing it anywhere, so the work that produced it
/// cannot be optimised away (no shared sink: workers neither race nor share a line).
inline void keep(std::uint64_t value) noexcept {
    asm volatile("" : : "r"(value) : "memory");
}

double toMicros(Duration d) {
    return std::chrono::duration<double, std::micro>(d).count();
}

}  // namespace

ComputationalLoad::ComputationalLoad(Mode mode, std::size_t sizeBase)
    : mode_(mode), sizeBase_(sizeBase) {
    if (sizeBase == 0) throw std::invalid_argument("ComputationalLoad: sizeBase must be > 0");
}

void ComputationalLoad::cpuWork(std::uint64_t steps) noexcept {
    std::uint64_t x = steps;
    for (std::uint64_t i = 0; i < steps; ++i)
        x = hashCombine(x, i);  // each step needs the last
    keep(x);
}

void ComputationalLoad::memoryWork(std::size_t words, std::uint64_t rounds) {
    if (words == 0) return;
    // Scratch space, per worker thread: no sharing and no allocation per job. It carries
    // no state between calls (its contents are only ever added to).
    thread_local std::vector<std::uint64_t> buffer;
    if (buffer.size() < words) buffer.resize(words, 1);
    std::uint64_t* data = buffer.data();
    for (std::uint64_t r = 0; r < rounds; ++r) {
        data[0] += r;
        for (std::size_t i = 1; i < words; ++i)
            data[i] += data[i - 1];
    }
    keep(data[words - 1]);
}

std::uint64_t ComputationalLoad::unitsFor(Duration d) const noexcept {
    if (d <= Duration::zero()) return 0;
    const double units = toMicros(d) * calibration_.speed;
    return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::llround(units)));
}

void ComputationalLoad::invoke(Duration d) const {
    invoke(1, d);
}

void ComputationalLoad::invoke(std::size_t weight, Duration timeBase) const {
    if (!isCalibrated()) throw std::logic_error("ComputationalLoad::invoke before calibration");
    if (weight == 0) return;
    const std::uint64_t units = unitsFor(timeBase * static_cast<Duration::rep>(weight));
    if (units == 0) return;
    if (mode_ == Mode::Cpu) {
        cpuWork(units);
    } else {
        const std::size_t words = weight * sizeBase_;
        memoryWork(words, std::max<std::uint64_t>(1, (units + words / 2) / words));
    }
}

double ComputationalLoad::sampleSpeed(Duration trial) const {
    using Clock = std::chrono::steady_clock;
    const double target = std::max(toMicros(trial), 1.0);
    // Grow the trial until it is long enough to time; the last run is the sample.
    std::uint64_t amount = 1024;
    for (;;) {
        const auto t0 = Clock::now();
        if (mode_ == Mode::Cpu)
            cpuWork(amount);
        else
            memoryWork(sizeBase_, amount);
        const double us = toMicros(Clock::now() - t0);
        const double units = mode_ == Mode::Cpu ? static_cast<double>(amount)
                                                : static_cast<double>(amount * sizeBase_);
        if (us >= target || amount > (std::uint64_t{1} << 40)) return units / std::max(us, 1e-3);
        const double factor = us > 0.0 ? std::clamp(target / us * 1.2, 2.0, 1024.0) : 64.0;
        amount = static_cast<std::uint64_t>(static_cast<double>(amount) * factor);
    }
}

const Calibration& ComputationalLoad::calibrate() {
    sampleSpeed();  // warm-up: caches, frequency ramp
    calibration_ = calibrateWith([this] { return sampleSpeed(); });
    calibration_.fromCache = false;
    return calibration_;
}

const Calibration& ComputationalLoad::calibrate(const CalibrationCache& cache) {
    const std::string key = cacheKey();
    if (auto cached = cache.load(key)) {
        sampleSpeed();  // warm-up
        if (auto c = recheckCached(*cached, [this] { return sampleSpeed(); })) {
            calibration_ = *c;
            return calibration_;
        }
    }
    calibrate();
    cache.store(key, calibration_.speed);
    return calibration_;
}

std::string ComputationalLoad::cpuModel() {
    std::ifstream in{"/proc/cpuinfo"};
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("model name", 0) == 0 || line.rfind("Model", 0) == 0) {
            const auto colon = line.find(':');
            if (colon == std::string::npos) continue;
            auto first = line.find_first_not_of(" \t", colon + 1);
            if (first == std::string::npos) continue;
            return line.substr(first);
        }
    }
    return "unknown-cpu";
}

std::string ComputationalLoad::buildId() {
#if defined(__clang__)
    std::string id = "clang " __clang_version__;
#elif defined(__GNUC__)
    std::string id = "gcc " __VERSION__;
#else
    std::string id = "unknown-compiler";
#endif
#if defined(__OPTIMIZE__)
    id += " opt";
#else
    id += " noopt";
#endif
#if defined(NDEBUG)
    id += " ndebug";
#else
    id += " debug";
#endif
    return id;
}

std::string ComputationalLoad::cacheKey() const {
    return fmt::format("{} | {} | {} | sizeBase {}", cpuModel(), buildId(),
                       mode_ == Mode::Cpu ? "cpu" : "memory", sizeBase_);
}

}  // namespace pullsched::testchain
