#pragma once
// The sum of an inner call of a recursion whose jobs cannot wait for their children
// (pullsched, Boost.Asio, the pool): `Arity` slots, filled by the children; the child that
// fills the last one sums the call and delivers upwards, on its own thread.

#include <array>
#include <atomic>
#include <cstdint>
#include <utility>

namespace pullsched::rig {

template <std::size_t Arity>
struct JoinCounter {
    std::array<std::uint64_t, Arity> part{};
    std::atomic<unsigned> left{Arity};
    JoinCounter* parent;
    unsigned slot;       ///< which of the parent's slots this call fills
    std::uint64_t* out;  ///< the root's result, when parent is null

    JoinCounter(JoinCounter* p, unsigned s, std::uint64_t* o) : parent(p), slot(s), out(o) {}
};

/// `value` is the result of the call in `slot` of `node` (`out` when node is null): store
/// it, and while that completes a node, sum the node, free it and go up.
template <std::size_t Arity>
void deliver(JoinCounter<Arity>* node, unsigned slot, std::uint64_t value, std::uint64_t* out) {
    while (node) {
        node->part[slot] = value;
        if (node->left.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
        value = 0;
        for (const std::uint64_t p : node->part)
            value += p;
        JoinCounter<Arity>* done = std::exchange(node, node->parent);
        slot = done->slot;
        out = done->out;
        delete done;
    }
    *out = value;
}

}  // namespace pullsched::rig
