#pragma once
// What the stream drivers (open, closed, rate step, soak) share: the sampling period,
// the resources of a run, a rate over a span and a sleep a stop request cuts short.

#include <cstdint>

#include "backends/StreamRunner.hpp"
#include "load/LoadRunTypes.hpp"
#include "load/StopRequest.hpp"
#include "measure/ProcessSampler.hpp"
#include "pullsched/scheduler/Time.hpp"

namespace pullsched::rig {

/// A hundred samples over the run, every 10 ms at most and every second at least.
Duration samplerInterval(Duration run);
/// Stops `sampler` and fills r's samples, CPU share, wall time, peak RSS and backlog.
void finishResources(LoadRunResult& r, const ProcessSnapshot& s0, const ProcessSnapshot& s1,
                     ProcessSampler& sampler);
/// jobs / span in jobs per second; NaN for an empty span.
double rateOver(std::uint64_t jobs, Duration span);
/// Sleeps until `t` unless a stop is requested first; true if it was.
bool sleepUntil(pullsched::TimePoint t, const StopRequest* stop);
/// `cpu` as a share of `wall`, 100 = one core.
double cpuShare(Duration cpu, Duration wall);

/// Stops the runner when the scope ends, also by an exception: declared after the
/// StreamPlayer, it ends every job (which refer to the player) before the player goes.
class StopsRunner {
  public:
    explicit StopsRunner(StreamRunner& runner) noexcept : runner_(runner) {}
    ~StopsRunner() {
        try {
            runner_.stop();
        } catch (...) {
        }
    }
    StopsRunner(const StopsRunner&) = delete;
    StopsRunner& operator=(const StopsRunner&) = delete;

  private:
    StreamRunner& runner_;
};

}  // namespace pullsched::rig
