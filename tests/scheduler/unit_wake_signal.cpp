// The event count behind parking: no lost wake-up between "nothing to do" and "asleep".
#include "detail/WakeSignal.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

using pullsched::SteadyClock;
using pullsched::detail::WakeSignal;

TEST(WakeSignal, NotifyBetweenPrepareAndWaitIsNotLost) {
    WakeSignal s;
    const auto key = s.prepareWait();
    EXPECT_EQ(s.waiters(), 1u);
    EXPECT_TRUE(s.notifyOne());  // arrives before the waiter sleeps
    EXPECT_TRUE(s.wait(key));    // untimed: would block forever if the notification were lost
    EXPECT_EQ(s.waiters(), 0u);
}

TEST(WakeSignal, NotifyWithoutWaitersIsFreeAndReportsIt) {
    WakeSignal s;
    EXPECT_FALSE(s.notifyOne());
    EXPECT_FALSE(s.notifyAll());
    EXPECT_FALSE(s.hasWaiters());
}

TEST(WakeSignal, ExpiredDeadlineReturnsWithoutNotification) {
    WakeSignal s;
    const auto key = s.prepareWait();
    EXPECT_FALSE(s.wait(key, SteadyClock::now() - std::chrono::milliseconds(1)));
    EXPECT_EQ(s.waiters(), 0u);
}

TEST(WakeSignal, CancelWaitUndoesPrepare) {
    WakeSignal s;
    (void)s.prepareWait();
    s.cancelWait();
    EXPECT_FALSE(s.hasWaiters());
}

TEST(WakeSignal, EveryRoundTripWakesTheSleeper) {
    // A ping-pong of 2000 rounds over two signals: a single lost wake-up hangs the test
    // (CTest's timeout reports it), so passing means none was lost.
    WakeSignal ping, pong;
    std::atomic<int> ball{0};
    constexpr int kRounds = 2000;
    std::thread other([&] {
        for (int i = 1; i <= kRounds; ++i) {
            while (true) {
                const auto key = ping.prepareWait();
                if (ball.load() == 2 * i - 1) {
                    ping.cancelWait();
                    break;
                }
                ping.wait(key);
            }
            ball.store(2 * i);
            pong.notifyOne();
        }
    });
    for (int i = 1; i <= kRounds; ++i) {
        ball.store(2 * i - 1);
        ping.notifyOne();
        while (true) {
            const auto key = pong.prepareWait();
            if (ball.load() == 2 * i) {
                pong.cancelWait();
                break;
            }
            pong.wait(key);
        }
    }
    other.join();
    EXPECT_EQ(ball.load(), 2 * kRounds);
}
