#pragma once
// An adversarial load on the public API, as a new user might produce it: several posting
// threads, random DAGs, jobs that throw, deadlines that expire, jobs that post from
// inside, and shutdown (either mode) while the posters are still posting. It checks that
// every job runs at most once and exactly once when it should, that predecessors
// completed before a job starts, that no timed job starts before its start time, that
// timed jobs leave in (start, submission) order, and that the accounting balances. Posters
// also cancel some of their jobs and wait for others at random: a cancelled job never
// runs, and a job waited for is final when wait() returns. Also, as a hostile user would:
// timed jobs with a chain and a fan-out behind them, cancelled (the head or a job behind
// it) while the record pool trims every millisecond; jobs that wait for a job of a second
// scheduler, whose job (run by the waiting thread when it helps) calls the first one's
// drainFor() and must be refused exactly then; and waits on ranges that post their jobs
// as they are read (the handles die at once).
// The stress test runs it for more than a million jobs; a unit test runs a short version.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <memory>
#include <mutex>
#include <random>
#include <ranges>
#include <stdexcept>
#include <thread>
#include <vector>

#include "pullsched/scheduler/Scheduler.hpp"

namespace adversarial {

using namespace std::chrono_literals;
using namespace pullsched;

struct LoadShape {
    unsigned workers = 4;
    unsigned posters = 3;
    unsigned roundsPerEpoch = 4;    ///< posting rounds with a drain between, then a shutdown race
    unsigned jobsPerRound = 2000;   ///< per poster
    unsigned raceMaxPosts = 20000;  ///< per poster in the shutdown race (it usually ends sooner)
    std::uint64_t targetJobs = 100000;  ///< epochs repeat until this many jobs were submitted
    unsigned orderJobs = 600;           ///< per poster, in each epoch's ordering check
};

/// Everything the jobs of one epoch record about themselves.
struct Ledger {
    explicit Ledger(std::size_t capacity) : runs(capacity) {}
    std::vector<std::atomic<std::uint8_t>> runs;  ///< by job id
    std::atomic<std::size_t> nextId{0};
    std::atomic<std::uint64_t> earlyStarts{0}, predecessorNotCompleted{0};
    std::atomic<std::uint64_t> innerPosts{0}, innerRefused{0};
    std::atomic<std::uint64_t> untrackedRuns{0};  ///< jobs posted without an id
    std::atomic<std::uint64_t> cancelledByCall{0}, waitsEndedEarly{0};
    std::atomic<std::uint64_t> cascadesCancelled{0}, viewWaits{0};
    /// Jobs that waited for another scheduler's job; of those, the ones whose job ran on
    /// the waiting thread (nested); and refusals that came where they should not, or not
    /// where they should.
    std::atomic<std::uint64_t> crossWaits{0}, nestedRuns{0}, nestingMisjudged{0};

    std::size_t newId() {
        const std::size_t id = nextId.fetch_add(1, std::memory_order_relaxed);
        if (id >= runs.size()) throw std::length_error("adversarial ledger too small");
        return id;
    }
};

struct Posted {
    JobHandle handle;
    std::size_t id;
    bool throws;
    bool cancelled = false;  ///< cancel() said it cancelled the job
};

struct Totals {
    std::uint64_t submitted = 0, completed = 0, failed = 0, expired = 0, cancelled = 0;
    std::uint64_t innerPosts = 0, shutdownRaces = 0, orderedJobs = 0;
    std::uint64_t cascadesCancelled = 0, crossWaits = 0, nestedRuns = 0, viewWaits = 0;
};

class Epoch {
  public:
    Epoch(const LoadShape& shape, std::uint64_t seed)
        : shape_(shape),
          seed_(seed),
          ledger_(std::size_t{2} * shape.posters *
                  (std::size_t{shape.roundsPerEpoch} * shape.jobsPerRound + shape.raceMaxPosts)),
          sched_(config(shape)) {}

