#pragma once
// Everything the command line can say, parsed once (CommandLine.cpp) and handed to the
// mode that runs. Modes read only the fields they need; defaults are the documented ones.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace pullsched::rig {

using Duration = std::chrono::nanoseconds;
using namespace std::chrono_literals;

struct RigOptions {
    // What runs.
    std::string mode = "run";  ///< topology | run | breaking-point | param-range | open | closed |
                               ///< sweep | pipeclean | soak | headroom
    std::string pattern = "burst";
    std::string rules;                  ///< custom rule string; overrides pattern rules
    std::optional<std::uint64_t> seed;  ///< graph seed (node 0's hash); preset's if unset
    std::size_t nodes = 64;
    std::optional<std::size_t> fan;  ///< maxFan 8 or 16; preset's if unset
    std::vector<unsigned> workers{
        2};                 ///< "--workers=1,2,4,8" gives several (sweep); others use workers[0]
    Duration load = 500us;  ///< job base time (timeBase)
    Duration level = 1ms;   ///< level duration of the default schedule
    double stress = 1.0;
    /// Concurrency the adapted schedule and the lower bound assume. Unset: the
    /// parallelism the machine can give, min(workers, hardware threads): planning 8-way
    /// on 2 cores would promise a schedule no run can keep.
    std::optional<unsigned> concurrency;
    unsigned reps = 1;
    std::string loadKind = "cpu";  ///< cpu | memory
    std::string schedule =
        "adapted";               ///< adapted (stress, concurrency) | default (level l at l x level)
    Duration lifeWindow = 30ms;  ///< deadline = scheduled start + lifeWindow

    // Parameter series / sweep ranges (meaning per mode).
    double from = 10, to = 100, step = 0;
    unsigned points = 0;            ///< param-range sample points (0: mode default)
    std::uint64_t sampleSeed = 42;  ///< seeds sample points and Poisson arrivals

    // Load-test methods (methodology.md).
    double rate = 1000;  ///< jobs per second (open)
    Duration duration = 5s;
    Duration warmup = 500ms;
    Duration hold = 2s;                ///< per sweep step
    Duration interval = 10s;           ///< soak sampling interval
    Duration limit = 1ms;              ///< lateness limit for stable/burst/failure
    std::string arrival = "constant";  ///< constant | poisson
    unsigned users = 4;                ///< closed load
    unsigned maxCopies = 0;            ///< headroom: k = 1..maxCopies (0: 2 x cores)
    std::optional<Duration>
        deadlineWindow;       ///< open load: deadline = intended start + this (unset: mode default)
    Duration think{0};        ///< closed load: pause between a user's jobs
    bool rateGiven = false;   ///< --rate was given explicitly
    bool loadGiven = false;   ///< --load was given explicitly
    bool nodesGiven = false;  ///< --nodes was given explicitly

    // Breaking-point thresholds (reference defaults; scaled by the mode if asked).
    Duration failDelta = 2ms;         ///< a run fails if runtime - expected > this
    double breakFailFraction = 0.99;  ///< broken if fail% above this ...
    double failFraction = 0.55;       ///< ... or all of: fail% above this,
    Duration sdevLimit = 2ms;         ///<     sdev above this,
    Duration deltaLimit = 4ms;        ///<     mean delta above this
    bool scaleThresholds = false;     ///< scale the three ms thresholds by load / 500us

    // Output.
    std::filesystem::path out = "out";
    std::string name;  ///< base name of output files (mode default if empty)
    std::optional<std::filesystem::path> dot;        ///< --dot=FILE ("-" = stdout)
    std::optional<std::filesystem::path> traceJson;  ///< Chrome trace JSON
    std::optional<std::filesystem::path>
        traceDump;       ///< scheduler trace dump (PULLSCHED_TRACE builds)
    bool json = false;   ///< one JSON object on stdout instead of the text report
    bool quiet = false;  ///< no progress on stderr
    bool render = true;  ///< run gnuplot / dot when installed

    unsigned primaryWorkers() const { return workers.empty() ? 2 : workers.front(); }
    unsigned scheduleConcurrency() const {
        if (concurrency) return *concurrency;
        const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
        return std::min(primaryWorkers(), cores);
    }
};

}  // namespace pullsched::rig
