#pragma once
// Measures an open load interval by interval while the player plays it (soak, open with
// --stages), on any backend: every interval's offered and achieved rate, lateness,
// backlog, drops and resources.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "backends/StreamPlayer.hpp"
#include "load/ArrivalConfig.hpp"
#include "load/IntervalRow.hpp"
#include "load/StopRequest.hpp"
#include "measure/LatencyHistogram.hpp"
#include "measure/LatencyRecorder.hpp"
#include "measure/ProcessSampler.hpp"

namespace pullsched::rig {

/// What to cut the load into.
struct IntervalPlan {
    const ArrivalConfig* arrivals = nullptr;  ///< the offered rate of each interval
    Duration duration{0};                     ///< of the load
    Duration interval{0};                     ///< > 0
    Duration lateLimit{0};                    ///< later starts are misses

    /// ⌈duration / interval⌉ — the last interval may be cut short by the load's end.
    std::size_t intervals() const noexcept {
        return static_cast<std::size_t>((duration.count() + interval.count() - 1) /
                                        interval.count());
    }
};

/// Closes each interval once its end has passed: the lateness of its jobs, throughput,
/// memory, CPU share, steal time and backlog as one row, each relative to the previous
/// interval's readings. Call it with the time between posts (the player's tick) and
/// afterwards closeRemaining().
class IntervalHarvester {
  public:
    using OnInterval = std::function<void(const IntervalRow&, std::size_t, std::size_t)>;

    /// Rows go to `rows`, every harvested lateness into `lateness`.
    IntervalHarvester(const IntervalPlan& plan, StreamPlayer& player, LatencyRecorder& recorder,
                      pullsched::TimePoint origin, std::vector<IntervalRow>& rows,
                      LatencyHistogram& lateness, OnInterval onInterval = {});

    bool done() const noexcept { return harvested_ >= plan_.intervals(); }
    /// The end of the next interval to close. The sum saturates like every time sum of the
    /// rig; the product cannot overflow while intervals × interval fits the load's duration.
    pullsched::TimePoint nextEnd() const;

    void operator()(pullsched::TimePoint now);

    /// Waits for and closes the intervals left after the last arrival; true if a stop
    /// request ended the wait first.
    bool closeRemaining(const StopRequest* stop);

  private:
    /// What the player and its runner have counted so far.
    struct Counts {
        std::uint64_t completed = 0, expired = 0, posted = 0;
    };
    Counts counts() const noexcept;
    IntervalRow row(const ProcessSnapshot& snap, const MachineCpuTicks& ticks,
                    const Counts& now) const;

    IntervalPlan plan_;
    StreamPlayer& player_;
    LatencyRecorder& recorder_;
    std::vector<IntervalRow>& rows_;
    LatencyHistogram& lateness_;
    OnInterval onInterval_;
    LatencyHistogram hist_;  // one interval's lateness, reused
    const pullsched::TimePoint origin_;
    std::size_t harvested_ = 0;
    ProcessSnapshot prevSnap_;
    MachineCpuTicks prevTicks_;
    Counts prev_;
};

}  // namespace pullsched::rig
