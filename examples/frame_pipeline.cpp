// A timed frame pipeline written with Tasks: frames start at a fixed rate, each a Task that
// waits for its start with `co_await s.at(...)` (holding no thread meanwhile), fans out
// tiles and two preparation steps with spawn, joins them with whenAll, and reports whether
// it ended before its deadline (the next frame's start).
//
//   example_frame_pipeline [frames=60] [fps=120] [workers=2]
//
// Exit status 0 when every frame ran and every checksum is right; a missed deadline is
// reported, not an error (a loaded machine misses some).
#include <pullsched/scheduler/Scheduler.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace std::chrono_literals;
using pullsched::JobHandleOf;
using pullsched::Scheduler;
using pullsched::Task;
using pullsched::TimePoint;

namespace {

constexpr int kTiles = 8;

/// Stands in for real work: a few microseconds of arithmetic with a checkable result.
std::uint64_t mix(std::uint64_t seed, int rounds) {
    std::uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
    for (int i = 0; i < rounds; ++i)
        x ^= (x << 13) ^ (x >> 7) ^ (x << 17);
    return x;
}

std::uint64_t expectedTile(int frame, int tile) {
    return mix(static_cast<std::uint64_t>(frame) * kTiles + tile, 2000);
}

Task<std::uint64_t> renderTile(int frame, int tile) {
    co_return expectedTile(frame, tile);
}
Task<std::uint64_t> loadMesh(int frame) {
    co_return mix(static_cast<std::uint64_t>(frame), 500);
}
Task<std::uint64_t> bakeLight(int frame) {
    co_return mix(static_cast<std::uint64_t>(frame) + 1'000'000, 500);
}

struct FrameReport {
    std::uint64_t checksum = 0;
    bool metDeadline = false;
};

/// One frame: wait for its start, prepare and render in parallel, join.
Task<FrameReport> frame(Scheduler& s, int index, TimePoint start, TimePoint deadline) {
    co_await s.at(start);
    auto [mesh, light] =
        co_await pullsched::whenAll(s.spawn(loadMesh(index)), s.spawn(bakeLight(index)));
    std::vector<JobHandleOf<std::uint64_t>> tiles;
    for (int t = 0; t < kTiles; ++t)
        tiles.push_back(s.spawn(renderTile(index, t)));
    std::uint64_t checksum = mesh ^ light;
    for (const std::uint64_t part : co_await pullsched::whenAll(tiles))
        checksum += part;
    co_return FrameReport{checksum, s.now() <= deadline};
}

int argOr(int argc, char** argv, int i, int fallback) {
    return argc > i ? std::atoi(argv[i]) : fallback;
}

}  // namespace

int main(int argc, char** argv) {
    const int frames = argOr(argc, argv, 1, 60);
    const int fps = argOr(argc, argv, 2, 120);
    const int workers = argOr(argc, argv, 3, 2);
    if (frames < 1 || fps < 1 || workers < 1) {
        std::fprintf(stderr, "usage: %s [frames>0] [fps>0] [workers>0]\n", argv[0]);
        return 2;
    }
    Scheduler s({.workers = static_cast<std::size_t>(workers)});
    const auto period = std::chrono::duration_cast<pullsched::Duration>(1s) / fps;
    const TimePoint first = s.now() + 10ms;
    std::vector<JobHandleOf<FrameReport>> reports;
    for (int i = 0; i < frames; ++i) {
        const TimePoint start = first + i * period;
        reports.push_back(s.spawn(frame(s, i, start, start + period)));
    }
    int ran = 0, met = 0, wrong = 0;
    for (int i = 0; i < frames; ++i) {
        const FrameReport& r = reports[i].get();
        std::uint64_t expected = mix(static_cast<std::uint64_t>(i), 500) ^
                                 mix(static_cast<std::uint64_t>(i) + 1'000'000, 500);
        for (int t = 0; t < kTiles; ++t)
            expected += expectedTile(i, t);
        ++ran;
        met += r.metDeadline ? 1 : 0;
        wrong += r.checksum == expected ? 0 : 1;
    }
    s.drain();
    const pullsched::Statistics st = s.stats();
    std::printf(
        "%d frames at %d fps on %d workers: %d met their deadline, %d missed; "
        "%d wrong checksums; %llu jobs (every slice of a Task is one)\n",
        ran, fps, workers, met, ran - met, wrong, static_cast<unsigned long long>(st.submitted));
    const bool ok = ran == frames && wrong == 0 && st.balanced() && st.pending == 0 &&
                    st.completed == st.submitted;
    if (!ok) std::printf("FAILED\n");
    return ok ? 0 : 1;
}
