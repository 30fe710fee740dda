// openmp as a job stream: one parallel region of workers + 1 threads runs on a thread of
// its own; its single dispatcher thread turns each job the generator hands over (at its
// arrival time) into an OpenMP task, which the other `workers` threads run. OpenMP has no
// timed start, and no way to create a task from outside a parallel region, hence the
// hand-over.
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include "backends/BackendFactories.hpp"
#include "backends/StreamRunner.hpp"

namespace pullsched::rig {

namespace {

class OpenMpStream final : public StreamRunner {
  public:
    using StreamRunner::StreamRunner;
    ~OpenMpStream() override { stopOnDestruction(); }

  protected:
    void launch(unsigned workers, Placement /*pullsched only*/) override {
        region_ = std::thread([this, workers] { runRegion(static_cast<int>(workers) + 1); });
    }
    void post(pullsched::TimePoint, pullsched::TimePoint, StreamJob job) override {
        {
            std::lock_guard lock(mutex_);
            handover_.push_back(std::move(job));
        }
        wake_.notify_one();
    }
    void shutdown() override {
        {
            std::lock_guard lock(mutex_);
            closing_ = true;
        }
        wake_.notify_one();
        region_.join();
    }

  private:
    void runRegion(int threads) {
#pragma omp parallel num_threads(threads)
#pragma omp single
        dispatch();
        // The implicit barriers of single and parallel wait for every task.
    }

    /// The single thread: waits for handed-over jobs and makes each a task.
    void dispatch() {
        std::deque<StreamJob> batch;
        for (;;) {
            {
                std::unique_lock lock(mutex_);
                wake_.wait(lock, [this] { return closing_ || !handover_.empty(); });
                if (handover_.empty()) return;
                batch.swap(handover_);
            }
            for (StreamJob& j : batch) {
                StreamJob* job = new StreamJob(std::move(j));
#pragma omp task firstprivate(job)
                {
                    (*job)();
                    delete job;
                }
            }
            batch.clear();
        }
    }

    std::thread region_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<StreamJob> handover_;
    bool closing_ = false;
};

}  // namespace

std::unique_ptr<StreamRunner> makeOpenMpStreamRunner(const BackendInfo& info) {
    return std::make_unique<OpenMpStream>(info);
}

}  // namespace pullsched::rig
