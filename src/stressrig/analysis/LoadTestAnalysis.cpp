#include "analysis/LoadTestAnalysis.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace pullsched::rig::loadtest {

WindowThroughput windowThroughput(std::uint64_t completions, std::chrono::nanoseconds window,
                                  std::chrono::nanoseconds cycle) {
    WindowThroughput t;
    if (window <= std::chrono::nanoseconds{0} || completions == 0) {
        t.tooShort = true;
        return t;
    }
    t.perSecond = static_cast<double>(completions) / std::chrono::duration<double>(window).count();
    t.tooShort = window < cycle;
    return t;
}

std::vector<double> sweepRates(double from, double to, double step) {
    std::vector<double> r;
    if (!(from > 0) || !(to >= from) || !(step >= 0) || !std::isfinite(to)) return r;
    if (to == from) return {from};
    if (step == 0) {
        for (int i = 0; i < 5; ++i)
            r.push_back(from + (to - from) * i / 4.0);
        return r;
    }
    const double eps = 1e-9 * std::max(std::abs(to), 1.0);
    for (std::size_t i = 0;; ++i) {
        const double v = from + static_cast<double>(i) * step;
        if (v > to + eps || i > 100000) break;
        r.push_back(v);
    }
    return r;
}

void computeEfficiency(std::vector<HeadroomRow>& rows) {
    if (rows.empty()) return;
    double t1 = rows.front().seconds;
    for (const auto& r : rows)
        if (r.copies == 1) {
            t1 = r.seconds;
            break;
        }
    for (auto& r : rows)
        r.efficiency = r.seconds > 0 ? t1 / r.seconds : 0;
}

std::optional<std::size_t> maxSustainedIndex(std::span<const double> latency, double factor,
                                             double floor) {
    if (latency.empty()) return std::nullopt;
    const double reference = std::max(latency[0], floor);
    if (!(reference > 0)) return std::nullopt;
    const double bound = factor * reference;
    std::size_t last = 0;
    for (std::size_t i = 1; i < latency.size(); ++i) {
        if (!(latency[i] <= bound)) break;
        last = i;
    }
    return last;
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

std::vector<bool> outliers(std::span<const double> values, double factor, double floor) {
    const double m = median(std::vector<double>(values.begin(), values.end()));
    std::vector<bool> r;
    r.reserve(values.size());
    for (double v : values)
        r.push_back(v > factor * m && v > floor);
    return r;
}

}  // namespace pullsched::rig::loadtest
