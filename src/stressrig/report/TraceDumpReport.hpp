#pragma once
// The scheduler's trace dump (builds with -DPULLSCHED_TRACE=ON) read back: checked,
// drawn as per-worker lanes over time, and exported as a Chrome/Perfetto trace.

#include <cstdint>
#include <istream>
#include <map>
#include <string>
#include <vector>

#include "report/GnuplotScript.hpp"

namespace pullsched::rig {

/// One line of the dump: `<time µs> w<worker> <event> <detail>`.
struct TraceDumpEvent {
    double timeUs = 0;  ///< since the first event of the dump
    unsigned worker = 0;
    std::string event;  ///< token-acquired, dispatch, sleep, park, ... (see docs/trace-dump.md)
    std::int64_t detail = 0;
};

class TraceDump {
  public:
    /// Parses the text of Scheduler::writeTraceDump. Throws std::runtime_error naming
    /// the line for a line that is not `<time> w<worker> <event> <detail>`.
    static TraceDump parse(std::istream& in);
    static TraceDump parse(const std::string& text);

    const std::vector<TraceDumpEvent>& events() const noexcept { return events_; }
    /// Events the buffers had no room for (from the header line).
    std::uint64_t dropped() const noexcept { return dropped_; }
    /// Number of lanes: 1 + the highest worker index seen (0 for an empty dump).
    unsigned lanes() const noexcept { return lanes_; }
    /// Events per kind.
    std::map<std::string, std::size_t> counts() const;
    /// Timestamps never decrease (the merge sorted them).
    bool timeOrdered() const noexcept;

    /// Per-worker lanes over time: jobs (dispatch → the worker's next event), the token
    /// held (acquired → dropped), sleeps, parked (park → wake) and backoff as bars;
    /// contention, gate notifications and expiries as marks.
    GnuplotScript lanesPlot(const std::string& title) const;
    /// The same intervals and marks as Chrome trace events (one thread per worker).
    std::string chromeTrace() const;

  private:
    std::vector<TraceDumpEvent> events_;
    std::uint64_t dropped_ = 0;
    unsigned lanes_ = 0;
};

}  // namespace pullsched::rig
