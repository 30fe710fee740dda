#pragma once
// Per-instance enter/leave instrumentation of worker threads, evaluated offline.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "pullsched/testchain/StopCheck.hpp"

namespace pullsched::rig {

/// Figures computed by IncidenceCount::evaluate().
///
/// Concurrency is the number of *slots* (threads) with at least one open bracket.
/// All durations are sums of timeline slices between consecutive events; a slice is
/// credited with the state that held *before* the event closing it.
struct IncidenceStatistic {
    std::chrono::nanoseconds coveredTime{0};  ///< first event → last event
    std::chrono::nanoseconds activeTime{0};   ///< Σ over slots of their active time
    double avgConcurrency = 0.0;              ///< activeTime / coveredTime (0 if nothing covered)
    std::size_t activations = 0;              ///< number of recorded enter events
    std::size_t maxConcurrency = 0;           ///< highest concurrency seen on the timeline
    /// time spent with fewer than two active slots: timeAtConc(0) + timeAtConc(1)
    std::chrono::nanoseconds impededTime{0};
    std::vector<std::chrono::nanoseconds> timeAtConcurrency;  ///< index = concurrency
    std::vector<std::chrono::nanoseconds> threadTime;         ///< index = slot
    std::vector<std::size_t> threadActivations;               ///< index = slot
    /// Per case: Σ of the durations of its brackets (overlapping brackets count each).
    std::map<std::uint32_t, std::chrono::nanoseconds> caseTime;
    std::map<std::uint32_t, std::size_t> caseActivations;
    std::size_t droppedEvents = 0;    ///< events lost because a slot buffer was full
    std::size_t unmatchedLeaves = 0;  ///< leave events without an open bracket (ignored)

    /// Time spent at exactly concurrency k (0 beyond the highest level seen).
    std::chrono::nanoseconds timeAtConc(std::size_t k) const {
        return k < timeAtConcurrency.size() ? timeAtConcurrency[k] : std::chrono::nanoseconds{0};
    }
    /// False when events were dropped: the figures then describe a truncated timeline.
    bool complete() const { return droppedEvents == 0; }
};

/// Records enter/leave brackets of worker threads with no allocation and no shared
/// writes while measuring, so the instrumentation does not perturb the scheduler.
///
/// Each slot owns a pre-sized buffer and must be written by one thread at a time
/// (slots are per instance — unlike a process-wide thread_local slot, two instances
/// never collide). When a slot's buffer is full further events are counted as
/// dropped instead of written; evaluate() reports them. Call evaluate() and reset()
/// only after the writing threads are done (joined or otherwise synchronised).
class IncidenceCount {
  public:
    using Clock = std::chrono::steady_clock;
    using TimePoint = Clock::time_point;

    struct Event {
        TimePoint when;
        std::uint32_t slot;
        std::uint32_t caseId;
        bool leave;  ///< false = enter
    };

    /// Pre-sizes one buffer of `eventsPerSlot` events per slot. Throws
    /// std::invalid_argument for zero slots.
    IncidenceCount(unsigned threadSlots, std::size_t eventsPerSlot);
    IncidenceCount(const IncidenceCount&) = delete;  // buffers are shared with workers by address
    IncidenceCount& operator=(const IncidenceCount&) = delete;

    /// Out-of-range slots are counted as dropped events (never written). A leave closes
    /// the slot's innermost open bracket; its caseId is informational only.
    void enter(unsigned slot, std::uint32_t caseId = 0) noexcept {
        record(slot, caseId, false, Clock::now());
    }
    void leave(unsigned slot, std::uint32_t caseId = 0) noexcept {
        record(slot, caseId, true, Clock::now());
    }
    /// Explicit time stamps, for tests and for replaying recorded timelines.
    void enter(unsigned slot, std::uint32_t caseId, TimePoint when) noexcept {
        record(slot, caseId, false, when);
    }
    void leave(unsigned slot, std::uint32_t caseId, TimePoint when) noexcept {
        record(slot, caseId, true, when);
    }

    unsigned slots() const noexcept { return static_cast<unsigned>(slots_.size()); }
    std::size_t capacityPerSlot() const noexcept { return capacity_; }
    std::size_t recorded(unsigned slot) const;  ///< events stored in that slot
    std::size_t dropped() const noexcept;       ///< events lost over all slots
    bool overflowed() const noexcept { return dropped() > 0; }

    /// All recorded events, merged and stably sorted by time (within a slot the
    /// recording order is kept, so zero-length brackets stay well-formed). `stop` is
    /// polled between merges and every testchain::kStopPollItems events of evaluate()
    /// (a run of millions of jobs takes seconds); testchain::Stopped is thrown when it asks.
    std::vector<Event> timeline(const testchain::StopPredicate& stop = {}) const;
    IncidenceStatistic evaluate(const testchain::StopPredicate& stop = {}) const;
    /// Forget all events; the buffers keep their size.
    void reset() noexcept;

  private:
    /// Cache-line aligned so that neighbouring slots' counters do not false-share.
    struct alignas(64) Slot {
        std::vector<Event> events;
        std::size_t used = 0;
        std::size_t dropped = 0;
    };

    void record(unsigned slot, std::uint32_t caseId, bool leave, TimePoint when) noexcept {
        if (slot >= slots_.size()) {
            outOfRange_.fetch_add(1, std::memory_order_relaxed);  // misuse: counted, not written
            return;
        }
        Slot& s = slots_[slot];
        if (s.used < capacity_) {
            s.events[s.used] = Event{when, slot, caseId, leave};
            ++s.used;
        } else {
            ++s.dropped;
        }
    }

    std::vector<Slot> slots_;
    std::size_t capacity_;
    std::atomic<std::size_t> outOfRange_{0};
};

}  // namespace pullsched::rig
