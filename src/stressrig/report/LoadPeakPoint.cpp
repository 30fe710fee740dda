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

LoadPeakPoint observedPoint(const RunResult& run, const IncidenceStatistic& st, std::size_t jobs,
                            std::uint64_t graphHash, const std::string& failure,
                            const std::string& late) {
    LoadPeakPoint p;
    p.jobs = jobs;
    p.graphHash = graphHash;
    if (!failure.empty()) {
        p.missingWhy = failure;
    } else if (!late.empty()) {
        p.missingWhy = late;
    } else if (!runComplete(run)) {
        p.missingWhy = fmt::format("hash not checked: {} jobs expired, {} cancelled", run.expired,
                                   run.cancelled);
    } else if (!st.complete()) {
        p.missingWhy = fmt::format("{} instrument events lost", st.droppedEvents);
    } else if (st.activations == 0) {
        p.missingWhy = "no job was seen running";
    } else {
        const double acts = double(st.activations);
        p.timeMs = toMs(st.coveredTime);
        p.concurrency = st.avgConcurrency;
        p.jobtimeUs = toUs(st.activeTime) / acts;
        p.impededUs = toUs(st.impededTime) / acts;
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
