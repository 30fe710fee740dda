#pragma once
// A parallel loop over an index range: Scheduler::parallelFor.
//
//   auto h = sched.parallelFor(0, n, [&](int i) { out[i] = f(in[i]); });
//   sched.wait(h);                                  // the caller helps meanwhile
//   sched.parallelFor(0, n, [&](int first, int last) { kernel(first, last); },
//                     {.grain = 256, .job = {.deadline = frameEnd}}, {upload});
//
// The range is cut into chunks of `grain` indices, each one job of a batch, and one join
// job that runs after all of them: the returned handle is the join's, so wait(), cancel()
// and predecessors of later posts take the loop as one job. Every guarantee of a job holds
// for each chunk (start, deadline, group, predecessors; each chunk is one job in the
// accounting, the join one more).

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

#include "pullsched/scheduler/JobHandle.hpp"
#include "pullsched/scheduler/JobOptions.hpp"
#include "pullsched/scheduler/LoopOptions.hpp"
#include "pullsched/scheduler/PostBatch.hpp"
#include "pullsched/scheduler/Scheduler.hpp"

namespace pullsched {

namespace detail {

/// The chunk count LoopOptions::grain = 0 chooses per thread.
inline constexpr std::size_t kChunksPerThread = 4;

/// Indices per chunk for `count` indices on `threads` threads.
constexpr std::size_t loopGrain(std::size_t count, std::size_t grain, std::size_t threads) {
    if (grain > 0) return grain;
    const std::size_t chunks = std::max<std::size_t>(1, threads * kChunksPerThread);
    return std::max<std::size_t>(1, (count + chunks - 1) / chunks);
}

}  // namespace detail

template <std::integral Index, class Body>
requires std::invocable<Body&, Index> || std::invocable<Body&, Index, Index> JobHandle
Scheduler::parallelFor(Index begin, Index end, Body&& body, const LoopOptions& opts,
                       std::span<const JobHandle> preds) {
    using Kept = std::decay_t<Body>;
    const std::size_t count = end > begin ? static_cast<std::size_t>(end - begin) : 0;
    const std::size_t grain = detail::loopGrain(count, opts.grain, workerCount() + 1);
    const std::size_t chunks = (count + grain - 1) / grain;
    // Shared by the chunks and the join: it lives until the last of them is final.
    auto kept = std::make_shared<Kept>(std::forward<Body>(body));
    PostBatch loop = batch(chunks + 1);
    std::vector<JobHandle> parts;
    parts.reserve(chunks);
    for (std::size_t c = 0; c < chunks; ++c) {
        const Index first = static_cast<Index>(begin + static_cast<Index>(c * grain));
        const Index last =
            static_cast<Index>(begin + static_cast<Index>(std::min(count, (c + 1) * grain)));
        parts.push_back(loop.post(
            [kept, first, last] {
                if constexpr (std::invocable<Kept&, Index, Index>) {
                    (*kept)(first, last);
                } else {
                    for (Index i = first; i < last; ++i)
                        (*kept)(i);
                }
            },
            opts.job, preds));
    }
    JobOptions joinOpts;
    joinOpts.tag = opts.job.tag;
    joinOpts.group = opts.job.group;
    // With no chunk, the join stands for the loop alone: after `preds`, at its start.
    if (chunks == 0) joinOpts.start = opts.job.start;
    JobHandle join = chunks == 0
                         ? loop.post([kept] {}, joinOpts, preds)
                         : loop.post([kept] {}, joinOpts, std::span<const JobHandle>(parts));
    loop.submit();
    return join;
}

}  // namespace pullsched
