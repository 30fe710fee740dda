// asio as a job stream: a steady_timer per job, armed for its intended start on a
// thread_pool of `workers` threads, is a native timed start; the generator arms it a
// little ahead.
#include <memory>
#include <optional>

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
        // The handler owns its timer: the timer lives until the job has run.
        auto timer = std::make_shared<asio::steady_timer>(pool_->get_executor(), intendedStart);
        timer->async_wait(
            [timer, job = std::move(job)](const boost::system::error_code&) { job(); });
    }
    void shutdown() override {
        pool_->join();
        pool_.reset();
    }

  private:
    std::optional<asio::thread_pool> pool_;
};

}  // namespace

std::unique_ptr<StreamRunner> makeAsioStreamRunner(const BackendInfo& info) {
    return std::make_unique<AsioStream>(info);
}

}  // namespace pullsched::rig
