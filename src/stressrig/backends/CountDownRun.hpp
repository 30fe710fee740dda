#pragma once
// One timed run of a graph on a backend that tracks dependencies with PredecessorCounts
// (Boost.Asio, the pool). A run that does not end within GraphJobs' limit leaves the
// backend broken: its threads may still hold the graph, so no later run may start.

#include <stdexcept>
#include <string>
#include <string_view>

#include "backends/BackendRun.hpp"
#include "backends/GraphJobs.hpp"
#include "backends/PredecessorCounts.hpp"

namespace pullsched::rig {

/// `startRoots()` hands the graph's roots to the backend's threads.
template <class StartRoots>
BackendRun runCountingDown(std::string_view backend, GraphJobs& jobs, PredecessorCounts& counts,
                           bool& broken, StartRoots&& startRoots) {
    if (broken) throw std::logic_error(std::string(backend) + " backend: an earlier run timed out");
    jobs.beginRun();  // throws if not prepared
    counts.reset();
    startRoots();
    const bool done = jobs.waitAll();
    if (!done) broken = true;
    BackendRun out = jobs.finish(!done);
    out.timedGraphBuilds = 1;  // the predecessor counts, reset above
    return out;
}

}  // namespace pullsched::rig
