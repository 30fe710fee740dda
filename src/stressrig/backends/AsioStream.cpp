// asio as a job stream: a steady_timer per job, armed for its intended start on a
// thread_pool of `workers` threads, is a native timed start; the generator arms it a
// little ahead.
#include <memory>
#include <optional>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>

#include "backends/StreamBackends.hpp"

namespace pullsched::rig {

namespace {

namespace asio = boost::asio;

class AsioStream final : public StreamBackend {
  public:
    ~AsioStream() override { stopOnDestruction(); }
    std::string_view name() const noexcept override { return "asio"; }
    ArrivalTimes arrivalTimes() const noexcept override { return ArrivalTimes::Native; }
    std::string_view arrivalTimesText() const noexcept override {
        return "native: each job waits on a steady_timer armed ahead for its intended start";
    }

  protected:
    void launch(unsigned workers, Placement /*pullsched only*/) override { pool_.emplace(workers); }
    void post(pullsched::TimePoint intendedStart, StreamJob job) override {
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

std::unique_ptr<StreamBackend> makeAsioStream() {
    return std::make_unique<AsioStream>();
}

}  // namespace pullsched::rig