    /// Posting rounds (drained and checked one by one), then a shutdown race.
    void run(Totals& totals) {
        for (unsigned r = 0; r < shape_.roundsPerEpoch; ++r) {
            std::vector<std::vector<Posted>> posted(shape_.posters);
            postConcurrently(posted, r, shape_.jobsPerRound, false);
            ASSERT_TRUE(sched_.drainFor(300s)) << "round " << r << " did not drain";
            checkFinal(posted);
        }
        std::vector<std::vector<Posted>> posted(shape_.posters);
        std::mt19937_64 rng(seed_ ^ 0x5bd1e995);
        const ShutdownMode mode = rng() % 2 ? ShutdownMode::Drain : ShutdownMode::Cancel;
        started_.store(0);
        std::thread racer(
            [&] { postConcurrently(posted, shape_.roundsPerEpoch, shape_.raceMaxPosts, true); });
        while (started_.load() < shape_.posters)
            std::this_thread::yield();
        std::this_thread::sleep_for(std::chrono::microseconds(200 + rng() % 2000));
        const ShutdownReport report = sched_.shutdown(mode);
        racer.join();
        EXPECT_EQ(report.mode, mode);
        checkFinal(posted);

        const Statistics s = sched_.stats();
        EXPECT_EQ(s.pending, 0u) << "a job never reached a final state";
        EXPECT_EQ(s.submitted, s.completed + s.failed + s.expired + s.cancelled);
        EXPECT_EQ(s.submitted, outerPosts_.load() + ledger_.innerPosts.load());
        std::uint64_t ran = 0;
        for (std::size_t id = 0; id < ledger_.nextId.load(); ++id) {
            const unsigned n = ledger_.runs[id].load();
            ASSERT_LE(n, 1u) << "job " << id << " ran " << n << " times";
            ran += n;
        }
        EXPECT_EQ(ran + ledger_.untrackedRuns.load(), s.completed + s.failed)
            << "every body that ran is counted once";
        EXPECT_EQ(ledger_.earlyStarts.load(), 0u) << "timed jobs started before their start";
        EXPECT_EQ(ledger_.predecessorNotCompleted.load(), 0u)
            << "a job started before its predecessors completed";
        EXPECT_EQ(s.tokenHolderWaits, 0u);
        EXPECT_EQ(ledger_.waitsEndedEarly.load(), 0u) << "wait() returned before its job ended";
        EXPECT_LE(ledger_.cancelledByCall.load(), s.cancelled);
        EXPECT_EQ(ledger_.nestingMisjudged.load(), 0u)
            << "drainFor() from a job of another scheduler refused when not nested in one of "
               "this scheduler's jobs, or allowed when nested";
        totals.cascadesCancelled += ledger_.cascadesCancelled.load();
        totals.crossWaits += ledger_.crossWaits.load();
        totals.nestedRuns += ledger_.nestedRuns.load();
        totals.viewWaits += ledger_.viewWaits.load();
        totals.submitted += s.submitted;
        totals.completed += s.completed;
        totals.failed += s.failed;
        totals.expired += s.expired;
        totals.cancelled += s.cancelled;
        totals.innerPosts += ledger_.innerPosts.load();
        ++totals.shutdownRaces;
    }

  private:
    static SchedulerConfig config(const LoadShape& shape) {
        SchedulerConfig c;
        c.workers = shape.workers;
        c.initialJobCapacity = 1024;
        c.dutyCycle = 1ms;  // the pool trims often: a freed record is soon really freed
        return c;
    }
    static SchedulerConfig otherConfig() {
        SchedulerConfig c;
        c.workers = 1;  // often busy, so the waiting thread runs the job itself
        return c;
    }

