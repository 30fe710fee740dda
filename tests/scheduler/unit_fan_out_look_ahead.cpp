// The tender's fan-out look-ahead (FanOutLookAhead.hpp) on hand-wired records: it finds a
// fan-out down a chain of single successors within kFanOutLookAhead jobs, never reads the
// list of a final job (a cancelled head left as a tombstone, or a cancelled job behind a
// live head: the records they name may be recycled), and leaves every reference count as
// it found it, less the one it was handed for the head.
#include "detail/FanOutLookAhead.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "detail/JobPool.hpp"

using pullsched::detail::fansOutAhead;
using pullsched::detail::JobPool;
using pullsched::detail::JobRecord;
using pullsched::detail::kFanOutLookAhead;

namespace {

/// Records as the scheduler holds them (one reference each), wired by hand.
class Records {
  public:
    Records() : pool_(JobPool::create(64)) {}
    ~Records() {
        for (JobRecord* r : all_)
            pool_->release(r);
        pool_->retire();
    }
    Records(const Records&) = delete;
    Records& operator=(const Records&) = delete;

    JobRecord* make() {
        JobRecord* r = pool_->acquire();
        r->pool = pool_;
        r->refs.store(1);
        all_.push_back(r);
        return r;
    }
    /// `n` records, each the only successor of the one before.
    std::vector<JobRecord*> chain(std::size_t n) {
        std::vector<JobRecord*> c;
        for (std::size_t i = 0; i < n; ++i) {
            c.push_back(make());
            if (i > 0) c[i - 1]->addSuccessor(c[i]);
        }
        return c;
    }
    /// Two successors behind `job`.
    void fanOut(JobRecord* job) {
        job->addSuccessor(make());
        job->addSuccessor(make());
    }
    /// The look-ahead from `head`, handed a reference as the grooming pass hands it one.
    bool look(JobRecord* head) {
        head->refs.fetch_add(1);
        return fansOutAhead(head);
    }
    bool countsUnchanged() const {
        for (const JobRecord* r : all_)
            if (r->refs.load() != 1) return false;
        return true;
    }

  private:
    JobPool* pool_;
    std::vector<JobRecord*> all_;
};

}  // namespace

TEST(FanOutLookAhead, APlainChainWakesNobody) {
    Records r;
    const auto c = r.chain(5);
    EXPECT_FALSE(r.look(c[0]));
    EXPECT_FALSE(r.look(r.make()));  // no successor at all
    EXPECT_TRUE(r.countsUnchanged());
}

TEST(FanOutLookAhead, FindsAFanOutWithinItsReach) {
    Records r;
    const auto near = r.chain(1);
    r.fanOut(near[0]);
    EXPECT_TRUE(r.look(near[0]));
    const auto last = r.chain(kFanOutLookAhead);  // the fan-out at the last job it looks at
    r.fanOut(last.back());
    EXPECT_TRUE(r.look(last[0]));
    const auto beyond = r.chain(kFanOutLookAhead + 1);  // one job further
    r.fanOut(beyond.back());
    EXPECT_FALSE(r.look(beyond[0]));
    EXPECT_TRUE(r.countsUnchanged());
}

// A cancelled head stays queued as a tombstone; its list still names what it notified.
TEST(FanOutLookAhead, ATombstoneLeadsNowhere) {
    Records r;
    const auto c = r.chain(2);
    r.fanOut(c[1]);
    c[0]->closed = true;
    EXPECT_FALSE(r.look(c[0]));
    EXPECT_TRUE(r.countsUnchanged());
}

// A job cancelled behind a live head: the head's list names it, its own list names what it
// notified.
TEST(FanOutLookAhead, ACancelledJobBehindALiveHeadLeadsNowhere) {
    Records r;
    const auto c = r.chain(3);
    r.fanOut(c[2]);
    c[1]->closed = true;
    EXPECT_FALSE(r.look(c[0]));
    r.fanOut(c[1]);  // even a fan-out of its own: it released nothing it still owes
    EXPECT_FALSE(r.look(c[0]));
    EXPECT_TRUE(r.countsUnchanged());
}
