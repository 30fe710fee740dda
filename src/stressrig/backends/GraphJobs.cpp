#include "backends/GraphJobs.hpp"

#include <algorithm>
#include <stdexcept>
#include <thread>

#include "backends/BusiestThread.hpp"
#include "backends/ThreadLanes.hpp"
#include "pullsched/testchain/GraphStatistics.hpp"

namespace pullsched::rig {

using namespace pullsched::testchain;

namespace {

/// The spin at the end of a wait for a start time: covers the sleep's wake-up latency.
constexpr Duration kSpinLead = std::chrono::microseconds{200};
/// How often a run looks at its stop predicate (a stop must end a run within a second).
constexpr Duration kStopPoll = std::chrono::milliseconds{20};

}  // namespace

/// Waits until `t` (sleeping, then spinning the last kSpinLead); false if `stopping`
/// was set first (looked at every kStopPoll while asleep).
bool waitUntil(TimePoint t, const std::atomic<bool>& stopping) noexcept {
    while (t - SteadyClock::now() > kSpinLead) {
        if (stopping.load(std::memory_order_relaxed)) return false;
        std::this_thread::sleep_until(std::min(t - kSpinLead, SteadyClock::now() + kStopPoll));
    }
    while (SteadyClock::now() < t) {
    }
    return true;
}

void GraphJobs::prepare(const TestChainGraph& graph, const BackendSetup& setup, bool waitInJob,
                        Completion completion) {
    if (setup.workers == 0) throw std::invalid_argument("backend: 0 workers");
    if (setup.load && !setup.load->isCalibrated())
        throw std::invalid_argument("backend: the load is not calibrated");
    if (setup.schedule && setup.schedule->size() != graph.size())
        throw std::invalid_argument("backend: schedule is for a graph of another size");
    prepared_ = false;
    stop_ = setup.stop;
    graph_ = graph;
    load_ = setup.load;
    timeBase_ = setup.timeBase;
    workers_ = setup.workers;
    waitInJob_ = waitInJob;
    countDown_ = completion == Completion::CountDown;
    scheduled_ = setup.schedule.has_value();
    completionLimit_ = setup.completionLimit;
    const std::size_t n = graph.size();
    weight_.resize(n);
    exits_ = 0;
    start_.assign(n, Duration{0});
    for (std::size_t i = 0; i < n; ++i) {
        if (countDown_ && graph.node(i).isExit()) ++exits_;
        weight_[i] =
            static_cast<std::uint32_t>(effectiveWeight(graph.node(i).weight, setup.policy));
        if (setup.schedule) start_[i] = setup.schedule->nodeStart(i);
    }
    expectedEnd_ = setup.schedule ? setup.schedule->expectedEnd() : Duration{0};
    lowerBound_ =
        GraphStatistics(graph, setup.policy)
            .lowerBound(setup.parallelism ? setup.parallelism : setup.workers, setup.timeBase);
    graph_.recalculate();
    expectedHash_ = graph_.graphHash();
    executions_ = std::make_unique<std::atomic<std::uint32_t>[]>(n);
    runs_.resize(n);
    prepared_ = true;
}

void GraphJobs::beginRun() {
    if (!prepared_) throw std::logic_error("backend: run() before prepare()");
    graph_.clearNodeHashes();
    const std::size_t n = graph_.size();
    for (std::size_t i = 0; i < n; ++i)
        executions_[i].store(0, std::memory_order_relaxed);
    std::fill(runs_.begin(), runs_.end(), NodeRun{});
    remaining_.store(exits_, std::memory_order_relaxed);
    {
        std::lock_guard lock(mutex_);
        done_ = false;
    }
    stopping_.store(false, std::memory_order_relaxed);
    if (stop_)
        watcher_ = std::jthread([this](std::stop_token runEnded) {
            while (!runEnded.stop_requested()) {
                if (stop_()) {
                    stopping_.store(true, std::memory_order_relaxed);
                    std::lock_guard lock(mutex_);
                    doneCv_.notify_all();  // waitAll() gives up waiting
                    return;
                }
                std::this_thread::sleep_for(kStopPoll);
            }
        });
    anchor_ = SteadyClock::now();
}

void GraphJobs::restartClock() noexcept {
    anchor_ = SteadyClock::now();
}

void GraphJobs::runNode(std::uint32_t i) noexcept {
    Duration waited{0};
    bool skip = stopping_.load(std::memory_order_relaxed);
    if (!skip && waitInJob_ && start_[i] > Duration{0}) {
        const TimePoint entered = SteadyClock::now();
        const TimePoint due = anchor_ + start_[i];
        if (entered < due) {
            skip = !waitUntil(due, stopping_);
            waited = SteadyClock::now() - entered;
        }
    }
    if (skip) {  // interrupted: end at once, the exits still counting down
        endNode(i);
        return;
    }
    const TimePoint t0 = SteadyClock::now();
    const std::size_t w = weight_[i];
    if (w > 0 && load_) load_->invoke(w, timeBase_);
    graph_.node(i).calculate(graph_.nodes());
    const TimePoint t1 = SteadyClock::now();
    runs_[i] = {t0 - anchor_, t1 - anchor_, waited, std::this_thread::get_id()};
    executions_[i].fetch_add(1, std::memory_order_relaxed);
    endNode(i);
}

void GraphJobs::endNode(std::uint32_t i) noexcept {
    if (countDown_ && graph_.node(i).isExit() &&
        remaining_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        std::lock_guard lock(mutex_);
        done_ = true;
        doneCv_.notify_all();
    }
}

bool GraphJobs::waitAll() {
    if (!countDown_) throw std::logic_error("backend: waitAll() without Completion::CountDown");
    std::unique_lock lock(mutex_);
    doneCv_.wait_until(lock, saturatingAdd(SteadyClock::now(), completionLimit_),
                       [&] { return done_ || stopping_.load(std::memory_order_relaxed); });
    return done_;
}

BackendRun GraphJobs::finish(bool timedOut) {
    BackendRun out;
    RunResult& r = out.result;
    const std::size_t n = graph_.size();
    r.expectedHash = expectedHash_;
    r.anchor = anchor_;
    r.expectedEnd = expectedEnd_;
    r.lowerBound = lowerBound_;
    r.workers = workers_;
    r.nodes = n;
    r.planningJobs = 0;
    watcher_ = {};  // asks it to end and joins it
    if (stopping_.load(std::memory_order_relaxed)) {
        r.interrupted = true;
        return out;
    }
    if (timedOut) {
        r.timedOut = true;
        r.error = "run did not complete within the completion limit";
        return out;
    }
    // Every job ended (the countdown's acquire, or the adapter's own wait): its writes
    // are visible.
    r.jobs.resize(n);
    out.executions.resize(n);
    bool exitsRan = true;
    Duration lastEnd{0};
    for (std::size_t i = 0; i < n; ++i) {
        const Node& node = graph_.node(i);
        JobTiming& j = r.jobs[i];
        j.node = static_cast<std::uint32_t>(i);
        j.level = static_cast<std::uint32_t>(node.level);
        j.weight = weight_[i];
        j.scheduledStart = start_[i];
        j.actualStart = runs_[i].began;
        j.end = runs_[i].ended;
        j.posted = true;
        j.posts = 1;
        out.executions[i] = executions_[i].load(std::memory_order_relaxed);
        j.state = j.ran() ? JobState::Completed : JobState::Cancelled;
        if (j.ran()) {
            ++r.completedJobs;
            out.startWait += runs_[i].waited;
        } else {
            ++r.cancelled;
        }
        if (node.isExit()) {
            if (j.ran())
                lastEnd = std::max(lastEnd, j.end);
            else
                exitsRan = false;
        }
    }
    std::vector<std::thread::id> ranBy(n);
    std::vector<Duration> began(n);
    for (std::size_t i = 0; i < n; ++i) {
        ranBy[i] = runs_[i].ranBy;
        began[i] = runs_[i].began;
    }
    out.busiestThreadShare = busiestThreadShare(ranBy);
    out.lanes = threadLanes(ranBy, began);
    r.nodesPosted = n;
    r.completed = exitsRan;
    r.runTime = lastEnd;
    r.actualHash = graph_.graphHash();
    r.hashOk = r.actualHash == r.expectedHash;
    countExecutions(out);
    return out;
}

}  // namespace pullsched::rig