    /// Each poster posts `count` jobs (or, racing shutdown, until post() throws).
    void postConcurrently(std::vector<std::vector<Posted>>& posted, unsigned round, unsigned count,
                          bool racingShutdown) {
        std::vector<std::thread> threads;
        for (unsigned p = 0; p < shape_.posters; ++p) {
            threads.emplace_back([&, p] {
                std::mt19937_64 rng(seed_ * 7919 + round * 131 + p);
                started_.fetch_add(1);
                try {
                    for (unsigned i = 0; i < count; ++i)
                        posted[p].push_back(postOne(rng, posted[p]));
                    while (racingShutdown) {  // budget spent before shutdown: post until refused
                        sched_.postDetached([this] { ledger_.untrackedRuns.fetch_add(1); });
                        outerPosts_.fetch_add(1);
                    }
                } catch (const std::logic_error&) {
                    EXPECT_TRUE(racingShutdown) << "post() refused outside a shutdown";
                }
            });
        }
        for (auto& t : threads)
            t.join();
    }

    Posted postOne(std::mt19937_64& rng, const std::vector<Posted>& recent) {
        const std::size_t id = ledger_.newId();
        const unsigned kind = rng() % 100;
        const bool throws = kind < 5;
        const bool postsInside = kind >= 5 && kind < 11;
        const bool waitsForOther = kind >= 11 && kind < 15;
        JobOptions o;
        o.tag = id;
        if (kind >= 15 && kind < 45) {  // timed, some with a deadline that may pass first
            o.start = sched_.now() + std::chrono::microseconds(rng() % 300);
            if (rng() % 4 == 0) o.deadline = o.start + std::chrono::microseconds(rng() % 40);
        }
        std::vector<JobHandle> preds;
        if (kind >= 45 && !recent.empty()) {  // a random DAG over the poster's recent jobs
            const std::size_t window = std::min<std::size_t>(recent.size(), 64);
            for (unsigned k = 0, n = 1 + rng() % 3; k < n; ++k)
                preds.push_back(recent[recent.size() - 1 - rng() % window].handle);
        }
        Ledger* ledger = &ledger_;
        Scheduler* sched = &sched_;
        Scheduler* other = &other_;
        const TimePoint start = o.start;
        auto body = [ledger, sched, other, id, start, throws, postsInside, waitsForOther,
                     check = preds] {
            ledger->runs[id].fetch_add(1, std::memory_order_relaxed);
            if (start != kAsap && sched->now() < start) ledger->earlyStarts.fetch_add(1);
            for (const JobHandle& p : check)
                if (p.state() != JobState::Completed) ledger->predecessorNotCompleted.fetch_add(1);
            if (postsInside) {
                const std::size_t child = ledger->newId();
                try {
                    sched->postDetached([ledger, child] { ledger->runs[child].fetch_add(1); });
                    ledger->innerPosts.fetch_add(1);
                } catch (const std::logic_error&) {
                    ledger->innerRefused.fetch_add(1);  // must not happen: workers may post
                }
            }
            if (waitsForOther) waitForAnotherScheduler(*ledger, *sched, *other);
            if (throws) throw std::runtime_error("adversarial failure");
        };
        JobHandle h = sched_.post(std::move(body), o, preds);
        outerPosts_.fetch_add(1);
        const unsigned extra = rng() % 100;
        bool cancelled = false;
        if (extra < 3) {
            cancelled = sched_.cancel(h);
            if (cancelled) ledger_.cancelledByCall.fetch_add(1);
        } else if (extra < 4 && !recent.empty()) {
            const JobHandle& waited = recent[recent.size() - 1 - rng() % recent.size()].handle;
            sched_.wait(waited);
            if (!waited.done()) ledger_.waitsEndedEarly.fetch_add(1);
        } else if (extra < 6) {
            postCancelledCascade(rng);
        } else if (extra < 7) {
            waitForAView(rng);
        }
        return {std::move(h), id, throws, cancelled};
    }

    /// Jobs of `sched` that wait for `other` on this thread, now (see waitForAnotherScheduler).
    static int& waitingJobsHere() {
        thread_local int depth = 0;
        return depth;
    }

