#pragma once
// Held steps of open load (--mode=sweep, --mode=headroom): --hold, --warmup, --arrival,
// --sample-seed, --deadline-window and --drop-threshold.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "cli/OptionTable.hpp"
#include "load/LoadRunTypes.hpp"

namespace pullsched::rig {

using namespace std::chrono_literals;

/// How each step of offered load is held and judged. Every step runs on a fresh
/// scheduler: `rate` for --hold (its first --warmup not measured), then a drain.
struct RateStepOptions {
    Duration hold = 2s;
    Duration warmup = 500ms;  ///< per step; at most a quarter of the hold
    std::string arrival = "constant";
    std::uint64_t sampleSeed = 42;
    std::optional<Duration> deadlineWindow;  ///< unset: the mode's default
    double dropThreshold = 0.001;            ///< fraction of the step's jobs

    /// `windowDefault` says what an unset --deadline-window means in the mode.
    void declare(OptionTable& t, std::string windowDefault) {
        t.group("Load steps");
        t.duration("hold", hold, 10ms, 1h, "how long each step of offered load is held");
        t.duration("warmup", warmup, 0ns, 1h,
                   "start of each hold that is not measured (at most a quarter of --hold)");
        t.choice("arrival", arrival, {"constant", "poisson"}, "arrival process of the open load");
        t.u64("sample-seed", sampleSeed, "seed of the Poisson arrivals");
        t.optionalDuration("deadline-window", deadlineWindow, 0ns, 1h,
                           "deadline = intended start + this; a job not started by then is "
                           "dropped (0s = no deadlines)",
                           std::move(windowDefault));
        t.percent("drop-threshold", dropThreshold, 0, 100,
                  "a step whose drops (deadline misses) exceed this share of its jobs is never "
                  "stable or sustained");
    }

    /// The measured part begins after this.
    Duration warm() const { return std::min(warmup, hold / 4); }
    Duration window(Duration modeDefault) const { return deadlineWindow.value_or(modeDefault); }
    /// A step that has not drained after this is a failure: long enough for every job
    /// to either run or miss its deadline.
    Duration drainLimit(Duration window) const { return std::max(hold, 2 * window); }

    /// Whether `drops` of `jobs` exceed the threshold (any drop when jobs is 0).
    bool dropsOver(std::uint64_t drops, std::uint64_t jobs) const {
        return jobs > 0 ? static_cast<double>(drops) > dropThreshold * static_cast<double>(jobs)
                        : drops > 0;
    }

    RateStepConfig step(double rate, unsigned workers, Duration jobLoad, Duration window) const {
        RateStepConfig c;
        c.arrivals.rate = rate;
        c.arrivals.arrival = arrival;
        c.arrivals.seed = sampleSeed;
        c.workers = workers;
        c.jobLoad = jobLoad;
        c.hold = hold;
        c.warm = warm();
        c.drainLimit = drainLimit(window);
        c.deadlineWindow = window;
        return c;
    }
};

}  // namespace pullsched::rig
