#pragma once
// One backend as the rig knows it: its name, what it can do and how to make its runners.
// Every backend is one entry of BackendRegistry; its runner classes take their name and
// capabilities from that entry, so a name is spelt once.

#include <memory>
#include <span>
#include <string_view>

#include "backends/StartTimes.hpp"

namespace pullsched::rig {

class GraphRunner;
class StreamRunner;
class RecursionRunner;
struct BackendInfo;

using GraphRunnerFactory = std::unique_ptr<GraphRunner> (*)(const BackendInfo&);
using StreamRunnerFactory = std::unique_ptr<StreamRunner> (*)(const BackendInfo&);
using RecursionRunnerFactory = std::unique_ptr<RecursionRunner> (*)(const BackendInfo&);

/// A further idiom of a backend for work that its jobs create, which --mode=spawn runs
/// beside the backend's own under a name of its own (BackendRegistry::recursionNames()).
/// No other mode knows the name: it is not a backend.
struct RecursionVariant {
    std::string_view name;  ///< --backends name in --mode=spawn, JSON name: "pullsched-coro"
    RecursionRunnerFactory makeRunner = nullptr;  ///< given the backend's BackendInfo
};

struct BackendInfo {
    std::string_view name;     ///< --backends name, JSON key
    std::string_view summary;  ///< one line for --help
    StartTimes startTimes = StartTimes::HeldByRig;
    /// Takes the rig's Observer (RunInstrument): the worker of each job and per-worker
    /// activity; the other backends ignore BackendSetup::observer and have no such detail.
    bool instrumented = false;
    /// Expires a job not started by its deadline itself (BackendSetup::deadlines, stream
    /// deadlines). Graph runs need this, so a mode refuses a life window given for the
    /// others; arrival streams hold deadlines in the rig for them (StreamRunner).
    bool deadlines = false;
    /// Places its workers as BackendSetup::placement says; the others leave it to the OS.
    bool placement = false;
    /// Builds its graph inside every run whatever BackendSetup::planInRun says (OpenMP's
    /// tasks and depend clauses, Asio's and the pool's per-run predecessor counts): its two
    /// timings are the same. False: planInRun moves the building into the run.
    bool buildsGraphEveryRun = false;
    /// Can run its prebuilt graph a second way, as one batch submitted when the clock
    /// starts (BackendSetup::prebuiltBatch), besides behind its timed gate: pullsched.
    bool submitsPrebuiltBatch = false;
    /// One sentence each on how start times are honoured (JSON "start_times_text" and
    /// "arrival_times_text", --help).
    std::string_view graphStartTimesText;
    std::string_view streamStartTimesText;
    /// nullptr: the backend cannot run that kind of load.
    GraphRunnerFactory makeGraphRunner = nullptr;
    StreamRunnerFactory makeStreamRunner = nullptr;
    RecursionRunnerFactory makeRecursionRunner = nullptr;
    /// Its further idioms of the same recursion (pullsched: Tasks), listed after it.
    std::span<const RecursionVariant> recursionVariants{};

    bool runsGraphs() const noexcept { return makeGraphRunner != nullptr; }
    bool runsStreams() const noexcept { return makeStreamRunner != nullptr; }
    bool runsRecursion() const noexcept { return makeRecursionRunner != nullptr; }
};

}  // namespace pullsched::rig
