// PostBatch: many jobs posted at once. Every job runs once, after its predecessors (in the
// batch or outside it, placeholders included); timed jobs leave in (start, sequence)
// order; the batch is counted at submit(); misuse, shutdown and an unsubmitted batch end
// as documented. Orders come from a logical clock or one worker, never from time.
#include "pullsched/scheduler/PostBatch.hpp"
#include "pullsched/scheduler/Scheduler.hpp"

#include "SchedulerTestKit.hpp"
#include "detail/GroupState.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace std::chrono_literals;
using namespace pullsched;

namespace {

using testkit::RunOrder;
using testkit::withWorkers;

/// Runs `call` and returns what the exception of type E it threw says ("" if none).
template <class E, class Call>
std::string messageOf(Call&& call) {
    try {
        call();
    } catch (const E& e) {
        return e.what();
    }
    return "";
}

/// Per job: how often it ran, and logical start and end stamps.
struct Stamps {
    explicit Stamps(int n) : runs(n), started(n), ended(n) {}
    std::atomic<std::uint64_t> tick{0};
    std::vector<std::atomic<int>> runs;
    std::vector<std::uint64_t> started, ended;
    auto job(int i) {
        return [this, i] {
            runs[i].fetch_add(1);
            started[i] = tick.fetch_add(1) + 1;
            ended[i] = tick.fetch_add(1) + 1;
        };
    }
};

}  // namespace

TEST(PostBatch, RunsEveryJobOnceAfterItsPredecessorsInAndOutsideTheBatch) {
    constexpr int kOutside = 50, kJobs = 3000;
    Stamps st(kOutside + kJobs);
    Scheduler sched(withWorkers(2));
    std::vector<JobHandle> h(kOutside + kJobs);
    std::vector<std::vector<int>> preds(kOutside + kJobs);
    for (int i = 0; i < kOutside; ++i)
        h[i] = sched.post(st.job(i));
    std::mt19937_64 rng(7);
    auto batch = sched.batch(kJobs);
    for (int i = kOutside; i < kOutside + kJobs; ++i) {
        std::vector<JobHandle> ps;
        for (std::uint64_t k = rng() % 4; k > 0; --k) {
            const int p = static_cast<int>(rng() % i);  // in the batch or outside it
            preds[i].push_back(p);
            ps.push_back(h[p]);
        }
        h[i] = batch.post(st.job(i), {}, ps);
    }
    EXPECT_EQ(batch.size(), static_cast<std::size_t>(kJobs));
    batch.submit();
    sched.drain();
    for (int i = 0; i < kOutside + kJobs; ++i) {
        ASSERT_EQ(st.runs[i].load(), 1) << "job " << i;
        for (int p : preds[i])
            ASSERT_LT(st.ended[p], st.started[i]) << "job " << i << " before " << p;
        EXPECT_EQ(h[i].state(), JobState::Completed);
    }
    const Statistics s = sched.stats();
    EXPECT_EQ(s.submitted, static_cast<std::uint64_t>(kOutside + kJobs));
    EXPECT_EQ(s.completed, s.submitted);
    EXPECT_TRUE(s.balanced());
}

TEST(PostBatch, TimedJobsLeaveInStartThenSequenceOrder) {
    ManualClock clock;
    Scheduler sched(withWorkers(1, &clock));
    RunOrder order;
    const TimePoint t0 = clock.now();
    auto batch = sched.batch();
    // Posted out of start order; equal starts keep the order posted.
    const int starts[] = {3, 1, 2, 1, 3, 0, 2};
    for (int i = 0; i < 7; ++i)
        batch.postDetached(order.recorder(i), {.start = t0 + starts[i] * 1ms});
    // A plain post before submit() takes an earlier sequence number than the whole batch.
    sched.postDetached(order.recorder(100), {.start = t0 + 1ms});
    batch.submit();
    sched.postDetached(order.recorder(101), {.start = t0 + 1ms});
    clock.advance(10ms);
    sched.wake();
    sched.drain();
    EXPECT_EQ(order.order(), (std::vector<int>{5, 100, 1, 3, 101, 2, 6, 0, 4}));
}

