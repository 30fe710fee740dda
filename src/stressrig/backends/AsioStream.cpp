// asio as a job stream: a steady_timer per job, armed for its intended start on a
// thread_pool of `workers` threads, is a native timed start; the generator arms it a
// little ahead.
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_set>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>

#include "backends/BackendFactories.hpp"
#include "backends/StreamRunner.hpp"

namespace pullsched::rig {

namespace {

namespace asio = boost::asio;

class AsioStream final : public StreamRunner {
  public:
    using StreamRunner::StreamRunner;
    ~AsioStream() override { stopOnDestruction(); }

  protected:
    void launch(unsigned workers, Placement /*pullsched only*/) override { pool_.emplace(workers); }
    void post(pullsched::TimePoint intendedStart, pullsched::TimePoint, StreamJob job) override {
        // The handler owns its timer: the timer lives until the job has run. Until its
        // handler begins, the timer is listed, so that a stop can cancel it.
        auto timer = std::make_shared<asio::steady_timer>(pool_->get_executor(), intendedStart);
        {
            const std::lock_guard lock(armedMutex_);
            armed_.insert(timer.get());
        }
        timer->async_wait([this, timer, job = std::move(job)](const boost::system::error_code&) {
            {
                const std::lock_guard lock(armedMutex_);
                armed_.erase(timer.get());
            }
            job();  // a cancelled wait runs it too: the wrapper then skips the body
        });
    }
    /// A job held for a later start (a closed user's think time) would keep stop() waiting
    /// until it is due: its timer fires now instead.
    void cancelPending() override {
        const std::lock_guard lock(armedMutex_);
        for (asio::steady_timer* t : armed_)
            t->cancel();
    }
    void shutdown() override {
        pool_->join();
        pool_.reset();
    }

  private:
    std::optional<asio::thread_pool> pool_;
    std::mutex armedMutex_;
    std::unordered_set<asio::steady_timer*> armed_;
};

}  // namespace

std::unique_ptr<StreamRunner> makeAsioStreamRunner(const BackendInfo& info) {
    return std::make_unique<AsioStream>(info);
}

}  // namespace pullsched::rig
