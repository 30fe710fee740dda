#pragma once
// The trace --trace-json writes for the graph modes that run a series (breaking-point,
// param-range, granularity, pipeclean): the runs a mode picked of one backend, one after
// the other, each job on the track of the thread that ran it (BackendRun::lanes), as
// Chrome trace JSON (ScheduledRunTrace). Every backend's threads are seen this way, so it
// needs no instrumented backend.

#include <cstddef>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "backends/BackendRun.hpp"

namespace pullsched::rig {

/// One run to trace and the name of its span, e.g. "probe at stress 1.250, run 20".
struct TracedGraphRun {
    std::string label;
    BackendRun run;
};

/// A trace's text and how many job events it holds.
struct GraphRunsTraceText {
    std::string text;
    std::size_t jobEvents = 0;
};

/// `threads`: the threads that may run jobs, a track each even when idle (a lane beyond
/// them gets one as well); `metadata`: an object the viewer shows beside the jobs.
GraphRunsTraceText graphRunsTrace(const std::string& title, unsigned threads,
                                  std::span<const TracedGraphRun> runs,
                                  const nlohmann::json& metadata);

}  // namespace pullsched::rig