TEST(PostBatch, PlaceholderIsNamedBeforeItIsFilled) {
    Stamps st(4);
    Scheduler sched(withWorkers(2));
    auto batch = sched.batch();
    const JobHandle first = batch.post(st.job(0));
    const JobHandle later = batch.placeholder();
    const JobHandle after = batch.post(st.job(2), {}, {later, first});
    batch.postDetached(st.job(3), {}, {after});
    batch.fill(later, st.job(1), {.tag = 9}, {first});
    batch.submit();
    sched.drain();
    for (int i = 0; i < 4; ++i)
        ASSERT_EQ(st.runs[i].load(), 1) << "job " << i;
    EXPECT_LT(st.ended[0], st.started[1]);
    EXPECT_LT(st.ended[1], st.started[2]);
    EXPECT_LT(st.ended[2], st.started[3]);
    EXPECT_EQ(later.tag(), 9u);
    EXPECT_EQ(sched.stats().completed, 4u);
}

TEST(PostBatch, IsCountedAtSubmitOnce) {
    Scheduler sched(withWorkers(2));
    std::atomic<int> ran{0};
    auto batch = sched.batch();
    for (int i = 0; i < 100; ++i)
        batch.postDetached([&ran] { ran.fetch_add(1); });
    sched.drain();  // nothing submitted yet: returns at once
    EXPECT_EQ(sched.stats().submitted, 0u);
    EXPECT_EQ(ran.load(), 0);
    batch.submit();
    sched.drain();
    const Statistics s = sched.stats();
    EXPECT_EQ(s.submitted, 100u);
    EXPECT_EQ(s.completed, 100u);
    EXPECT_EQ(s.pending, 0u);
    EXPECT_TRUE(s.balanced());
    EXPECT_EQ(ran.load(), 100);
}

TEST(PostBatch, FailedOutsidePredecessorCancelsTheJobAndItsSuccessorsInTheBatch) {
    Scheduler sched(withWorkers(2));
    const JobHandle bad = sched.post([] { throw std::runtime_error("no"); });
    sched.drain();
    std::atomic<int> ran{0};
    auto batch = sched.batch();
    const JobHandle a = batch.post([&ran] { ran.fetch_add(1); }, {}, {bad});
    const JobHandle b = batch.post([&ran] { ran.fetch_add(1); }, {}, {a});
    const JobHandle c = batch.post([&ran] { ran.fetch_add(1); });
    batch.submit();
    sched.drain();
    EXPECT_EQ(a.state(), JobState::Cancelled);
    EXPECT_EQ(b.state(), JobState::Cancelled);
    EXPECT_EQ(c.state(), JobState::Completed);
    EXPECT_EQ(ran.load(), 1);
    const Statistics s = sched.stats();
    EXPECT_EQ(s.cancelled, 2u);
    EXPECT_TRUE(s.balanced());
}

