// oneTBB, in its idiom (the Taskflow suite's shape): a call runs its children as tasks
// of a task_group and waits for them, fib computing fib(n-2) itself before the wait. The
// calling thread is one of the arena's `workers` threads. The loop shapes: parallel_for
// with its default (auto) partitioner, in the same arena.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>

#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>

#include "backends/BackendFactories.hpp"
#include "backends/RecursionRunner.hpp"

namespace pullsched::rig {

namespace {

// Once `abandon` is set, a call spawns nothing and returns 0 (RecursionRunner.hpp).
std::uint64_t fibTbb(unsigned n, const std::atomic<bool>& abandon) {
    if (n < 2) return n;
    if (abandon.load(std::memory_order_relaxed)) return 0;
    std::uint64_t x = 0;
    tbb::task_group g;
    g.run([&x, &abandon, n] { x = fibTbb(n - 1, abandon); });
    const std::uint64_t y = fibTbb(n - 2, abandon);
    g.wait();
    return x + y;
}

std::uint64_t skynetTbb(std::uint64_t num, unsigned levels, const std::atomic<bool>& abandon) {
    if (levels == 0) return num;
    if (abandon.load(std::memory_order_relaxed)) return 0;
    const std::uint64_t step = powerOfTen(levels - 1);
    std::uint64_t part[10] = {};
    tbb::task_group g;
    for (unsigned i = 0; i < 10; ++i)
        g.run([&part, &abandon, i, n = num + i * step, levels] {
            part[i] = skynetTbb(n, levels - 1, abandon);
        });
    g.wait();
    std::uint64_t sum = 0;
    for (const std::uint64_t p : part)
        sum += p;
    return sum;
}

class TbbRecursion final : public RecursionRunner {
  public:
    using RecursionRunner::RecursionRunner;
    std::string_view idiom() const noexcept override {
        return "a call runs its children as tasks of a task_group and waits in it (fib computes "
               "fib(n-2) itself first), inside a task_arena whose threads include the caller";
    }
    std::string_view loopIdiom() const noexcept override {
        return "parallel_for(0, n, body) with its default (auto) partitioner, inside the "
               "task_arena whose threads include the caller";
    }
    void prepare(unsigned workers) override {
        if (workers == 0) throw std::invalid_argument("tbb recursion: 0 workers");
        arena_.emplace(static_cast<int>(workers));
        arena_->initialize();  // its threads now, not in the first timed run
    }

  protected:
    RecursionRun runRecursion(const RecursionShape& shape,
                              const std::atomic<bool>& abandon) override {
        if (!arena_) throw std::logic_error("tbb recursion: not prepared");
        RecursionRun r;
        const auto t0 = std::chrono::steady_clock::now();
        arena_->execute([&] {
            r.result = shape.kind == RecursionKind::Fib ? fibTbb(shape.size, abandon)
                                                        : skynetTbb(0, shape.size, abandon);
        });
        r.wall =
            std::chrono::duration_cast<testchain::Duration>(std::chrono::steady_clock::now() - t0);
        r.abandoned = abandon.load(std::memory_order_relaxed);
        return r;
    }
    void runLoop(const LoopWork& work) override {
        if (!arena_) throw std::logic_error("tbb loop: not prepared");
        arena_->execute([&work] {
            tbb::parallel_for(std::size_t{0}, work.out.size(),
                              [&work](std::size_t i) { work.iteration(i); });
        });
    }

  private:
    std::optional<tbb::task_arena> arena_;
};

}  // namespace

std::unique_ptr<RecursionRunner> makeTbbRecursionRunner(const BackendInfo& info) {
    return std::make_unique<TbbRecursion>(info);
}

}  // namespace pullsched::rig
