#include "measure/RunInstrument.hpp"

#include "pullsched/testchain/ScheduleRunner.hpp"

namespace pullsched::rig {

RunInstrument::RunInstrument(unsigned workers, std::size_t nodes, std::uint64_t tagBase)
    : nodes_(nodes),
      tagBase_(tagBase),
      // every node may run on any worker: room for all brackets in each slot
      incidence_(workers, 2 * nodes + 16),
      worker_(new std::atomic<int>[nodes]) {
    reset();
}

bool RunInstrument::isNode(std::uint64_t tag, std::size_t& node) const noexcept {
    if (tag & testchain::ScheduleRunner::kPlanningTag) return false;
    if (tag < tagBase_ || tag - tagBase_ >= nodes_) return false;
    node = static_cast<std::size_t>(tag - tagBase_);
    return true;
}

void RunInstrument::onJobStart(unsigned worker, const JobEvent& e) {
    std::size_t node = 0;
    if (!isNode(e.tag, node)) return;
    worker_[node].store(static_cast<int>(worker), std::memory_order_relaxed);
    incidence_.enter(worker, 0, e.now);
}

void RunInstrument::onJobEnd(unsigned worker, const JobEvent& e) {
    std::size_t node = 0;
    if (!isNode(e.tag, node)) return;
    incidence_.leave(worker, 0, e.now);
}

void RunInstrument::reset() noexcept {
    incidence_.reset();
    for (std::size_t i = 0; i < nodes_; ++i)
        worker_[i].store(-1, std::memory_order_relaxed);
}

int RunInstrument::workerOf(std::size_t node) const noexcept {
    return node < nodes_ ? worker_[node].load(std::memory_order_relaxed) : -1;
}

std::vector<MeasuredJob> RunInstrument::measuredJobs(const testchain::RunResult& run) const {
    std::vector<MeasuredJob> out;
    out.reserve(run.jobs.size());
    for (const testchain::JobTiming& j : run.jobs) {
        if (!j.ran()) continue;
        MeasuredJob r;
        const int w = workerOf(j.node);
        r.worker = w < 0 ? 0u : static_cast<unsigned>(w);
        r.name = "node " + std::to_string(j.node);
        r.id = j.node;
        r.scheduledStart = run.anchor + j.scheduledStart;
        r.actualStart = run.anchor + j.actualStart;
        r.end = run.anchor + j.end;
        out.push_back(std::move(r));
    }
    return out;
}

}  // namespace pullsched::rig