TEST(PostBatch, MisuseIsRefusedWithAClearMessage) {
    Scheduler sched(withWorkers(1));
    Scheduler other(withWorkers(1));
    const JobHandle foreign = other.post([] {});
    auto batch = sched.batch();
    auto second = sched.batch();
    const JobHandle pending = second.post([] {});
    const JobHandle mine = batch.post([] {});
    using IA = std::invalid_argument;
    using LE = std::logic_error;
    EXPECT_EQ(messageOf<IA>([&] { batch.post([] {}, {}, {JobHandle{}}); }),
              "pullsched: empty JobHandle given as predecessor");
    EXPECT_EQ(messageOf<IA>([&] { batch.post([] {}, {}, {foreign}); }),
              "pullsched: predecessor belongs to another scheduler");
    EXPECT_EQ(messageOf<IA>([&] { batch.post([] {}, {}, {pending}); }),
              "pullsched: predecessor belongs to another batch that was not submitted yet");
    EXPECT_EQ(messageOf<IA>([&] { sched.post([] {}, {}, {mine}); }),
              "pullsched: predecessor belongs to a batch that was not submitted yet");
    EXPECT_EQ(messageOf<IA>(
                  [&] { batch.post([] {}, {.start = sched.now() + 2s, .deadline = sched.now()}); }),
              "pullsched: job deadline lies before its start time");
    EXPECT_EQ(messageOf<IA>([&] { batch.fill(mine, [] {}); }),
              "pullsched: fill() needs an unfilled placeholder of this batch");
    const JobHandle ph = batch.placeholder();
    const JobHandle dependent = batch.post([] {}, {}, {ph});
    EXPECT_EQ(messageOf<IA>([&] { batch.fill(ph, [] {}, {}, {dependent}); }),
              "pullsched: fill() would make a cycle: a predecessor depends on the placeholder");
    EXPECT_EQ(messageOf<LE>([&] { batch.submit(); }),
              "pullsched: PostBatch::submit() with a placeholder never filled");
    // The failed submit() discarded the batch.
    EXPECT_EQ(mine.state(), JobState::Cancelled);
    EXPECT_EQ(messageOf<LE>([&] { batch.post([] {}); }),
              "pullsched: PostBatch used after submit()");
    EXPECT_EQ(messageOf<LE>([&] { batch.submit(); }), "pullsched: PostBatch used after submit()");
    PostBatch moved = std::move(second);
    EXPECT_EQ(messageOf<LE>([&] { second.post([] {}); }),
              "pullsched: use of a moved-from PostBatch");
    moved.submit();
    sched.drain();
    EXPECT_EQ(pending.state(), JobState::Completed);
    EXPECT_EQ(sched.stats().submitted, 1u);
}

TEST(PostBatch, SubmitAfterShutdownThrowsAndDiscards) {
    Scheduler sched(withWorkers(2));
    std::atomic<int> ran{0};
    auto batch = sched.batch();
    const JobHandle h = batch.post([&ran] { ran.fetch_add(1); });
    sched.shutdown(ShutdownMode::Drain);
    EXPECT_EQ(messageOf<std::logic_error>([&] { batch.submit(); }),
              "pullsched: PostBatch::submit() after shutdown() began");
    EXPECT_EQ(h.state(), JobState::Cancelled);
    EXPECT_EQ(ran.load(), 0);
    EXPECT_EQ(sched.stats().submitted, 0u);
    EXPECT_TRUE(sched.stats().balanced());
}

TEST(PostBatch, DestroyedUnsubmittedBatchIsDiscarded) {
    Scheduler sched(withWorkers(2));
    std::atomic<int> ran{0};
    JobHandle a, b;
    {
        auto batch = sched.batch();
        a = batch.post([&ran] { ran.fetch_add(1); });
        b = batch.post([&ran] { ran.fetch_add(1); }, {}, {a});
        const JobHandle outside = sched.post([] {});
        batch.postDetached([&ran] { ran.fetch_add(1); }, {}, {outside});
    }
    EXPECT_EQ(a.state(), JobState::Cancelled);
    EXPECT_EQ(b.state(), JobState::Cancelled);
    // A post naming a discarded job is cancelled, like one naming a cancelled job.
    const JobHandle later = sched.post([&ran] { ran.fetch_add(1); }, {}, {b});
    sched.drain();
    EXPECT_EQ(later.state(), JobState::Cancelled);
    EXPECT_EQ(ran.load(), 0);
    const Statistics s = sched.stats();
    EXPECT_EQ(s.submitted, 2u);  // the outside job and `later`
    EXPECT_EQ(s.completed, 1u);
    EXPECT_EQ(s.cancelled, 1u);
    EXPECT_TRUE(s.balanced());
}

