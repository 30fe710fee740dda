#pragma once
// The time-ordered queue: earliest start first, submission order among equal starts.
// Only the grooming-token holder touches it, so it needs no synchronisation of its own.

#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "pullsched/scheduler/Time.hpp"

namespace pullsched::detail {

template <class Payload>
class TimeQueue {
  public:
    struct Entry {
        TimePoint start;
        std::uint64_t seq;  ///< tie-break: equal start times leave in submission order
        Payload payload;
    };

    explicit TimeQueue(std::size_t reserve = 0) {
        std::vector<Entry> storage;
        storage.reserve(reserve);
        heap_ = Heap(Later{}, std::move(storage));
    }

    void push(const Entry& e) { heap_.push(e); }
    bool empty() const noexcept { return heap_.empty(); }
    std::size_t size() const noexcept { return heap_.size(); }
    const Entry& head() const { return heap_.top(); }
    Entry pop() {
        Entry e = heap_.top();
        heap_.pop();
        return e;
    }
    /// The head, if it is due at `now` (start <= now).
    bool headDue(TimePoint now) const noexcept {
        return !heap_.empty() && heap_.top().start <= now;
    }

  private:
    struct Later {  // std::priority_queue is a max-heap: "less" means "leaves later"
        bool operator()(const Entry& a, const Entry& b) const noexcept {
            return a.start != b.start ? a.start > b.start : a.seq > b.seq;
        }
    };
    using Heap = std::priority_queue<Entry, std::vector<Entry>, Later>;
    Heap heap_;
};

}  // namespace pullsched::detail
