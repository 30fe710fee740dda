#pragma once
// Hooks into the scheduler's activity, for instrumentation (the stress rig) and debugging.

#include <cstdint>

#include "pullsched/scheduler/Time.hpp"

namespace pullsched {

/// What an observer learns about a job.
struct JobEvent {
    std::uint64_t tag;         ///< JobOptions::tag, chosen by the poster
    TimePoint scheduledStart;  ///< kAsap for jobs without a start time
    TimePoint deadline;
    TimePoint now;  ///< when the event happened (scheduler clock)
};

enum class SleepKind : std::uint8_t {
    Backoff,   ///< contention backoff
    TendNext,  ///< timed sleep until shortly before the next head is due
    Park,      ///< nothing to do: parked until woken; planned: the safety net's period,
               ///< or Duration::max() where another waiting worker has the net
};

/// All methods are called on worker threads, concurrently, with the worker's index.
/// Implementations must be thread-safe and cheap: they run on the dispatch path.
/// An unset observer costs one predictable branch per event. An exception thrown by a
/// callback is caught, counted in Statistics::observerExceptions and otherwise ignored:
/// the job, the worker and the grooming token carry on as if the callback had returned.
class Observer {
  public:
    virtual ~Observer() = default;
    virtual void onJobStart(unsigned /*worker*/, const JobEvent&) {}
    virtual void onJobEnd(unsigned /*worker*/, const JobEvent&) {}
    virtual void onWorkerActive(unsigned /*worker*/) {}
    virtual void onWorkerIdle(unsigned /*worker*/) {}
    virtual void onTokenAcquired(unsigned /*worker*/) {}
    virtual void onTokenContended(unsigned /*worker*/) {}
    virtual void onSleep(unsigned /*worker*/, SleepKind, Duration /*planned*/) {}
};

}  // namespace pullsched
