// tbb as a job stream: the generator thread enqueues each job into a task_arena of
// `workers` worker slots (none reserved for the generator) at its arrival time; oneTBB
// has no timed start.
#include <algorithm>
#include <memory>

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/task_arena.h>

#include "backends/BackendFactories.hpp"
#include "backends/StreamRunner.hpp"

namespace pullsched::rig {

namespace {

class TbbStream final : public StreamRunner {
  public:
    using StreamRunner::StreamRunner;
    ~TbbStream() override { stopOnDestruction(); }

  protected:
    void launch(unsigned workers, Placement /*pullsched only*/) override {
        // The generator does not join the arena, so oneTBB needs `workers` threads of its
        // own; without this it caps its pool at hardware concurrency − 1.
        control_ = std::make_unique<oneapi::tbb::global_control>(
            oneapi::tbb::global_control::max_allowed_parallelism,
            std::max<std::size_t>(workers + 1, oneapi::tbb::info::default_concurrency()));
        arena_ = std::make_unique<oneapi::tbb::task_arena>(static_cast<int>(workers),
                                                           /*reserved_for_masters*/ 0);
        arena_->initialize();
    }
    void post(pullsched::TimePoint, pullsched::TimePoint, StreamJob job) override {
        arena_->enqueue(std::move(job));
    }
    void shutdown() override {
        arena_.reset();
        control_.reset();
    }

  private:
    std::unique_ptr<oneapi::tbb::global_control> control_;
    std::unique_ptr<oneapi::tbb::task_arena> arena_;
};

}  // namespace

std::unique_ptr<StreamRunner> makeTbbStreamRunner(const BackendInfo& info) {
    return std::make_unique<TbbStream>(info);
}

}  // namespace pullsched::rig
