#include "report/LoadPeakPoint.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "format/Units.hpp"
#include "load/ScheduledGraphRun.hpp"

namespace pullsched::rig {

using testchain::Duration;
using testchain::JobTiming;
using testchain::RunResult;

LoadPeakPoint pointOf(const BackendRun& run, std::size_t jobs) {
    LoadPeakPoint p;
    p.jobs = jobs;
    p.graphHash = run.result.actualHash;
    Duration first = Duration::max(), last = Duration::min(), busy{0};
    std::size_t ran = 0;
    for (const JobTiming& j : run.result.jobs) {
        if (!j.ran()) continue;
        first = std::min(first, j.actualStart);
        last = std::max(last, j.end);
        busy += j.runTime();
        ++ran;
    }
    if (ran == 0 || last <= first) {
        p.missingWhy = "no job was seen running";
        return p;
    }
    p.timeMs = toMs(last - first);
    p.concurrency = toMs(busy) / p.timeMs;
    p.jobtimeUs = toUs(busy) / double(ran);
    return p;
}

LoadPeakPoint peakPoint(const BackendRun& run, std::size_t jobs, std::uint64_t graphHash,
                        const std::string& failure, const std::string& late,
                        const IncidenceStatistic* observed) {
    LoadPeakPoint p;
    p.jobs = jobs;
    p.graphHash = graphHash;
    const RunResult& r = run.result;
    if (!failure.empty()) {
        p.missingWhy = failure;
    } else if (!late.empty()) {
        p.missingWhy = late;
    } else if (!runComplete(r)) {
        p.missingWhy =
            fmt::format("hash not checked: {} jobs expired, {} cancelled", r.expired, r.cancelled);
    } else {
        p = pointOf(run, jobs);
        p.graphHash = graphHash;
        // a truncated timeline says nothing of the impeded time: missing, not a smaller one
        if (observed && observed->complete() && observed->activations > 0)
            p.impededUs = toUs(observed->impededTime) / double(observed->activations);
    }
    return p;
}

SeriesModel fitPoints(const std::vector<LoadPeakPoint>& points) {
    std::vector<SeriesPoint> series;
    for (const LoadPeakPoint& p : points)
        series.push_back({double(p.jobs), p.timeMs, p.concurrency});
    return SeriesModel::fit(series);
}

}  // namespace pullsched::rig
