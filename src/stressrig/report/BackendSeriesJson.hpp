#pragma once
// What a backend series (backends/BackendComparison.hpp) shows in a result's JSON: the
// measuring layer measures, this one presents.

#include <vector>

#include <nlohmann/json.hpp>

#include "backends/BackendComparison.hpp"
#include "pullsched/testchain/LevelSchedule.hpp"

namespace pullsched::rig {

/// { start_times, start_times_text, runs, warmup_runs, runtime_ms (mean), runtime_min_ms,
///   runtime_median_ms, runtime_max_ms, efficiency, start_wait_ms, lateness_*,
///   hash_ok_runs, exactly_once_runs, hash_check, failure,
///   runtime_ms_per_run, past_deadline (BackendSeries::pastDeadline(*deadlines); null when
///   `deadlines` is nullptr: the schedule has none) }
nlohmann::json seriesJson(const BackendSeries& s, const testchain::LevelSchedule* deadlines);

/// JSON object keyed by backend name (each seriesJson(s, deadlines)).
nlohmann::json backendsJson(const std::vector<BackendSeries>& series,
                            const testchain::LevelSchedule* deadlines);

}  // namespace pullsched::rig
