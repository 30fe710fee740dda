#pragma once
// Time as the scheduler sees it, and the injectable clock that makes its logic testable.

#include <atomic>
#include <chrono>
#include <cstdint>

namespace pullsched {

using SteadyClock = std::chrono::steady_clock;
using TimePoint = SteadyClock::time_point;
using Duration = std::chrono::nanoseconds;

/// Start time meaning "as soon as all predecessors are done".
inline constexpr TimePoint kAsap = TimePoint::min();
/// Deadline meaning "never expires".
inline constexpr TimePoint kNoDeadline = TimePoint::max();

/// `a + b`, clamped to the range of Duration instead of overflowing: a limit of
/// `Duration::max()` means "no limit", not a wrap into the past.
constexpr Duration saturatingAdd(Duration a, Duration b) noexcept {
    std::int64_t sum = 0;
    if (__builtin_add_overflow(a.count(), b.count(), &sum))
        return b.count() > 0 ? Duration::max() : Duration::min();
    return Duration{sum};
}

/// `t + d`, clamped to [TimePoint::min(), TimePoint::max()]: every "start + window" and
/// "now + limit" in the scheduler and the rig goes through here.
constexpr TimePoint saturatingAdd(TimePoint t, Duration d) noexcept {
    return TimePoint{saturatingAdd(t.time_since_epoch(), d)};
}

/// `a - b` for two time points, clamped to the range of Duration.
constexpr Duration saturatingSub(TimePoint a, TimePoint b) noexcept {
    std::int64_t diff = 0;
    if (__builtin_sub_overflow(a.time_since_epoch().count(), b.time_since_epoch().count(), &diff))
        return a > b ? Duration::max() : Duration::min();
    return Duration{diff};
}

/// Source of "now" for the scheduler. The queue, load controller and backoff policy take
/// time as a parameter; the scheduler reads it here, so a test can substitute a manual clock
/// and make deadline and ordering decisions exact.
class ClockSource {
  public:
    virtual ~ClockSource() = default;
    virtual TimePoint now() const noexcept = 0;
};

/// The real clock (std::chrono::steady_clock).
class SteadyClockSource final : public ClockSource {
  public:
    TimePoint now() const noexcept override { return SteadyClock::now(); }
};

/// A clock that only moves when told to. Thread-safe.
class ManualClock final : public ClockSource {
  public:
    explicit ManualClock(TimePoint start = TimePoint{} + std::chrono::hours(1)) noexcept
        : ticks_(start.time_since_epoch().count()) {}

    TimePoint now() const noexcept override {
        return TimePoint{Duration{ticks_.load(std::memory_order_acquire)}};
    }
    /// Saturates at TimePoint::max() / min(), like every time sum in the scheduler.
    void advance(Duration d) noexcept {
        std::int64_t t = ticks_.load(std::memory_order_relaxed);
        while (!ticks_.compare_exchange_weak(
            t, saturatingAdd(TimePoint{Duration{t}}, d).time_since_epoch().count(),
            std::memory_order_acq_rel)) {
        }
    }
    void set(TimePoint t) noexcept {
        ticks_.store(t.time_since_epoch().count(), std::memory_order_release);
    }

  private:
    std::atomic<std::int64_t> ticks_;
};

}  // namespace pullsched
