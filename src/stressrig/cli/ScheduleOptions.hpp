#pragma once
// How a graph is scheduled in time: --schedule, --stress, --level, --concurrency,
// --life-window, --reps, and the safety limit --max-schedule.

#include <chrono>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "cli/BackendOptions.hpp"
#include "cli/OptionTable.hpp"
#include "cli/UsageError.hpp"
#include "format/Units.hpp"

namespace pullsched::rig {

using namespace std::chrono_literals;

struct ScheduleOptions {
    std::string schedule = "adapted";  ///< adapted (by stress, concurrency) | default (levels)
    Duration level = 1ms;              ///< level duration of the default schedule
    double stress = 1.0;
    /// Concurrency the adapted schedule and the lower bound assume. Unset: what the
    /// machine can give, min(workers, hardware threads): planning 8-way on 2 cores would
    /// promise a schedule no run can keep.
    std::optional<unsigned> concurrency;
    Duration lifeWindow = 30ms;  ///< deadline = scheduled start + this; 0 = none
    unsigned reps = 1;
    /// A schedule longer than this is refused: a tiny --stress would otherwise silently
    /// plan a run of days.
    Duration maxSchedule = 1h;

    /// withStress = false for modes that choose the stress themselves (breaking point).
    void declare(OptionTable& t, bool withStress = true) {
        t.group("Schedule");
        t.choice("schedule", schedule, {"adapted", "default"},
                 "adapted: by --stress and --concurrency; default: level l at l x --level");
        t.duration("level", level, 1us, 10s, "level duration of --schedule=default");
        if (withStress)
            t.number("stress", stress, 0.01, 100, "stress factor of the adapted schedule");
        t.optionalCount("concurrency", concurrency, 1, 1024,
                        "concurrency the adapted schedule and the lower bound assume",
                        "min(workers, cores)");
        t.duration("life-window", lifeWindow, 0ns, 1h,
                   "deadline = scheduled start + this; 0s = no deadlines");
        t.count("reps", reps, 1, 100'000, "repetitions of the run");
        t.duration("max-schedule", maxSchedule, 1ms, 24h,
                   "refuse schedules longer than this (raise it for long runs on purpose)");
    }

    unsigned plannedConcurrency(unsigned machineParallelism) const {
        return concurrency.value_or(machineParallelism);
    }

    /// UsageError when a life window was given and a chosen backend cannot expire a job:
    /// it would run without the deadlines asked for, so it is named and refused. The
    /// default window is left to BackendOptions::deadlines().
    void refuseLifeWindowWithout(const OptionTable& t, const BackendOptions& backends) const {
        if (t.given("life-window") && lifeWindow > Duration::zero())
            backends.refuseLacking(&BackendInfo::deadlines,
                                   "--life-window=" + Units::formatDuration(lifeWindow),
                                   "no deadlines", "give --life-window=0s to compare {}");
    }

    /// UsageError when a planned schedule exceeds --max-schedule.
    void checkLength(Duration planned) const {
        if (planned > maxSchedule)
            throw UsageError(fmt::format(
                "the schedule would take {} (over --max-schedule={}): lower --nodes or --load, "
                "raise --stress, or raise --max-schedule",
                Units::formatDuration(planned), Units::formatDuration(maxSchedule)));
    }
};

}  // namespace pullsched::rig
