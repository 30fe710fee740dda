#include "detail/TimeQueue.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

using namespace std::chrono_literals;
using pullsched::TimePoint;
using Queue = pullsched::detail::TimeQueue<int>;

TEST(TimeQueue, EarliestStartLeavesFirst) {
    Queue q;
    const TimePoint t0{};
    q.push({t0 + 30us, 0, 3});
    q.push({t0 + 10us, 1, 1});
    q.push({t0 + 20us, 2, 2});
    ASSERT_EQ(q.size(), 3u);
    EXPECT_EQ(q.pop().payload, 1);
    EXPECT_EQ(q.pop().payload, 2);
    EXPECT_EQ(q.pop().payload, 3);
    EXPECT_TRUE(q.empty());
}

TEST(TimeQueue, EqualStartsLeaveInSubmissionOrder) {
    // Pushed in shuffled order; the sequence number alone must restore FIFO.
    Queue q;
    const TimePoint t{5ms};
    std::vector<int> seqs(1000);
    for (int i = 0; i < 1000; ++i)
        seqs[i] = i;
    std::mt19937 rng(7);
    std::shuffle(seqs.begin(), seqs.end(), rng);
    for (int s : seqs)
        q.push({t, static_cast<std::uint64_t>(s), s});
    for (int expected = 0; expected < 1000; ++expected)
        EXPECT_EQ(q.pop().payload, expected);
}

TEST(TimeQueue, HeadDueBoundary) {
    Queue q;
    const TimePoint start{1ms};
    EXPECT_FALSE(q.headDue(start));
    q.push({start, 0, 0});
    EXPECT_FALSE(q.headDue(start - 1ns));
    EXPECT_TRUE(q.headDue(start));  // due exactly at its start time
    EXPECT_TRUE(q.headDue(start + 1ns));
}

TEST(TimeQueue, RandomStartsComeOutSorted) {
    Queue q(64);
    std::mt19937_64 rng(42);
    for (int i = 0; i < 5000; ++i)
        q.push(
            {TimePoint{std::chrono::microseconds(rng() % 100)}, static_cast<std::uint64_t>(i), i});
    auto prev = q.pop();
    while (!q.empty()) {
        auto e = q.pop();
        ASSERT_TRUE(prev.start < e.start || (prev.start == e.start && prev.seq < e.seq));
        prev = e;
    }
}
