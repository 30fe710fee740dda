#include "pullsched/testchain/Calibration.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace pullsched::testchain {

namespace {

/// A batch's estimate: its fastest trial (see estimateConverged).
double fastest(std::span<const double> xs) {
    return *std::max_element(xs.begin(), xs.end());
}

Calibration combine(double prev, double curr, std::size_t samples) {
    Calibration c;
    c.speed = (prev + curr) / 2.0;
    c.errorPercent = c.speed > 0.0 ? std::abs(curr - prev) / c.speed * 100.0
                                   : std::numeric_limits<double>::infinity();
    c.samples = samples;
    return c;
}

}  // namespace

double relativeErrorPercent(double reference, double measured) noexcept {
    if (!(reference > 0.0)) return std::numeric_limits<double>::infinity();
    return std::abs(measured - reference) / reference * 100.0;
}

std::optional<Calibration> estimateConverged(std::span<const double> samples, std::size_t batch,
                                             double tolerance) {
    if (batch == 0) batch = 1;
    const std::size_t batches = samples.size() / batch;
    for (std::size_t b = 1; b < batches; ++b) {
        const double prev = fastest(samples.subspan((b - 1) * batch, batch));
        const double curr = fastest(samples.subspan(b * batch, batch));
        if (curr > 0.0 && std::abs(curr - prev) <= tolerance * curr)
            return combine(prev, curr, (b + 1) * batch);
    }
    return std::nullopt;
}

CacheCheck checkCached(double cached, double measured, double tolerance) noexcept {
    if (relativeErrorPercent(cached, measured) <= tolerance * 100.0) return CacheCheck::Confirmed;
    if (measured < cached && measured * 2.0 >= cached) return CacheCheck::RunsSlower;
    return CacheCheck::Stale;
}

std::optional<Calibration> recheckCached(double cached, const std::function<double()>& sample,
                                         double tolerance) {
    const double measured = std::max({sample(), sample(), sample()});
    const CacheCheck check = checkCached(cached, measured, tolerance);
    if (check == CacheCheck::Stale) return std::nullopt;
    Calibration c{cached, relativeErrorPercent(cached, measured), true, 3};
    if (check == CacheCheck::RunsSlower) c.slowerAtCheckPercent = c.errorPercent;
    return c;
}

Calibration calibrateWith(const std::function<double()>& sample, std::size_t batch,
                          double tolerance, std::size_t maxSamples) {
    if (batch == 0) batch = 1;
    if (maxSamples < 2 * batch) maxSamples = 2 * batch;
    std::vector<double> samples;
    samples.reserve(maxSamples);
    while (samples.size() + batch <= maxSamples) {
        for (std::size_t i = 0; i < batch; ++i)
            samples.push_back(sample());
        if (samples.size() < 2 * batch) continue;
        // Only the newest pair of batches is new; earlier pairs were checked before.
        std::span<const double> tail{samples.data() + samples.size() - 2 * batch, 2 * batch};
        if (auto c = estimateConverged(tail, batch, tolerance)) {
            c->samples = samples.size();
            return *c;
        }
    }
    std::span<const double> all{samples};
    const std::size_t n = samples.size() / batch * batch;
    return combine(fastest(all.subspan(n - 2 * batch, batch)),
                   fastest(all.subspan(n - batch, batch)), samples.size());
}

}  // namespace pullsched::testchain
