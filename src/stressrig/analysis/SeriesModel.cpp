#include "analysis/SeriesModel.hpp"

#include <cmath>
#include <set>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

namespace pullsched::rig {

SeriesModel SeriesModel::fit(std::span<const SeriesPoint> points) {
    SeriesModel m;
    std::vector<double> xs, ys, conc;
    for (const SeriesPoint& p : points) {
        conc.push_back(p.concurrency);
        if (std::isnan(p.result)) {
            ++m.missing;
            continue;
        }
        xs.push_back(p.x);
        ys.push_back(p.result);
    }
    m.used = xs.size();
    m.meanConcurrency = SampleStatistics::of(conc).mean;
    const std::size_t distinct = std::set<double>(xs.begin(), xs.end()).size();
    if (distinct < 2) {
        m.why = fmt::format("{} complete points at {} distinct sizes; a line needs 2", m.used,
                            distinct);
        return m;
    }
    try {
        m.line.emplace(xs, ys);
    } catch (const std::invalid_argument& e) {
        m.why = e.what();
    }
    return m;
}

}  // namespace pullsched::rig
