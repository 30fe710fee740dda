#include "report/BackendSeriesJson.hpp"

#include "format/Units.hpp"
#include "report/LatencyReport.hpp"
#include "report/MissingValues.hpp"

namespace pullsched::rig {

nlohmann::json seriesJson(const BackendSeries& s, const testchain::LevelSchedule* deadlines) {
    const SampleStatistics rt = s.runtimeMs();
    nlohmann::json j;
    j["start_times"] = graphStartTimesName(s.startTimes);
    j["start_times_text"] = s.startTimesText;
    j["runs"] = s.runs.size();
    j["warmup_runs"] = s.warmups;
    j["interrupted"] = s.interrupted;
    j["runtime_ms"] = jsonNumber(rt.mean);
    j["runtime_min_ms"] = jsonNumber(rt.min);
    j["runtime_median_ms"] = jsonNumber(rt.median);
    j["runtime_max_ms"] = jsonNumber(rt.max);
    j["efficiency"] = jsonNumber(s.efficiency().mean);
    j["start_wait_ms"] = jsonNumber(s.startWaitMs().mean);
    const nlohmann::json latenessJson = histogramJson(s.lateness());
    for (const auto& [k, v] : latenessJson.items())
        j["lateness_" + k] = v;
    j["hash_ok_runs"] = s.hashOkRuns();
    j["exactly_once_runs"] = s.exactlyOnceRuns();
    // The exactly-once check shows as exactly_once_runs (and a failure naming the counts);
    // jobs_lost and jobs_repeated are the run mode's, from its reps.
    nlohmann::json perRun = nlohmann::json::array();
    for (const BackendRun& r : s.runs) {
        perRun.push_back(r.result.completed ? nlohmann::json(toMs(r.result.runTime))
                                            : nlohmann::json(nullptr));
    }
    j["hash_check"] = s.runs.empty()                    ? "not checked"
                      : s.hashOkRuns() == s.runs.size() ? "ok"
                                                        : "mismatch";
    j["failure"] = s.failure.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.failure);
    j["runtime_ms_per_run"] = perRun;
    j["past_deadline"] = deadlines ? nlohmann::json(s.pastDeadline(*deadlines)) : nullptr;
    return j;
}

nlohmann::json backendsJson(const std::vector<BackendSeries>& series,
                            const testchain::LevelSchedule* deadlines) {
    nlohmann::json j = nlohmann::json::object();
    for (const BackendSeries& s : series)
        j[s.name] = seriesJson(s, deadlines);
    return j;
}

}  // namespace pullsched::rig
