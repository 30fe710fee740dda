#pragma once
// fib and skynet for backends whose jobs cannot wait for their children (pullsched,
// Boost.Asio, the pool): a call posts its children through `post` and leaves its sum to a
// JoinCounter. fib has oneTBB's shape: a call posts fib(n-1) and goes on with fib(n-2)
// itself, one job per inner call, as oneTBB runs one task per inner call.
//
// `Post` is the backend's post: post(f) queues the callable f as a job. It must outlive
// the run (the jobs hold a reference to it). Once `abandon` is set, a call spawns nothing
// and delivers 0 (RecursionRunner.hpp).

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

#include "backends/JoinCounter.hpp"
#include "backends/Recursion.hpp"
#include "backends/RecursionRunner.hpp"

namespace pullsched::rig {

template <class Post>
void fibPosted(Post& post, const std::atomic<bool>& abandon, unsigned n, JoinCounter<2>* parent,
               unsigned slot, std::uint64_t* out) {
    while (n >= 2) {
        if (abandon.load(std::memory_order_relaxed)) return deliver(parent, slot, 0, out);
        auto* node = new JoinCounter<2>(parent, slot, out);
        post([&post, &abandon, n, node] { fibPosted(post, abandon, n - 1, node, 0, nullptr); });
        parent = node;  // fib(n-2) fills the node's second slot, here
        slot = 1;
        out = nullptr;
        n -= 2;
    }
    deliver(parent, slot, n, out);
}

/// `levels` below this call; its leaves are num, num + 1, ..., num + 10^levels − 1.
template <class Post>
void skynetPosted(Post& post, const std::atomic<bool>& abandon, std::uint64_t num, unsigned levels,
                  JoinCounter<10>* parent, unsigned slot, std::uint64_t* out) {
    if (levels == 0) return deliver(parent, slot, num, out);
    if (abandon.load(std::memory_order_relaxed)) return deliver(parent, slot, 0, out);
    const std::uint64_t step = powerOfTen(levels - 1);
    auto* node = new JoinCounter<10>(parent, slot, out);
    for (unsigned i = 0; i < 10; ++i)
        post([&post, &abandon, n = num + i * step, levels, node, i] {
            skynetPosted(post, abandon, n, levels - 1, node, i, nullptr);
        });
}

/// Posts the root of `shape` through `post`; the result lands in `*out` when the last
/// call delivered.
template <class Post>
void postRecursion(Post& post, const std::atomic<bool>& abandon, const RecursionShape& shape,
                   std::uint64_t* out) {
    if (shape.kind == RecursionKind::Fib) {
        post([&post, &abandon, n = shape.size, out] {
            fibPosted(post, abandon, n, nullptr, 0, out);
        });
    } else {
        post([&post, &abandon, d = shape.size, out] {
            skynetPosted(post, abandon, 0, d, nullptr, 0, out);
        });
    }
}

/// Waits on `ended` under `mutex` until `allEnded()`: the backend notifies when its count
/// of open jobs falls to zero.
template <class AllEnded>
void waitAllEnded(std::mutex& mutex, std::condition_variable& ended, AllEnded&& allEnded) {
    std::unique_lock lock(mutex);
    ended.wait(lock, allEnded);
}

/// One run on a backend that counts its open jobs itself (Boost.Asio, the pool): post the
/// root, then wait on `ended` under `mutex` until `allEnded()`; the backend notifies when its
/// count of open jobs falls to zero.
template <class Post, class AllEnded>
RecursionRun runCountedRecursion(Post& post, const std::atomic<bool>& abandon,
                                 const RecursionShape& shape, std::mutex& mutex,
                                 std::condition_variable& ended, AllEnded&& allEnded) {
    RecursionRun r;
    const auto t0 = std::chrono::steady_clock::now();
    postRecursion(post, abandon, shape, &r.result);
    waitAllEnded(mutex, ended, allEnded);
    r.wall = std::chrono::duration_cast<testchain::Duration>(std::chrono::steady_clock::now() - t0);
    r.abandoned = abandon.load(std::memory_order_relaxed);
    return r;
}

}  // namespace pullsched::rig
