#pragma once
// How jobs execute: --workers, --load (the job's base time) and --load-kind.

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>

#include "cli/OptionTable.hpp"

namespace pullsched::rig {

using namespace std::chrono_literals;

/// Worker count and job body shared by the modes that run jobs.
struct ExecutionOptions {
    unsigned workers = 2;
    Duration load = 500us;         ///< busy time per unit of node weight (or per job)
    std::string loadKind = "cpu";  ///< cpu | memory

    /// `loadHelp` says what --load means in the mode (e.g. "time per job").
    void declare(OptionTable& t, std::string loadHelp = "job base time per unit weight") {
        t.group("Execution");
        t.count("workers", workers, 1, 1024, "worker threads of the scheduler");
        t.duration("load", load, 100ns, 10s, std::move(loadHelp));
        t.choice("load-kind", loadKind, {"cpu", "memory"}, "computational load of a job");
    }

    /// The parallelism the machine can give: min(workers, hardware threads).
    unsigned machineParallelism() const {
        return std::min(workers, std::max(1u, std::thread::hardware_concurrency()));
    }
};

}  // namespace pullsched::rig
