#pragma once
// How --mode=open presents one open load played on several job-stream backends: one
// text row, one CSV row and one JSON object per backend, and the lateness percentiles of
// all of them in one table (one column per backend) for one picture.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backends/StreamOpenLoad.hpp"
#include "report/CsvTable.hpp"

namespace pullsched::rig {

/// A header and one line per backend: arrival times, achieved rate, jobs measured,
/// lateness p50/p90/p99/p99.9/max (n/a where the count does not support a percentile).
std::vector<std::string> streamBackendsText(const std::vector<StreamRunResult>& runs);

/// One row per backend: "backend", "arrival times", "offered rate per s", "achieved rate
/// per s", the jobs' counts ("jobs posted" ... "jobs repeated"), "p50 lateness us",
/// "p90 lateness us", "p99 lateness us", "p99.9 lateness us", "max lateness us", "cpu %",
/// "generator cpu %"; a percentile the count does not support is an empty cell.
CsvTable streamBackendsTable(const std::vector<StreamRunResult>& runs);

/// { name: { the open-mode run JSON, "arrival_times", "arrival_times_text", "jobs_lost",
///   "jobs_repeated" } }; "max_backlog" and "rss_max_mib"
///   are null for a run that was not sampled.
nlohmann::json streamBackendsJson(const std::vector<StreamRunResult>& runs,
                                  const std::vector<std::string>& arrivalTexts);

/// "percentile", "nines" and one "<backend> lateness us" column per backend.
CsvTable streamPercentileTable(const std::vector<StreamRunResult>& runs);

}  // namespace pullsched::rig
