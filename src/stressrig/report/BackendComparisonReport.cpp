#include "report/BackendComparisonReport.hpp"

#include <fmt/format.h>

#include "report/MetricCatalogue.hpp"
#include "report/MissingValues.hpp"
#include "report/TextFormat.hpp"

namespace pullsched::rig {

CsvTable backendsTable(const std::vector<BackendSeries>& series,
                       const testchain::LevelSchedule* deadlines) {
    CsvTable t;
    t.addColumn("backend", CsvTable::Kind::Text);
    t.addColumn("start times", CsvTable::Kind::Text);
    using namespace std::string_literals;
    const auto figure = [](std::string_view name) { return MetricCatalogue::csvHeader(name); };
    for (std::string c :
         {"runs"s, "runtime median ms"s, "runtime mean ms"s, "runtime min ms"s, "runtime max ms"s,
          figure("efficiency"), figure("lateness_p50"), figure("lateness_p99"),
          figure("past_deadline"), "start wait ms"s, "hash ok runs"s, "exactly once runs"s})
        t.addColumn(std::move(c));
    for (const BackendSeries& s : series) {
        const SampleStatistics rt = s.runtimeMs();
        const LatencyHistogram l = s.lateness();
        const auto pct = [&](double p) {
            return l.count() > 0 ? static_cast<double>(l.percentile(p)) / 1e3 : kMissing;
        };
        t.addRow({s.name, std::string(graphStartTimesName(s.startTimes)), double(s.runs.size()),
                  rt.median, rt.mean, rt.min, rt.max, s.efficiency().mean, pct(50), pct(99),
                  deadlines ? double(s.pastDeadline(*deadlines)) : kMissing, s.startWaitMs().mean,
                  double(s.hashOkRuns()), double(s.exactlyOnceRuns())});
    }
    return t;
}

std::vector<std::string> backendsText(const std::vector<BackendSeries>& series,
                                      const testchain::LevelSchedule* deadlines) {
    std::vector<std::string> lines;
    for (const BackendSeries& s : series) {
        const SampleStatistics rt = s.runtimeMs();
        const LatencyHistogram l = s.lateness();
        std::string line = fmt::format(
            "  {:<10} runtime median {:>10} (min {}, max {}), efficiency {}, lateness {}, past "
            "deadline {}, start wait {} ({}); hash ok {}/{}, exactly once {}/{}",
            s.name, msText(rt.median), msText(rt.min), msText(rt.max),
            textOr(s.efficiency().mean, [](double v) { return fmt::format("{:.3f}", v); }),
            l.count() > 0 ? fmt::format("p50 {} p99 {}", durationText(Duration{l.percentile(50)}),
                                        durationText(Duration{l.percentile(99)}))
                          : std::string("n/a"),
            // of the jobs that ran: only those have an end time
            deadlines ? fmt::format("{} of {} jobs", s.pastDeadline(*deadlines), l.count())
                      : std::string("n/a"),
            msText(s.startWaitMs().mean), graphStartTimesName(s.startTimes), s.hashOkRuns(),
            s.runs.size(), s.exactlyOnceRuns(), s.runs.size());
        if (!s.failure.empty()) line += "; FAILED: " + s.failure;
        if (s.interrupted) line += "; interrupted";
        lines.push_back(std::move(line));
    }
    return lines;
}

}  // namespace pullsched::rig
