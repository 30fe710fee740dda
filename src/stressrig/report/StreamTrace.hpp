#pragma once
// The trace --trace-json writes for an arrival-stream run (open, closed, sweep, soak,
// headroom): the arrivals its player traced (StreamPlayConfig::tracedArrivals), one track
// per thread that ran them, as Chrome trace JSON (ChromeTrace).

#include <cstddef>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "measure/MeasuredJob.hpp"

namespace pullsched::rig {

/// Arrivals a stream's trace holds: enough to see a second or more of a busy load, few
/// enough that the file stays tens of MB.
inline constexpr std::size_t kTracedArrivals = 100'000;

/// What the viewer shows of the run beside its jobs: mode, which run, rate, workers, ...
using TraceNotes = std::vector<std::pair<std::string, std::string>>;

/// The file's text: the process named after `backend`, `jobs` (the traced arrivals that
/// ran, each on its thread's lane), `notes` as the trace's metadata.
std::string streamTraceText(const std::string& backend, std::span<const MeasuredJob> jobs,
                            const TraceNotes& notes);

}  // namespace pullsched::rig
