#pragma once
// A caller's request to stop, as testchain's long operations see it: a predicate they
// poll. The library knows no signals and nothing of the programs that use it.

#include <cstddef>
#include <functional>
#include <stdexcept>

namespace pullsched::testchain {

/// True once the caller wants the work to stop. An empty predicate never asks.
using StopPredicate = std::function<bool()>;

/// Thrown by work that its StopPredicate ended before it had a result (graph generation,
/// the preparation of a run).
class Stopped : public std::runtime_error {
  public:
    Stopped() : std::runtime_error("stopped on request") {}
};

/// Throws Stopped if `stop` asks to stop.
inline void throwIfStopped(const StopPredicate& stop) {
    if (stop && stop()) throw Stopped();
}

/// Items (nodes, levels, rows, events) of a long loop between two polls of its stop: a
/// few ms of work, so that a stop takes effect well within a second.
inline constexpr std::size_t kStopPollItems = std::size_t{1} << 16;

/// throwIfStopped() at every kStopPollItems-th item of a loop, item 0 included.
inline void pollStop(const StopPredicate& stop, std::size_t item) {
    if (item % kStopPollItems == 0) throwIfStopped(stop);
}

}  // namespace pullsched::testchain
