#pragma once
// Where posts with a start time land, from any thread, without a lock.
//
// A Boost.Lockfree *stack*, not its queue: the grooming-token holder sorts everything it
// takes out into the time-ordered queue by (start, sequence number), so arrival order
// here is irrelevant, and boost::lockfree::queue as shipped in Boost 1.74 can hand the
// same element to two concurrent pops (boostorg/lockfree#59, #120; we reproduced it as
// a job dispatched twice). The Treiber stack with tagged pointers does not have that flaw.

#include <cstddef>

#include <boost/lockfree/stack.hpp>

#include "pullsched/scheduler/detail/JobRecord.hpp"

namespace pullsched::detail {

class EntranceQueue {
  public:
    explicit EntranceQueue(std::size_t reserve) : stack_(reserve) {}

    void push(JobRecord* rec) { stack_.push(rec); }
    /// Several at once: linked privately, published with one compare-and-swap.
    void pushAll(JobRecord* const* recs, std::size_t n) { stack_.push(recs, recs + n); }
    bool pop(JobRecord*& rec) { return stack_.pop(rec); }
    /// Exact only while nobody pushes; used as a hint before parking (the wake-up
    /// protocol covers the race).
    bool empty() const { return stack_.empty(); }

  private:
    boost::lockfree::stack<JobRecord*> stack_;
};

}  // namespace pullsched::detail
