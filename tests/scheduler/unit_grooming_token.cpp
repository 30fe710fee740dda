#include "detail/GroomingToken.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

using pullsched::detail::GroomingToken;

TEST(GroomingToken, OneOwnerAtATime) {
    GroomingToken t;
    EXPECT_TRUE(t.free());
    EXPECT_TRUE(t.tryAcquire());
    EXPECT_TRUE(t.heldBy());
    EXPECT_FALSE(t.tryAcquire());  // not re-entrant: a second CAS from the holder fails too
    std::thread other([&] { EXPECT_FALSE(t.tryAcquire()); });
    other.join();
    t.release();
    EXPECT_TRUE(t.free());
    std::thread again([&] {
        EXPECT_TRUE(t.tryAcquire());
        t.release();
    });
    again.join();
}

TEST(GroomingToken, ExclusiveUnderManyThreads) {
    // A plain (non-atomic) counter incremented only under the token must equal the
    // number of successful acquisitions; any overlap loses increments (and TSan flags it).
    GroomingToken token;
    std::uint64_t guarded = 0;
    std::atomic<std::uint64_t> acquisitions{0};
    std::atomic<bool> overlap{false};
    std::atomic<int> inside{0};
    constexpr int kThreads = 8, kTries = 20000;
    std::vector<std::thread> threads;
    for (int i = 0; i < kThreads; ++i) {
        threads.emplace_back([&] {
            for (int k = 0; k < kTries; ++k) {
                if (!token.tryAcquire()) continue;
                if (inside.fetch_add(1) != 0) overlap = true;
                ++guarded;
                acquisitions.fetch_add(1, std::memory_order_relaxed);
                inside.fetch_sub(1);
                token.release();
            }
        });
    }
    for (auto& t : threads)
        t.join();
    EXPECT_FALSE(overlap);
    EXPECT_GT(acquisitions.load(), 0u);
    EXPECT_EQ(guarded, acquisitions.load());
}
