#pragma once
// How a load with --stages is presented: its stages, every interval's offered and
// achieved rate, and whether it recovered after its last spike.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/RecoveryAnalysis.hpp"
#include "load/IntervalRow.hpp"
#include "load/RateProfile.hpp"
#include "pullsched/scheduler/Time.hpp"
#include "report/CsvTable.hpp"

namespace pullsched::rig {

/// The interval length a staged load is measured in: the smallest of 100 ms, 200 ms,
/// 250 ms, 500 ms, 1 s, 2 s, 5 s, 10 s, 30 s, 1 min giving at most 100 intervals.
Duration stageInterval(Duration total);

/// The recovery of a measured staged load: the spike is the last stage above the final
/// rate; a backlog the workers start within `limit` at the final rate (at least one job
/// per worker) counts as drained.
Recovery stageRecovery(const RateProfile& p, const std::vector<IntervalRow>& rows, Duration limit,
                       unsigned workers);

/// `[{"duration_s", "from_per_s", "to_per_s"}, …]`.
nlohmann::json stagesJson(const RateProfile& p);
/// One object per interval: end, offered and achieved rate, backlog, lateness, counts.
nlohmann::json intervalsJson(const std::vector<IntervalRow>& rows);
/// `{"assessed", "spike_end_s", "recovered", "drain_s", "under_limit_s", "peak_backlog"}`.
nlohmann::json recoveryJson(const Recovery& r, const RateProfile& p);

/// "time s", "offered per s", "achieved per s", "backlog", "p99 lateness us", "late",
/// "jobs expired" — one row per interval.
CsvTable intervalTable(const std::vector<IntervalRow>& rows);
/// The same as aligned text lines, with a header.
std::vector<std::string> intervalText(const std::vector<IntervalRow>& rows);

/// One sentence: "recovered after the spike ending at 12s: backlog drained in 0.4s, ..."
std::string recoveryText(const Recovery& r, const RateProfile& p, Duration limit);

}  // namespace pullsched::rig
