#pragma once
// Options of the timed load tests (open, closed, soak): how long they run, and for open
// load the arrival process, the lateness limit and the deadline window.

#include <chrono>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "cli/OptionTable.hpp"
#include "cli/StagesOption.hpp"
#include "cli/UsageError.hpp"
#include "format/Units.hpp"
#include "load/LoadRunTypes.hpp"

namespace pullsched::rig {

using namespace std::chrono_literals;

/// --duration and --warmup: how long a timed load runs and how much of its start is not
/// measured.
struct LoadSpanOptions {
    Duration duration = 5s;
    Duration warmup = 500ms;

    void declare(OptionTable& t, Duration defaultDuration, std::string warmupHelp) {
        duration = defaultDuration;
        t.group("Load");
        t.duration("duration", duration, kMinLoadDuration, kMaxLoadDuration,
                   "how long the load runs");
        t.duration("warmup", warmup, 0ns, 1h, std::move(warmupHelp));
    }

    /// UsageError unless the warm-up leaves a span to measure.
    void refuseWarmupNotShorter() const {
        if (warmup >= duration)
            throw UsageError(fmt::format("--warmup={} must be shorter than --duration={}",
                                         Units::formatDuration(warmup),
                                         Units::formatDuration(duration)));
    }

    /// "the first 500ms not measured", or "all measured" without a warm-up.
    std::string warmupText() const {
        if (warmup == Duration{0}) return "all measured";
        return fmt::format("the first {} not measured", Units::formatDuration(warmup));
    }
};

/// The open (fixed arrival rate) load: --rate or --stages, --arrival, --sample-seed,
/// --limit and --deadline-window.
struct OpenLoadOptions {
    double rate = 1000;
    std::string stagesText;
    std::optional<RateProfile> stages;  ///< --stages, parsed by resolve()
    std::string arrival = "constant";
    std::uint64_t sampleSeed = 42;
    Duration limit = 1ms;
    /// deadline = intended start + this; 0 = none. Unset on the command line it is
    /// 100 x --limit (resolved by resolve(), so the configuration shows the value used).
    Duration deadlineWindow = 100ms;
    bool deadlineWindowGiven = false;

    void declare(OptionTable& t, std::string rateHelp) {
        t.group("Open load");
        t.rate("rate", rate, 0.1, 10e6, std::move(rateHelp));
        t.text("stages", stagesText, "STAGES",
               "a rate that changes over time instead of --rate: DURATION:RATE (hold) or "
               "DURATION:RATE->RATE (ramp), comma-separated (e.g. 30s:0->2k/s,1m:2k/s,10s:8k/s,"
               "1m:2k/s), or @FILE with one stage per line; the stages' total is the run's "
               "duration");
        t.choice("arrival", arrival, {"constant", "poisson"},
                 "constant: evenly spaced; poisson: exponential gaps (seeded by --sample-seed)");
        t.u64("sample-seed", sampleSeed, "seed of the Poisson arrivals");
        t.duration("limit", limit, 1us, 10s,
                   "lateness limit: a job starting later than this after its intended start "
                   "is a miss");
        t.duration("deadline-window", deadlineWindow, 0ns, 1h,
                   "deadline = intended start + this, unset 100 x --limit: a job not started "
                   "by then is dropped; 0s = no deadlines");
    }

    /// Applies the --deadline-window default and parses --stages, which then set the
    /// load's span (`span`, from --duration); call from validate(). UsageError for
    /// --stages together with --rate or --duration: each would say something the
    /// stages already say, differently.
    void resolve(const OptionTable& t, Duration& span) {
        deadlineWindowGiven = t.given("deadline-window");
        if (!deadlineWindowGiven) deadlineWindow = 100 * limit;
        if (!t.given("stages")) return;
        for (const char* other : {"rate", "duration"})
            if (t.given(other))
                throw UsageError(fmt::format(
                    "--stages and --{} do not go together: the stages set the rate and the "
                    "duration; leave --{} out",
                    other, other));
        stages = readStagesArgument(stagesText);
        span = stages->duration();
    }

    /// "2k/s" or "stages 30s:0→2k/s,…".
    std::string rateText() const {
        return stages ? "stages " + stages->text() : Units::formatRate(rate);
    }

    /// "7ms", "100ms (100 x --limit)" or "none (--deadline-window=0s)".
    std::string deadlineText() const {
        if (deadlineWindow == Duration{0}) return "none (--deadline-window=0s)";
        return fmt::format("{}{}", Units::formatDuration(deadlineWindow),
                           deadlineWindowGiven ? "" : " (100 x --limit)");
    }

    ArrivalConfig arrivals() const { return {rate, arrival, sampleSeed, stages}; }

    /// UsageError when `span` at --rate needs more than `maxArrivals` arrivals at once.
    void checkArrivals(Duration span, double maxArrivals, const char* spanOption) const {
        const double seconds = std::chrono::duration<double>(span).count();
        // stages: the whole profile, or its peak over a shorter span (a soak interval)
        double n = rate * seconds;
        if (stages)
            n = span >= stages->duration() ? static_cast<double>(stages->arrivalsBefore(span))
                                           : stages->peakRate() * seconds;
        if (stages && n > maxArrivals)
            throw UsageError(
                fmt::format("--stages offer {:.3g} arrivals (at most {:.3g}): lower "
                            "their rates or shorten them",
                            n, maxArrivals));
        if (n > maxArrivals)
            throw UsageError(fmt::format(
                "--rate={} over --{}={} means {:.3g} arrivals (at most {:.3g}): lower one of them",
                Units::formatRate(rate), spanOption, Units::formatDuration(span), n, maxArrivals));
    }
};

}  // namespace pullsched::rig