TEST(PostBatch, SubmittedFromInsideAJob) {
    constexpr int kChildren = 200;
    Stamps st(kChildren + 1);
    Scheduler sched(withWorkers(2));
    sched.postDetached([&] {
        auto batch = sched.batch(kChildren + 1);
        std::vector<JobHandle> kids;
        for (int i = 0; i < kChildren; ++i)
            kids.push_back(
                batch.post(st.job(i), i % 2 ? JobOptions{.start = sched.now()} : JobOptions{}));
        batch.postDetached(st.job(kChildren), {}, kids);
        batch.submit();
    });
    sched.drain();
    for (int i = 0; i <= kChildren; ++i)
        ASSERT_EQ(st.runs[i].load(), 1) << "job " << i;
    for (int i = 0; i < kChildren; ++i)
        ASSERT_LT(st.ended[i], st.started[kChildren]);
    const Statistics s = sched.stats();
    EXPECT_EQ(s.submitted, static_cast<std::uint64_t>(kChildren + 2));
    EXPECT_EQ(s.completed, s.submitted);
    EXPECT_TRUE(s.balanced());
}

TEST(PostBatch, ConcurrentBatchesFromThreadsAndJobsRunEveryJobOnceInOrder) {
    constexpr int kThreads = 3, kBatches = 20, kPerBatch = 40;
    constexpr int kPerThread = kBatches * kPerBatch * 2;  // each job posts a batch of one more
    Stamps st(kThreads * kPerThread);
    Scheduler sched(withWorkers(2));
    std::vector<std::vector<int>> preds(kThreads * kPerThread);
    std::vector<std::thread> posters;
    for (int t = 0; t < kThreads; ++t) {
        posters.emplace_back([&, t] {
            std::mt19937_64 rng(100 + t);
            std::vector<JobHandle> h(kPerThread);
            int next = t * kPerThread;
            for (int b = 0; b < kBatches; ++b) {
                auto batch = sched.batch();
                const int first = next;
                for (int k = 0; k < kPerBatch; ++k, next += 2) {
                    std::vector<JobHandle> ps;
                    for (std::uint64_t n = rng() % 3; n > 0 && next > t * kPerThread; --n) {
                        // Earlier in this batch, or any earlier (submitted) job of this thread.
                        const int lo = rng() % 2 ? first : t * kPerThread;
                        if (lo == next) continue;
                        const int p = lo + static_cast<int>(rng() % (next - lo)) / 2 * 2;
                        if (p >= next) continue;
                        preds[next].push_back(p);
                        ps.push_back(h[p - t * kPerThread]);
                    }
                    const int child = next + 1;  // posted by the job, as a batch of its own
                    preds[child].push_back(next);
                    h[next - t * kPerThread] = batch.post(
                        [&st, &sched, next, child] {
                            st.job(next)();
                            auto inner = sched.batch();
                            inner.postDetached(st.job(child));
                            inner.submit();
                        },
                        {}, ps);
                }
                batch.submit();
            }
        });
    }
    for (auto& p : posters)
        p.join();
    sched.drain();
    for (int i = 0; i < kThreads * kPerThread; ++i) {
        ASSERT_EQ(st.runs[i].load(), 1) << "job " << i;
        for (int p : preds[i])
            ASSERT_LT(st.ended[p], st.started[i]) << "job " << i << " before " << p;
    }
    const Statistics s = sched.stats();
    EXPECT_EQ(s.submitted, static_cast<std::uint64_t>(kThreads * kPerThread));
    EXPECT_EQ(s.completed, s.submitted);
    EXPECT_TRUE(s.balanced());
}

TEST(PostBatch, ChainAcrossManyBatchesRunsToItsEnd) {
    // Every batch's first job waits for the previous batch's last, which may be running,
    // ended or not yet started when the batch is submitted.
    constexpr int kJobs = 100000, kChunk = 1024;
    Scheduler sched(withWorkers(2));
    for (int round = 0; round < 10; ++round) {
        std::atomic<int> ran{0};
        JobHandle prev;
        auto batch = sched.batch();
        for (int i = 0; i < kJobs; ++i) {
            auto job = [&ran] { ran.fetch_add(1, std::memory_order_relaxed); };
            prev = prev ? batch.post(job, {}, {prev}) : batch.post(job);
            if (batch.size() == kChunk) {
                batch.submit();
                batch = sched.batch();
            }
        }
        batch.submit();
        ASSERT_TRUE(sched.drainFor(20s)) << "round " << round << ": " << ran.load() << " ran, "
                                         << sched.stats().pending << " pending";
        ASSERT_EQ(ran.load(), kJobs);
    }
}