    /// From a job: wait for a job of `other`. A thread that helps in other's wait() may run
    /// that job (or another such job) itself: then it is inside a job of `sched` further
    /// down its stack, so its drainFor() on `sched` must be refused; run on a thread that is
    /// not (other's worker), it must not be.
    static void waitForAnotherScheduler(Ledger& ledger, Scheduler& sched, Scheduler& other) {
        JobHandle inner = other.post([&ledger, &sched] {
            const bool nested = waitingJobsHere() > 0;
            bool refused = false;
            try {
                (void)sched.drainFor(Duration::zero());
            } catch (const std::logic_error&) {
                refused = true;
            }
            if (nested) ledger.nestedRuns.fetch_add(1);
            if (refused != nested) ledger.nestingMisjudged.fetch_add(1);
        });
        ++waitingJobsHere();
        other.wait(inner);
        --waitingJobsHere();
        ledger.crossWaits.fetch_add(1);
    }

    /// A timed head 0.2-3 ms ahead with a chain and a fan-out behind it; the head or a job
    /// behind it is cancelled, and every handle is dropped: the records of what was
    /// cancelled go back to the pool (and, trimmed, to the heap) while the head is queued.
    void postCancelledCascade(std::mt19937_64& rng) {
        Ledger* ledger = &ledger_;
        auto counted = [ledger] { ledger->untrackedRuns.fetch_add(1); };
        JobOptions o;
        o.start = sched_.now() + std::chrono::microseconds(200 + rng() % 2800);
        // Each post is counted as it returns: a shutdown racing these posts refuses the
        // rest, and the scheduler counts only the ones accepted.
        const JobHandle head = sched_.post(counted, o);
        outerPosts_.fetch_add(1);
        const JobHandle first = sched_.post(counted, {}, {head});
        outerPosts_.fetch_add(1);
        const JobHandle second = sched_.post(counted, {}, {first});
        outerPosts_.fetch_add(1);
        sched_.postDetached(counted, {}, {second});
        outerPosts_.fetch_add(1);
        sched_.postDetached(counted, {}, {second});
        outerPosts_.fetch_add(1);
        const unsigned which = rng() % 3;
        const JobHandle& victim = which == 0 ? head : which == 1 ? first : second;
        if (sched_.cancel(victim)) {
            ledger_.cancelledByCall.fetch_add(1);
            ledger_.cascadesCancelled.fetch_add(1);
        }
    }

    /// wait() on a range that posts a job per element as it is read.
    void waitForAView(std::mt19937_64& rng) {
        auto fresh = std::views::iota(0, 1 + static_cast<int>(rng() % 16)) |
                     std::views::transform([this](int) {
                         Ledger* ledger = &ledger_;
                         JobHandle h =
                             sched_.post([ledger] { ledger->untrackedRuns.fetch_add(1); });
                         outerPosts_.fetch_add(1);
                         return h;
                     });
        if (!sched_.waitFor(fresh, 300s)) ledger_.waitsEndedEarly.fetch_add(1);
        ledger_.viewWaits.fetch_add(1);
    }

    /// Every handle is final, and its state agrees with whether its body ran.
    void checkFinal(const std::vector<std::vector<Posted>>& posted) {
        EXPECT_EQ(ledger_.innerRefused.load(), 0u) << "a job's own post() was refused";
        for (const auto& list : posted) {
            for (const Posted& p : list) {
                const JobState st = p.handle.state();
                ASSERT_TRUE(isFinal(st)) << "job " << p.id << " is " << toString(st);
                const unsigned ran = ledger_.runs[p.id].load();
                if (p.cancelled) {
                    ASSERT_EQ(st, JobState::Cancelled) << "job " << p.id << " cancel() said";
                }
                if (st == JobState::Completed || st == JobState::Failed) {
                    ASSERT_EQ(ran, 1u) << "job " << p.id << " " << toString(st);
                    ASSERT_EQ(st == JobState::Failed, p.throws) << "job " << p.id;
                } else {
                    ASSERT_EQ(ran, 0u) << "job " << p.id << " " << toString(st) << " but ran";
                }
            }
        }
    }

