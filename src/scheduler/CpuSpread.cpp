#include "detail/CpuSpread.hpp"

#include <utility>

#include "detail/ThreadAffinity.hpp"

#if defined(__linux__)
#include <sched.h>
#endif

namespace pullsched::detail {

CpuSpread::CpuSpread(unsigned workers, std::vector<int> allowed)
    : allowed_(std::move(allowed)),
      slots_(std::make_unique<Slot[]>(workers)),
      workers_(workers),
#if defined(__linux__)
      enabled_(workers >= 2 && allowed_.size() >= 2) {
}
#else
      enabled_(false) {
}
#endif

int CpuSpread::target(unsigned me, int cpu, std::span<const int> published,
                      std::span<const int> allowed, bool wakeOverdue, int poster) noexcept {
    return targetOf(
        me, cpu, static_cast<unsigned>(published.size()), [&](unsigned j) { return published[j]; },
        allowed, wakeOverdue, poster);
}

bool CpuSpread::check(unsigned me, TimePoint now, bool wakeOverdue) noexcept {
#if defined(__linux__)
    if (!enabled_) return false;
    const int cpu = sched_getcpu();  // glibc reads it from the rseq area: no system call
    Slot& mine = slots_[me];
    mine.cpu.store(cpu, std::memory_order_relaxed);
    int poster = kNotBusy;
    if (postedSinceLook_.load(std::memory_order_relaxed)) {
        postedSinceLook_.store(false, std::memory_order_relaxed);
        poster = postCpu_.load(std::memory_order_relaxed);
    }
    const int to = targetOf(
        me, cpu, workers_,
        [this](unsigned j) { return slots_[j].cpu.load(std::memory_order_relaxed); }, allowed_,
        wakeOverdue, poster);
    if (to == kNotBusy) {
        mine.sharedSince = TimePoint{};
        return false;
    }
    if (!wakeOverdue) {
        if (mine.sharedSince == TimePoint{}) mine.sharedSince = now;
        if (now - mine.sharedSince < kSharedFor) return false;
    }
    mine.sharedSince = TimePoint{};
    // Published before the move: onto an idle vCPU it takes ~200 us here, and a worker
    // looking meanwhile must see where this one is going, or it may pick the same CPU.
    mine.cpu.store(to, std::memory_order_relaxed);
    if (!bindCallingThread({&to, 1})) {  // best effort
        mine.cpu.store(cpu, std::memory_order_relaxed);
        return false;
    }
    bindCallingThread(allowed_);  // already on `to`: widening does not move it
    return true;
#else
    (void)me;
    (void)now;
    (void)wakeOverdue;
    return false;
#endif
}

void CpuSpread::notePost() noexcept {
#if defined(__linux__)
    if (!enabled_) return;
    const int cpu = sched_getcpu();
    if (postCpu_.load(std::memory_order_relaxed) != cpu)
        postCpu_.store(cpu, std::memory_order_relaxed);
    if (!postedSinceLook_.load(std::memory_order_relaxed))
        postedSinceLook_.store(true, std::memory_order_relaxed);
#endif
}

}  // namespace pullsched::detail