// Jobs of a batch join a group like posted ones: counted in it at submit(), never when the
// batch is discarded; the group's ledger balances and g.wait() waits for them.
TEST(PostBatch, JobsJoinTheirGroupAtSubmitAndNotWhenDiscarded) {
    Scheduler sched(withWorkers(2));
    JobGroup g = sched.group();
    std::atomic<int> ran{0};
    {
        auto discarded = sched.batch();
        discarded.postDetached([&ran] { ran.fetch_add(1); }, {.group = g});
    }
    EXPECT_EQ(g.stats().submitted, 0u);
    auto batch = sched.batch();
    const JobHandle a = batch.post([&ran] { ran.fetch_add(1); }, {.group = g});
    const JobHandle slot = batch.placeholder();
    batch.post([&ran] { ran.fetch_add(1); }, {.group = g}, {a, slot});
    batch.fill(slot, [&ran] { ran.fetch_add(1); }, {.group = g});
    EXPECT_EQ(g.stats().submitted, 0u);  // counted at submit()
    batch.submit();
    g.wait();
    const GroupStatistics s = g.stats();
    EXPECT_EQ(s.submitted, 3u);
    EXPECT_EQ(s.completed, 3u);
    EXPECT_EQ(s.pending, 0u);
    EXPECT_EQ(ran.load(), 3);
}

// A handle of a batch not submitted yet names no job the scheduler knows: waiting for it
// or cancelling it is refused (it could never end), and so is naming it outside the batch.
TEST(PostBatch, AJobOfAnOpenBatchCannotBeWaitedForOrCancelled) {
    Scheduler sched(withWorkers(1));
    auto batch = sched.batch();
    const JobHandle a = batch.post([] {});
    EXPECT_EQ(messageOf<std::invalid_argument>([&] { sched.wait(a); }),
              "pullsched: JobHandle of a batch that was not submitted yet given to wait/cancel");
    EXPECT_EQ(messageOf<std::invalid_argument>([&] { (void)sched.cancel(a); }),
              "pullsched: JobHandle of a batch that was not submitted yet given to wait/cancel");
    EXPECT_EQ(messageOf<std::invalid_argument>([&] { sched.post([] {}, {}, {a}); }),
              "pullsched: predecessor belongs to a batch that was not submitted yet");
    batch.submit();
    sched.wait(a);  // submitted: an ordinary job now
    EXPECT_EQ(a.state(), JobState::Completed);
    EXPECT_FALSE(sched.cancel(a));
}

namespace {
/// Work whose copy throws: fill() cannot store it, and the placeholder stays unfilled.
struct CopyThrows {
    CopyThrows() = default;
    CopyThrows(const CopyThrows&) { throw std::runtime_error("no copy"); }
    void operator()() const {}
};
}  // namespace

// A failed fill() takes nothing with it: retried a hundred times, the group is referenced
// once for the placeholder's job, as after one fill() (a reference leaked per try before).
TEST(PostBatch, FailedFillRetriedKeepsNoGroupReference) {
    Scheduler sched(withWorkers(1));
    JobGroup g = sched.group();
    const auto refs = [&g] { return GroupRef(g).state->refs.load(); };
    const std::int32_t before = refs();
    std::atomic<int> ran{0};
    auto batch = sched.batch();
    const JobHandle slot = batch.placeholder();
    const CopyThrows bad;
    for (int i = 0; i < 100; ++i)
        EXPECT_THROW(batch.fill(slot, bad, {.group = g}), std::runtime_error);
    EXPECT_LE(refs(), before + 1);
    batch.fill(slot, [&ran] { ran.fetch_add(1); }, {.group = g});
    EXPECT_EQ(refs(), before + 1);
    batch.submit();
    g.wait();
    sched.drain();
    EXPECT_EQ(ran.load(), 1);
    EXPECT_EQ(refs(), before);
}
