#pragma once
// Built-in trace points (the reference patched print statements in by cherry-picking a
// changeset). Compiled in only with -DPULLSCHED_TRACE=ON; otherwise PULLSCHED_TRACE_POINT
// expands to nothing and none of this file's types exist in the binary.

#include <cstdint>

#ifndef PULLSCHED_TRACE
#define PULLSCHED_TRACE 0
#endif

#if PULLSCHED_TRACE
#include <iosfwd>
#include <string_view>
#include <vector>

#include "pullsched/scheduler/Time.hpp"
#endif

namespace pullsched::detail {

enum class TraceEvent : std::uint8_t {
    TokenAcquired,
    TokenDropped,    ///< detail: entries moved to ready
    TokenContended,  ///< detail: backoff level
    Dispatch,        ///< detail: job tag
    Continuation,    ///< detail: job tag (successor run by the releasing worker)
    Decision,        ///< detail: capacity class
    Sleep,           ///< detail: planned ns
    Backoff,         ///< detail: planned ns (0 = spin)
    GateNotify,      ///< detail: remaining predecessors
    Park,
    Wake,
    Expired,  ///< detail: job tag
};

#if PULLSCHED_TRACE
std::string_view toString(TraceEvent e) noexcept;

struct TraceRecord {
    TimePoint time;
    std::int64_t detail;
    std::uint16_t worker;
    TraceEvent event;
};

/// One per worker: written only by its worker, pre-sized, never reallocated while
/// running; events beyond the capacity are counted as dropped.
class TraceBuffer {
  public:
    TraceBuffer(std::uint16_t worker, std::size_t capacity) : worker_(worker) {
        records_.reserve(capacity);
    }
    void record(TimePoint t, TraceEvent e, std::int64_t detail) noexcept {
        if (records_.size() < records_.capacity()) {
            records_.push_back({t, detail, worker_, e});
        } else {
            ++dropped_;
        }
    }
    const std::vector<TraceRecord>& records() const noexcept { return records_; }
    std::uint64_t dropped() const noexcept { return dropped_; }

  private:
    std::uint16_t worker_;
    std::vector<TraceRecord> records_;
    std::uint64_t dropped_ = 0;
};

/// Merge the buffers by time into a text dump: `<µs since first> <worker> <event> <detail>`.
void writeTraceDump(std::ostream& out, const std::vector<const TraceBuffer*>& buffers);

#define PULLSCHED_TRACE_POINT(traceBuffer, when, eventName, value)  \
    (traceBuffer)                                                   \
        .record((when), ::pullsched::detail::TraceEvent::eventName, \
                static_cast<std::int64_t>(value))
#else
#define PULLSCHED_TRACE_POINT(traceBuffer, when, eventName, value) ((void)0)
#endif

}  // namespace pullsched::detail