    const LoadShape shape_;
    const std::uint64_t seed_;
    Ledger ledger_;
    std::atomic<unsigned> started_{0};
    std::atomic<std::uint64_t> outerPosts_{0};
    Scheduler other_{otherConfig()};  // before sched_: its jobs' waits outlive sched_'s jobs
    Scheduler sched_;                 // last: destroyed first, while the ledger still exists
};

/// One worker, a manual clock, posters racing each other while the worker is held busy:
/// once released, the worker must run the timed jobs by start, then by submission (seen
/// per poster, whose posts are submitted in its own order).
inline std::uint64_t checkTimedOrder(const LoadShape& shape, std::uint64_t seed) {
    ManualClock clock;
    SchedulerConfig cfg;
    cfg.workers = 1;
    cfg.clock = &clock;
    Scheduler sched(cfg);
    std::atomic<bool> busy{false}, release{false};
    sched.post([&] {
        busy.store(true);
        while (!release.load())
            std::this_thread::yield();
    });
    while (!busy.load())
        std::this_thread::yield();

    struct Run {
        TimePoint start;
        unsigned poster, index;
    };
    std::mutex mutex;
    std::vector<Run> runs;
    const TimePoint base = clock.now();
    std::vector<std::thread> posters;
    for (unsigned p = 0; p < shape.posters; ++p) {
        posters.emplace_back([&, p] {
            std::mt19937_64 rng(seed + p);
            for (unsigned i = 0; i < shape.orderJobs; ++i) {
                const TimePoint start = base + std::chrono::microseconds(int(rng() % 64) - 32);
                sched.postDetached(
                    [&, start, p, i] {
                        std::lock_guard lock(mutex);
                        runs.push_back({start, p, i});
                    },
                    {.start = start});
                if (rng() % 64 == 0) clock.advance(1us);  // some posts are already overdue
            }
        });
    }
    for (auto& t : posters)
        t.join();
    clock.advance(1ms);
    release.store(true);
    sched.wake();
    sched.drain();

    EXPECT_EQ(runs.size(), std::size_t{shape.posters} * shape.orderJobs);
    for (std::size_t k = 1; k < runs.size(); ++k) {
        const Run& a = runs[k - 1];
        const Run& b = runs[k];
        EXPECT_LE(a.start, b.start) << "run " << k << ": a later start ran first";
        if (a.start == b.start && a.poster == b.poster) {
            EXPECT_LT(a.index, b.index) << "run " << k << ": equal starts out of submission order";
        }
    }
    return runs.size();
}

/// One line of what a run covered.
inline void printTotals(const char* name, const Totals& t) {
    std::printf(
        "%s: %llu jobs, %llu failed, %llu expired, %llu cancelled, %llu posted from inside "
        "jobs, %llu shutdown races, %llu in order checks, %llu cancelled timed cascades, "
        "%llu waits for another scheduler (%llu nested), %llu waits on views\n",
        name, (unsigned long long)t.submitted, (unsigned long long)t.failed,
        (unsigned long long)t.expired, (unsigned long long)t.cancelled,
        (unsigned long long)t.innerPosts, (unsigned long long)t.shutdownRaces,
        (unsigned long long)t.orderedJobs, (unsigned long long)t.cascadesCancelled,
        (unsigned long long)t.crossWaits, (unsigned long long)t.nestedRuns,
        (unsigned long long)t.viewWaits);
}

inline Totals runAdversarialLoad(const LoadShape& shape) {
    Totals totals;
    for (std::uint64_t epoch = 0; totals.submitted < shape.targetJobs; ++epoch) {
        Epoch e(shape, 1000 + epoch);
        e.run(totals);
        if (::testing::Test::HasFatalFailure()) break;
        totals.orderedJobs += checkTimedOrder(shape, 2000 + epoch);
        if (::testing::Test::HasFailure()) break;
    }
    return totals;
}

}  // namespace adversarial
