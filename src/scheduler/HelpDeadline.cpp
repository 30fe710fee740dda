#include "detail/HelpDeadline.hpp"

#if defined(__linux__)
#include <time.h>
#endif

// The coarse clock is Linux's CLOCK_MONOTONIC_COARSE, on the epoch of CLOCK_MONOTONIC,
// which is libstdc++'s and libc++'s steady_clock there. Elsewhere every look reads
// steady_clock.

namespace pullsched::detail {

namespace {

#if defined(__linux__) && defined(CLOCK_MONOTONIC_COARSE)
Duration fromTimespec(const timespec& ts) noexcept {
    return std::chrono::seconds(ts.tv_sec) + std::chrono::nanoseconds(ts.tv_nsec);
}

Duration coarseMargin() noexcept {
    timespec res{};
    if (clock_getres(CLOCK_MONOTONIC_COARSE, &res) != 0) return Duration::max();
    return 2 * fromTimespec(res);
}

TimePoint coarseNow() noexcept {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return TimePoint{fromTimespec(ts)};
}
#else
Duration coarseMargin() noexcept {
    return Duration::max();
}
TimePoint coarseNow() noexcept {
    return TimePoint{};
}
#endif

}  // namespace

HelpDeadline::HelpDeadline(TimePoint steadyDeadline) noexcept
    : deadline_(steadyDeadline),
      margin_(steadyDeadline == kNoDeadline ? Duration::max() : coarseMargin()) {}

bool HelpDeadline::passed() const noexcept {
    if (deadline_ == kNoDeadline) return false;
    if (margin_ != Duration::max() && certainlyAhead(coarseNow(), margin_, deadline_)) return false;
    return SteadyClock::now() >= deadline_;
}

}  // namespace pullsched::detail
