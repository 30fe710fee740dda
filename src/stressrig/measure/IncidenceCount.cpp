#include "measure/IncidenceCount.hpp"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

namespace pullsched::rig {

using std::chrono::nanoseconds;

IncidenceCount::IncidenceCount(unsigned threadSlots, std::size_t eventsPerSlot)
    : slots_(threadSlots), capacity_(eventsPerSlot) {
    if (threadSlots == 0) throw std::invalid_argument("IncidenceCount: need at least one slot");
    for (Slot& s : slots_)
        s.events.resize(eventsPerSlot);  // all allocation happens here
}

std::size_t IncidenceCount::recorded(unsigned slot) const {
    return slots_.at(slot).used;
}

std::size_t IncidenceCount::dropped() const noexcept {
    std::size_t n = outOfRange_.load(std::memory_order_relaxed);
    for (const Slot& s : slots_)
        n += s.dropped;
    return n;
}

void IncidenceCount::reset() noexcept {
    for (Slot& s : slots_) {
        s.used = 0;
        s.dropped = 0;
    }
    outOfRange_.store(0, std::memory_order_relaxed);
}

std::vector<IncidenceCount::Event> IncidenceCount::timeline(
    const testchain::StopPredicate& stop) const {
    std::vector<Event> all;
    std::size_t total = 0;
    for (const Slot& s : slots_)
        total += s.used;
    all.reserve(total);
    std::vector<std::size_t> bounds{0};  // slot k's events are [bounds[k], bounds[k+1])
    for (const Slot& s : slots_) {
        all.insert(all.end(), s.events.begin(), s.events.begin() + static_cast<long>(s.used));
        bounds.push_back(all.size());
    }
    const auto earlier = [](const Event& a, const Event& b) { return a.when < b.when; };
    const auto at = [&](std::size_t i) { return all.begin() + static_cast<long>(i); };
    for (std::size_t k = 0; k + 1 < bounds.size(); ++k)
        if (!std::is_sorted(at(bounds[k]), at(bounds[k + 1]), earlier)) {
            // explicit time stamps out of order: only a sort puts them in order
            testchain::throwIfStopped(stop);
            std::stable_sort(all.begin(), all.end(), earlier);
            return all;
        }
    // Each slot is recorded by one thread in time order: merging neighbours round by round
    // gives the stable sort's order, faster and with room to stop between merges.
    while (bounds.size() > 2) {
        std::vector<std::size_t> merged{0};
        for (std::size_t k = 0; k + 1 < bounds.size(); k += 2) {
            testchain::throwIfStopped(stop);
            if (k + 2 < bounds.size())
                std::inplace_merge(at(bounds[k]), at(bounds[k + 1]), at(bounds[k + 2]), earlier);
            merged.push_back(bounds[std::min(k + 2, bounds.size() - 1)]);
        }
        bounds = std::move(merged);
    }
    return all;
}

IncidenceStatistic IncidenceCount::evaluate(const testchain::StopPredicate& stop) const {
    IncidenceStatistic st;
    st.droppedEvents = dropped();
    st.threadTime.assign(slots_.size(), nanoseconds{0});
    st.threadActivations.assign(slots_.size(), 0);
    const std::vector<Event> events = timeline(stop);
    if (events.empty()) return st;

    // Per slot: a stack of the case ids of its open brackets (nesting allowed); per
    // case: open bracket count. Thread and case time are credited lazily whenever
    // their state changes, so each event costs O(1) regardless of slot/case count.
    struct Open {
        std::size_t count = 0;
        TimePoint since{};
    };
    std::vector<std::vector<std::uint32_t>> stack(slots_.size());
    std::vector<TimePoint> slotSince(slots_.size());
    std::unordered_map<std::uint32_t, Open> caseOpen;
    std::size_t concurrency = 0;
    TimePoint prev = events.front().when;

    auto creditCase = [&](std::uint32_t id, TimePoint now) -> Open& {
        Open& o = caseOpen[id];
        if (o.count > 0) st.caseTime[id] += (now - o.since) * static_cast<long>(o.count);
        o.since = now;
        return o;
    };

    for (std::size_t i = 0; i < events.size(); ++i) {
        testchain::pollStop(stop, i);
        const Event& e = events[i];
        const nanoseconds slice = e.when - prev;
        // Credit the slice with the state before this event.
        if (slice.count() > 0) {
            if (st.timeAtConcurrency.size() <= concurrency)
                st.timeAtConcurrency.resize(concurrency + 1, nanoseconds{0});
            st.timeAtConcurrency[concurrency] += slice;
            st.activeTime += slice * static_cast<long>(concurrency);
        }
        prev = e.when;
        auto& open = stack[e.slot];

        if (!e.leave) {
            if (open.empty()) {
                ++concurrency;
                slotSince[e.slot] = e.when;
            }
            open.push_back(e.caseId);
            ++creditCase(e.caseId, e.when).count;
            ++st.activations;
            ++st.threadActivations[e.slot];
            ++st.caseActivations[e.caseId];
            st.caseTime.try_emplace(e.caseId, nanoseconds{0});
            st.maxConcurrency = std::max(st.maxConcurrency, concurrency);
        } else if (open.empty()) {
            ++st.unmatchedLeaves;  // e.g. its enter was dropped, or recorded before a reset
        } else {
            // A leave closes the slot's innermost open bracket (whose case is credited).
            --creditCase(open.back(), e.when).count;
            open.pop_back();
            if (open.empty()) {
                --concurrency;
                st.threadTime[e.slot] += e.when - slotSince[e.slot];
            }
        }
    }
    // Brackets still open at the end are credited up to the last event.
    const TimePoint last = events.back().when;
    for (std::size_t s = 0; s < stack.size(); ++s)
        if (!stack[s].empty()) st.threadTime[s] += last - slotSince[s];
    for (auto& [id, o] : caseOpen)
        creditCase(id, last);

    st.coveredTime = events.back().when - events.front().when;
    if (st.timeAtConcurrency.size() <= st.maxConcurrency)
        st.timeAtConcurrency.resize(st.maxConcurrency + 1, nanoseconds{0});
    st.impededTime = st.timeAtConc(0) + st.timeAtConc(1);
    if (st.coveredTime.count() > 0)
        st.avgConcurrency = static_cast<double>(st.activeTime.count()) /
                            static_cast<double>(st.coveredTime.count());
    return st;
}

}  // namespace pullsched::rig
