#include "detail/Trace.hpp"

#if PULLSCHED_TRACE
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ostream>
#include <string>

namespace pullsched::detail {

std::string_view toString(TraceEvent e) noexcept {
    switch (e) {
        case TraceEvent::TokenAcquired:
            return "token-acquired";
        case TraceEvent::TokenDropped:
            return "token-dropped";
        case TraceEvent::TokenContended:
            return "token-contended";
        case TraceEvent::Dispatch:
            return "dispatch";
        case TraceEvent::Continuation:
            return "continuation";
        case TraceEvent::Decision:
            return "decision";
        case TraceEvent::Sleep:
            return "sleep";
        case TraceEvent::Backoff:
            return "backoff";
        case TraceEvent::GateNotify:
            return "gate-notify";
        case TraceEvent::Park:
            return "park";
        case TraceEvent::Wake:
            return "wake";
        case TraceEvent::Expired:
            return "expired";
    }
    return "?";
}

void writeTraceDump(std::ostream& out, const std::vector<const TraceBuffer*>& buffers) {
    std::vector<TraceRecord> all;
    std::uint64_t dropped = 0;
    for (const TraceBuffer* b : buffers) {
        all.insert(all.end(), b->records().begin(), b->records().end());
        dropped += b->dropped();
    }
    std::stable_sort(all.begin(), all.end(),
                     [](const TraceRecord& a, const TraceRecord& b) { return a.time < b.time; });
    out << "# pullsched trace dump: time_us worker event detail (" << all.size() << " events, "
        << dropped << " dropped)\n";
    if (all.empty()) return;
    const TimePoint t0 = all.front().time;
    char line[128];
    for (const TraceRecord& r : all) {
        const double us = std::chrono::duration<double, std::micro>(r.time - t0).count();
        const std::string_view name = toString(r.event);
        // Job tags are unsigned (the rig's planning jobs set the top bit); other details
        // are signed counts or durations.
        const bool isTag = r.event == TraceEvent::Dispatch || r.event == TraceEvent::Continuation ||
                           r.event == TraceEvent::Expired;
        const std::string detail =
            isTag ? std::to_string(static_cast<std::uint64_t>(r.detail)) : std::to_string(r.detail);
        std::snprintf(line, sizeof line, "%12.3f  w%-2u  %-16.*s %s\n", us,
                      static_cast<unsigned>(r.worker), static_cast<int>(name.size()), name.data(),
                      detail.c_str());
        out << line;
    }
}

}  // namespace pullsched::detail
#endif
