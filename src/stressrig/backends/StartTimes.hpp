#pragma once
// How a backend honours the start time of a job: one capability, the same for its graph
// runs and its arrival streams, worded for each (the JSON keys keep their two spellings).

#include <string_view>

namespace pullsched::rig {

enum class StartTimes {
    /// The backend itself holds a job back until its start (pullsched: a job's start
    /// time; Asio: a steady_timer).
    Native,
    /// The backend has no timed start, so the rig holds the job back: in a graph run the
    /// dispatched job sleeps, then spins until its start, occupying its worker (counted as
    /// BackendRun::startWait); in an arrival stream the generator thread submits each job
    /// only at its arrival time.
    HeldByRig,
};

/// Graph runs: "native" / "wait-in-job" (JSON "start_times", tables, --help).
constexpr std::string_view graphStartTimesName(StartTimes s) noexcept {
    return s == StartTimes::Native ? "native" : "wait-in-job";
}

/// Arrival streams: "native" / "generator-posts" (JSON "arrival_times", tables, --help).
constexpr std::string_view arrivalTimesName(StartTimes s) noexcept {
    return s == StartTimes::Native ? "native" : "generator-posts";
}

}  // namespace pullsched::rig
