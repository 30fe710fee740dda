#include "detail/Backoff.hpp"

#include <gtest/gtest.h>

using namespace std::chrono_literals;
using pullsched::BackoffConfig;
using pullsched::detail::Backoff;

TEST(Backoff, SpinLevelsSpinLevelRoundsWithoutSleeping) {
    BackoffConfig cfg;
    for (unsigned n = 0; n <= 3; ++n) {
        auto s = Backoff::stepFor(cfg, n, 10);
        EXPECT_EQ(s.spinRounds, n);
        EXPECT_EQ(s.sleep, 0ns);
    }
}

TEST(Backoff, SleepsDoubleFromTheBaseUpToSixteenfold) {
    BackoffConfig cfg;  // (100 us + 10 us * r) * 2^(min(n,8) - 4)
    EXPECT_EQ(Backoff::stepFor(cfg, 4, 0).sleep, 100us);
    EXPECT_EQ(Backoff::stepFor(cfg, 4, 10).sleep, 200us);
    EXPECT_EQ(Backoff::stepFor(cfg, 5, 3).sleep, 260us);
    EXPECT_EQ(Backoff::stepFor(cfg, 6, 0).sleep, 400us);
    EXPECT_EQ(Backoff::stepFor(cfg, 7, 0).sleep, 800us);
    EXPECT_EQ(Backoff::stepFor(cfg, 8, 0).sleep, 1600us);
    EXPECT_EQ(Backoff::stepFor(cfg, 12, 0).sleep, 1600us);  // capped at 2^4
    EXPECT_EQ(Backoff::stepFor(cfg, 12, 10).sleep, 3200us);
    EXPECT_EQ(Backoff::stepFor(cfg, 5, 3).spinRounds, 0u);
}

TEST(Backoff, LevelRisesPerContentionAndSaturates) {
    BackoffConfig cfg;
    Backoff b(cfg, 1);
    for (unsigned i = 1; i <= 20; ++i) {
        b.onContention();
        EXPECT_EQ(b.level(), std::min(i, 12u));
    }
}

TEST(Backoff, ContentionStepUsesTheLevelBeforeIncrement) {
    BackoffConfig cfg;
    Backoff b(cfg, 99);
    for (unsigned n = 0; n < 12; ++n) {
        auto s = b.onContention();
        if (n <= 3) {
            EXPECT_EQ(s.spinRounds, n);
            EXPECT_EQ(s.sleep, 0ns);
        } else {
            // Jitter unknown but bounded: r in 0..10.
            EXPECT_GE(s.sleep, Backoff::stepFor(cfg, n, 0).sleep);
            EXPECT_LE(s.sleep, Backoff::stepFor(cfg, n, 10).sleep);
        }
    }
}

TEST(Backoff, SuccessHalvesTheLevel) {
    BackoffConfig cfg;
    Backoff b(cfg, 5);
    for (int i = 0; i < 12; ++i)
        b.onContention();
    ASSERT_EQ(b.level(), 12u);
    b.onSuccess();
    EXPECT_EQ(b.level(), 6u);
    b.onSuccess();
    EXPECT_EQ(b.level(), 3u);
    b.onSuccess();
    EXPECT_EQ(b.level(), 1u);
    b.onSuccess();
    EXPECT_EQ(b.level(), 0u);
}

TEST(Backoff, JitterDiffersBetweenWorkers) {
    BackoffConfig cfg;
    Backoff a(cfg, 1), b(cfg, 2);
    bool differs = false;
    for (int i = 0; i < 40; ++i) {
        auto sa = a.onContention(), sb = b.onContention();
        differs |= sa.sleep != sb.sleep;
        if (i % 8 == 7) {  // keep both in the sleeping range
            a.onSuccess();
            b.onSuccess();
        }
    }
    EXPECT_TRUE(differs);
}

// A base so large that doubling it overflows: the sleep saturates at Duration::max()
// instead of wrapping negative (which read as "do not sleep" and spun instead).
TEST(Backoff, HugeSleepsSaturateInsteadOfWrapping) {
    BackoffConfig cfg;
    cfg.sleepBase = pullsched::Duration::max() / 4;
    cfg.jitterStep = pullsched::Duration::max() / 8;
    EXPECT_EQ(Backoff::stepFor(cfg, 4, 0).sleep, cfg.sleepBase);
    EXPECT_EQ(Backoff::stepFor(cfg, 4, 10).sleep, pullsched::Duration::max());
    EXPECT_EQ(Backoff::stepFor(cfg, 8, 0).sleep, pullsched::Duration::max());
    EXPECT_EQ(Backoff::stepFor(cfg, 12, 1).sleep, pullsched::Duration::max());
}
