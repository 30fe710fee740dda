#pragma once
// Everything the command line can say, parsed once (CommandLine.cpp) and handed to the
// mode that runs. Modes read only the fields they need; defaults are the documented ones.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace pullsched::rig {

using Duration = std::chrono::nanoseconds;
using namespace std::chrono_literals;

struct RigOptions {
    // What runs.
    std::string mode = "run";  ///< topology | run | breaking-point | param-range | open | closed | sweep | pipeclean | soak | headroom
    std::string pattern = "burst";
    std::string rules;                      ///< custom rule string; overrides pattern rules
    std::optional<std::uint64_t> seed;      ///< graph seed (node 0's hash); preset's if unset
    std::size_t nodes = 64;
    std::optional<std::size_t> fan;         ///< maxFan 8 or 16; preset's if unset
    std::vector<unsigned> workers{2};       ///< "--workers=1,2,4,8" gives several (sweep); others use workers[0]
    Duration load = 500us;                  ///< job base time (timeBase)
    Duration level = 1ms;                   ///< level duration of the default schedule
    double stress = 1.0;
    unsigned reps = 1;
    std::string loadKind = "cpu";           ///< cpu | memory

    // Parameter series / sweep ranges (meaning per mode).
    double from = 10, to = 100, step = 0;
    unsigned points = 0;                    ///< param-range sample points (0: mode default)
    std::uint64_t sampleSeed = 42;          ///< seeds sample points and Poisson arrivals

    // Load-test methods (methodology.md).
    double rate = 1000;                     ///< jobs per second (open)
    Duration duration = 5s;
    Duration warmup = 500ms;
    Duration hold = 2s;                     ///< per sweep step
    Duration interval = 10s;                ///< soak sampling interval
    Duration limit = 1ms;                   ///< lateness limit for stable/burst/failure
    std::string arrival = "constant";       ///< constant | poisson
    unsigned users = 4;                     ///< closed load
    unsigned maxCopies = 0;                 ///< headroom: k = 1..maxCopies (0: 2 x cores)

    // Breaking-point thresholds (reference defaults; scaled by the mode if asked).
    Duration failDelta = 2ms;               ///< a run fails if runtime - expected > this
    double breakFailFraction = 0.99;        ///< broken if fail% above this ...
    double failFraction = 0.55;             ///< ... or all of: fail% above this,
    Duration sdevLimit = 2ms;               ///<     sdev above this,
    Duration deltaLimit = 4ms;              ///<     mean delta above this

    // Output.
    std::filesystem::path out = "out";
    std::string name;                       ///< base name of output files (mode default if empty)
    std::optional<std::filesystem::path> dot;        ///< --dot=FILE ("-" = stdout)
    std::optional<std::filesystem::path> traceJson;  ///< Chrome trace JSON
    std::optional<std::filesystem::path> traceDump;  ///< scheduler trace dump (PULLSCHED_TRACE builds)
    bool json = false;                      ///< one JSON object on stdout instead of the text report
    bool quiet = false;                     ///< no progress on stderr
    bool render = true;                     ///< run gnuplot / dot when installed

    unsigned primaryWorkers() const { return workers.empty() ? 2 : workers.front(); }
};

}  // namespace pullsched::rig
