#pragma once
// The loop shapes for backends without a loop of their own (Boost.Asio, the pool): the
// range cut into chunks, four per thread as pullsched's parallelFor cuts it by default,
// each posted through `post` (PostedRecursion.hpp); the backend's count of open jobs is
// the join, and the caller waits for it as for a recursion (waitAllEnded).

#include <algorithm>
#include <cstddef>

#include "backends/LoopWork.hpp"

namespace pullsched::rig {

inline constexpr std::size_t kLoopChunksPerThread = 4;

template <class Post>
void postLoopChunks(Post& post, const LoopWork& work, unsigned threads) {
    const std::size_t n = work.out.size();
    const std::size_t chunks = std::clamp<std::size_t>(threads * kLoopChunksPerThread, 1, n);
    const std::size_t grain = (n + chunks - 1) / chunks;
    for (std::size_t first = 0; first < n; first += grain)
        post([work, first, last = std::min(n, first + grain)] { work.range(first, last); });
}

}  // namespace pullsched::rig
