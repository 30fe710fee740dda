#pragma once
// Export of job timelines as Chrome trace JSON (Trace Event Format), viewable in
// Perfetto (ui.perfetto.dev) and chrome://tracing.

#include <chrono>
#include <filesystem>
#include <iosfwd>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "measure/MeasuredJob.hpp"

namespace pullsched::rig {

/// Builds the JSON object form {"traceEvents": [...], "displayTimeUnit": "ms",
/// "otherData": {...}}. Per job one complete event ("ph":"X") with ts/dur in µs
/// (fractional, ns resolution) relative to the origin, pid = the process id given,
/// tid = worker, and args {id, scheduled_us, lateness_us}. Metadata events name the
/// process and each worker thread ("worker N"), so that the viewer labels the rows.
class ChromeTrace {
  public:
    using TimePoint = MeasuredJob::TimePoint;

    explicit ChromeTrace(std::string processName = "pullsched", int pid = 1);

    void add(const MeasuredJob& job);
    void add(std::span<const MeasuredJob> jobs);
    /// Run configuration shown by the viewer as metadata (seed, pattern, …).
    void setMetadata(const std::string& key, const std::string& value);
    /// Time zero of the trace; by default the earliest scheduled or actual start.
    void setOrigin(TimePoint origin) {
        origin_ = origin;
        hasOrigin_ = true;
    }
    std::size_t size() const noexcept { return jobs_.size(); }

    /// Events sorted by (ts, tid), metadata first.
    nlohmann::json toJson() const;
    void write(std::ostream& out) const;
    /// Throws std::runtime_error if the file cannot be written.
    void writeFile(const std::filesystem::path& file) const;

  private:
    TimePoint origin() const;

    std::string processName_;
    int pid_;
    std::vector<MeasuredJob> jobs_;
    nlohmann::json metadata_ = nlohmann::json::object();
    TimePoint origin_{};
    bool hasOrigin_ = false;
};

}  // namespace pullsched::rig
