// The helping wait's limit check (HelpDeadline): the coarse look may only ever say "ahead"
// when the limit is ahead, so a limit already behind steady_clock has passed, whatever the
// coarse clock reads; without a limit nothing has passed.
#include "detail/HelpDeadline.hpp"

#include <gtest/gtest.h>

using namespace std::chrono_literals;
using pullsched::Duration;
using pullsched::kNoDeadline;
using pullsched::SteadyClock;
using pullsched::TimePoint;
using pullsched::detail::HelpDeadline;

TEST(HelpDeadline, WithoutALimitNothingPasses) {
    EXPECT_FALSE(HelpDeadline(kNoDeadline).passed());
}

// The coarse clock must not run ahead of steady_clock's epoch: a limit that steady_clock
// already showed (now, or a tick ago) has passed.
TEST(HelpDeadline, ALimitSteadyClockShowedHasPassed) {
    const TimePoint now = SteadyClock::now();
    EXPECT_TRUE(HelpDeadline(now).passed());
    EXPECT_TRUE(HelpDeadline(now - 1ns).passed());
    EXPECT_TRUE(HelpDeadline(now - 4ms).passed());
    EXPECT_TRUE(HelpDeadline(now - 1h).passed());
}

TEST(HelpDeadline, ALimitFarAheadHasNotPassed) {
    EXPECT_FALSE(HelpDeadline(SteadyClock::now() + 1h).passed());
}

TEST(HelpDeadline, TheCoarseLookIsSureOnlyBeyondItsMargin) {
    const TimePoint coarse{10s};
    EXPECT_TRUE(HelpDeadline::certainlyAhead(coarse, 8ms, coarse + 9ms));
    EXPECT_FALSE(HelpDeadline::certainlyAhead(coarse, 8ms, coarse + 8ms));
    EXPECT_FALSE(HelpDeadline::certainlyAhead(coarse, 8ms, coarse + 1ms));
    EXPECT_FALSE(HelpDeadline::certainlyAhead(coarse, 8ms, coarse - 1s));
    // No coarse clock: never sure, steady_clock decides.
    EXPECT_FALSE(HelpDeadline::certainlyAhead(coarse, Duration::max(), TimePoint::max() - 1s));
}
