#include "analysis/SampleStatistics.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace pullsched::rig {

SampleStatistics SampleStatistics::of(std::span<const double> values) {
    SampleStatistics s;
    std::vector<double> v;
    v.reserve(values.size());
    for (double x : values) {
        if (std::isnan(x))
            ++s.missing;
        else
            v.push_back(x);
    }
    s.count = v.size();
    if (v.empty()) return s;
    std::sort(v.begin(), v.end());
    s.min = v.front();
    s.max = v.back();
    const std::size_t n = v.size();
    s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    double sum = 0;
    for (double x : v)
        sum += x;
    s.mean = sum / static_cast<double>(n);
    if (n >= 2) {
        double sq = 0;
        for (double x : v)
            sq += (x - s.mean) * (x - s.mean);
        s.sdev = std::sqrt(sq / static_cast<double>(n - 1));
    }
    return s;
}

}  // namespace pullsched::rig
