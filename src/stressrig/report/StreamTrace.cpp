#include "report/StreamTrace.hpp"

#include <sstream>

#include "report/ChromeTrace.hpp"

namespace pullsched::rig {

std::string streamTraceText(const std::string& backend, std::span<const MeasuredJob> jobs,
                            const TraceNotes& notes) {
    ChromeTrace trace(backend);
    trace.add(jobs);
    trace.setMetadata("backend", backend);
    for (const auto& [key, value] : notes)
        trace.setMetadata(key, value);
    std::ostringstream text;
    trace.write(text);
    return text.str();
}

}  // namespace pullsched::rig
