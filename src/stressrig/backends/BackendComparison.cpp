#include "backends/BackendComparison.hpp"

#include <fmt/format.h>

#include "backends/BackendRegistry.hpp"
#include "format/Units.hpp"
#include "load/Progress.hpp"
#include "load/ScheduledGraphRun.hpp"
#include "load/StopRequest.hpp"
#include "report/LatencyReport.hpp"
#include "report/MissingValues.hpp"

namespace pullsched::rig {

std::string backendRunFailure(const BackendRun& run) {
    if (run.result.interrupted) return {};  // cut short on purpose: says nothing
    if (std::string f = correctnessFailure(run.result); !f.empty()) return f;
    if (!run.result.completed) return "not every exit job completed";
    if (!run.result.hashOk)
        return fmt::format("hash mismatch: got 0x{:016X}, expected 0x{:016X}",
                           run.result.actualHash, run.result.expectedHash);
    if (!run.exactlyOnce())
        return fmt::format("{} jobs never ran, {} ran more than once", run.missed, run.repeated);
    return {};
}

std::size_t BackendSeries::hashOkRuns() const {
    std::size_t n = 0;
    for (const BackendRun& r : runs)
        n += r.result.hashOk ? 1 : 0;
    return n;
}

std::size_t BackendSeries::exactlyOnceRuns() const {
    std::size_t n = 0;
    for (const BackendRun& r : runs)
        n += r.exactlyOnce() ? 1 : 0;
    return n;
}

SampleStatistics BackendSeries::runtimeMs() const {
    std::vector<double> v;
    for (const BackendRun& r : runs)
        if (r.result.completed) v.push_back(toMs(r.result.runTime));
    return SampleStatistics::of(v);
}

SampleStatistics BackendSeries::efficiency() const {
    std::vector<double> v;
    for (const BackendRun& r : runs)
        if (r.result.completed && r.result.runTime > Duration{0})
            v.push_back(toMs(r.result.lowerBound) / toMs(r.result.runTime));
    return SampleStatistics::of(v);
}

SampleStatistics BackendSeries::startWaitMs() const {
    std::vector<double> v;
    for (const BackendRun& r : runs)
        if (!r.result.timedOut) v.push_back(toMs(r.startWait));
    return SampleStatistics::of(v);
}

LatencyHistogram BackendSeries::lateness() const {
    LatencyHistogram h;
    for (const BackendRun& r : runs)
        for (const testchain::JobTiming& j : r.result.jobs)
            if (j.ran()) h.record(j.lateness());
    return h;
}

nlohmann::json BackendSeries::json() const {
    const SampleStatistics rt = runtimeMs();
    nlohmann::json j;
    j["start_times"] = toString(startTimes);
    j["start_times_text"] = startTimesText;
    j["runs"] = runs.size();
    j["warmup_runs"] = warmups;
    j["interrupted"] = interrupted;
    j["runtime_ms"] = jsonNumber(rt.mean);
    j["runtime_min_ms"] = jsonNumber(rt.min);
    j["runtime_median_ms"] = jsonNumber(rt.median);
    j["runtime_max_ms"] = jsonNumber(rt.max);
    j["efficiency"] = jsonNumber(efficiency().mean);
    j["start_wait_ms"] = jsonNumber(startWaitMs().mean);
    const nlohmann::json latenessJson = histogramJson(lateness());
    for (const auto& [k, v] : latenessJson.items())
        j["lateness_" + k] = v;
    j["hash_ok_runs"] = hashOkRuns();
    j["exactly_once_runs"] = exactlyOnceRuns();
    std::size_t missed = 0, repeated = 0;
    nlohmann::json perRun = nlohmann::json::array();
    for (const BackendRun& r : runs) {
        missed += r.missed;
        repeated += r.repeated;
        perRun.push_back(r.result.completed ? nlohmann::json(toMs(r.result.runTime))
                                            : nlohmann::json(nullptr));
    }
    j["missed_jobs"] = missed;
    j["repeated_jobs"] = repeated;
    j["hash_check"] = runs.empty()                  ? "not checked"
                      : hashOkRuns() == runs.size() ? "ok"
                                                    : "mismatch";
    j["failure"] = failure.empty() ? nlohmann::json(nullptr) : nlohmann::json(failure);
    j["runtime_ms_per_run"] = perRun;
    return j;
}

std::vector<BackendSeries> compareBackends(const std::vector<std::string>& names,
                                           const testchain::TestChainGraph& graph,
                                           const BackendSetup& setup, std::size_t reps,
                                           unsigned warmup, const StopRequest& stop,
                                           Progress* progress) {
    std::vector<BackendSeries> out;
    for (const std::string& name : names) {
        BackendSeries s;
        s.name = name;
        if (stop.requested()) {
            s.interrupted = true;
            out.push_back(std::move(s));
            continue;
        }
        std::unique_ptr<Backend> b = BackendRegistry::make(name);
        s.startTimes = b->startTimes();
        s.startTimesText = std::string(b->startTimesText());
        BackendSetup stoppable = setup;
        stoppable.stop = stop.predicate();  // a stop ends a long run early
        b->prepare(graph, stoppable);
        for (unsigned w = 0; w < warmup && s.failure.empty() && !stop.requested(); ++w) {
            const BackendRun r = b->run();
            if (r.result.interrupted) break;  // the measured loop sees the stop
            ++s.warmups;
            s.failure = backendRunFailure(r);
            if (!s.failure.empty()) s.failure = "warm-up: " + s.failure;
            if (r.result.timedOut) break;
        }
        for (std::size_t i = 0; i < reps && s.failure.empty(); ++i) {
            if (stop.requested()) {
                s.interrupted = true;
                break;
            }
            s.runs.push_back(b->run());
            if (s.runs.back().result.interrupted) {  // no figure: not kept
                s.runs.pop_back();
                s.interrupted = true;
                break;
            }
            s.failure = backendRunFailure(s.runs.back());
            if (s.runs.back().result.timedOut) break;
        }
        if (progress)
            progress->note(fmt::format(
                "{}: {} runs, runtime median {}{}", name, s.runs.size(),
                textOr(s.runtimeMs().median, [](double v) { return fmt::format("{:.3f} ms", v); }),
                s.failure.empty() ? "" : ", FAILED: " + s.failure));
        out.push_back(std::move(s));
    }
    return out;
}

nlohmann::json backendsJson(const std::vector<BackendSeries>& series) {
    nlohmann::json j = nlohmann::json::object();
    for (const BackendSeries& s : series)
        j[s.name] = s.json();
    return j;
}

CsvTable backendsTable(const std::vector<BackendSeries>& series) {
    CsvTable t;
    t.addColumn("backend", CsvTable::Kind::Text);
    t.addColumn("start times", CsvTable::Kind::Text);
    for (const char* c :
         {"runs", "runtime ms", "runtime min ms", "runtime max ms", "efficiency", "lateness p50 us",
          "lateness p99 us", "start wait ms", "hash ok runs", "exactly once runs"})
        t.addColumn(c);
    for (const BackendSeries& s : series) {
        const SampleStatistics rt = s.runtimeMs();
        const LatencyHistogram l = s.lateness();
        const auto pct = [&](double p) {
            return l.count() > 0 ? static_cast<double>(l.percentile(p)) / 1e3 : kMissing;
        };
        t.addRow({s.name, std::string(toString(s.startTimes)), double(s.runs.size()), rt.mean,
                  rt.min, rt.max, s.efficiency().mean, pct(50), pct(99), s.startWaitMs().mean,
                  double(s.hashOkRuns()), double(s.exactlyOnceRuns())});
    }
    return t;
}

std::vector<std::string> backendsText(const std::vector<BackendSeries>& series) {
    std::vector<std::string> lines;
    const auto ms = [](double v) {
        return textOr(v, [](double x) {
            return Units::formatDuration(
                Duration{static_cast<std::int64_t>(std::llround(x * 1e6))});
        });
    };
    for (const BackendSeries& s : series) {
        const SampleStatistics rt = s.runtimeMs();
        const LatencyHistogram l = s.lateness();
        std::string line = fmt::format(
            "  {:<10} runtime {:>10} (min {}, max {}), efficiency {}, lateness {}, start wait {} "
            "({}); hash ok {}/{}, exactly once {}/{}",
            s.name, ms(rt.mean), ms(rt.min), ms(rt.max),
            textOr(s.efficiency().mean, [](double v) { return fmt::format("{:.3f}", v); }),
            l.count() > 0
                ? fmt::format("p50 {} p99 {}", Units::formatDuration(Duration{l.percentile(50)}),
                              Units::formatDuration(Duration{l.percentile(99)}))
                : std::string("n/a"),
            ms(s.startWaitMs().mean), toString(s.startTimes), s.hashOkRuns(), s.runs.size(),
            s.exactlyOnceRuns(), s.runs.size());
        if (!s.failure.empty()) line += "; FAILED: " + s.failure;
        if (s.interrupted) line += "; interrupted";
        lines.push_back(std::move(line));
    }
    return lines;
}

}  // namespace pullsched::rig
