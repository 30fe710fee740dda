// OpenMP, in its idiom: a call creates its children as tasks and waits for them with
// taskwait, fib computing fib(n-2) itself first; one thread of a parallel region of
// `workers` threads starts the root. The loop shapes: `parallel for` with a static
// schedule on a team of `workers` threads.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>

#include "backends/BackendFactories.hpp"
#include "backends/RecursionRunner.hpp"

namespace pullsched::rig {

namespace {

// Once `abandon` is set, a call spawns nothing and returns 0 (RecursionRunner.hpp).
std::uint64_t fibOmp(unsigned n, const std::atomic<bool>& abandon) {
    if (n < 2) return n;
    if (abandon.load(std::memory_order_relaxed)) return 0;
    std::uint64_t x = 0;
#pragma omp task shared(x, abandon) firstprivate(n)
    x = fibOmp(n - 1, abandon);
    const std::uint64_t y = fibOmp(n - 2, abandon);
#pragma omp taskwait
    return x + y;
}

std::uint64_t skynetOmp(std::uint64_t num, unsigned levels, const std::atomic<bool>& abandon) {
    if (levels == 0) return num;
    if (abandon.load(std::memory_order_relaxed)) return 0;
    const std::uint64_t step = powerOfTen(levels - 1);
    std::uint64_t part[10] = {};
    for (unsigned i = 0; i < 10; ++i) {
#pragma omp task shared(part, abandon) firstprivate(i, num, step, levels)
        part[i] = skynetOmp(num + i * step, levels - 1, abandon);
    }
#pragma omp taskwait
    std::uint64_t sum = 0;
    for (const std::uint64_t p : part)
        sum += p;
    return sum;
}

class OpenMpRecursion final : public RecursionRunner {
  public:
    using RecursionRunner::RecursionRunner;
    std::string_view idiom() const noexcept override {
        return "a call creates its children with omp task and waits with taskwait (fib computes "
               "fib(n-2) itself first), started by one thread of a parallel region";
    }
    std::string_view loopIdiom() const noexcept override {
        return "#pragma omp parallel for schedule(static) over the n indices, on a team of the "
               "worker count whose first thread is the caller";
    }
    void prepare(unsigned workers) override {
        if (workers == 0) throw std::invalid_argument("openmp recursion: 0 workers");
        workers_ = static_cast<int>(workers);
    }

  protected:
    RecursionRun runRecursion(const RecursionShape& shape,
                              const std::atomic<bool>& abandon) override {
        if (workers_ == 0) throw std::logic_error("openmp recursion: not prepared");
        RecursionRun r;
        const auto t0 = std::chrono::steady_clock::now();
        std::uint64_t result = 0;
#pragma omp parallel num_threads(workers_) shared(result, abandon)
#pragma omp single
        result = shape.kind == RecursionKind::Fib ? fibOmp(shape.size, abandon)
                                                  : skynetOmp(0, shape.size, abandon);
        r.result = result;
        r.wall =
            std::chrono::duration_cast<testchain::Duration>(std::chrono::steady_clock::now() - t0);
        r.abandoned = abandon.load(std::memory_order_relaxed);
        return r;
    }
    void runLoop(const LoopWork& work) override {
        if (workers_ == 0) throw std::logic_error("openmp loop: not prepared");
        const auto n = static_cast<std::int64_t>(work.out.size());
#pragma omp parallel for schedule(static) num_threads(workers_)
        for (std::int64_t i = 0; i < n; ++i)
            work.iteration(static_cast<std::size_t>(i));
    }

  private:
    int workers_ = 0;
};

}  // namespace

std::unique_ptr<RecursionRunner> makeOpenMpRecursionRunner(const BackendInfo& info) {
    return std::make_unique<OpenMpRecursion>(info);
}

}  // namespace pullsched::rig
