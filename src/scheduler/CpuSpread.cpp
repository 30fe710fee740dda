#include "detail/CpuSpread.hpp"

#include <thread>
#include <utility>

#include "detail/ThreadAffinity.hpp"
#include "pullsched/scheduler/detail/CpuRelax.hpp"

#if defined(__linux__)
#include <sched.h>
#endif

namespace pullsched::detail {

namespace {
/// A bit per position in an allowed list of `size` CPUs; 0 beyond 64 (no steering).
std::uint64_t fullMask(std::size_t size) noexcept {
    if (size > 64) return 0;
    return size == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << size) - 1;
}

/// A posting thread's countdown to its next CPU read, for the CpuSpread it last posted to
/// (a new one at the same address inherits it: its posterAwake_ starts false, which reads).
struct PostLooks {
    const CpuSpread* spread = nullptr;
    unsigned left = 0;
};
constinit thread_local PostLooks tlPostLooks;
}  // namespace

CpuSpread::CpuSpread(unsigned workers, std::vector<int> allowed, bool steersHelpers)
    : allowed_(std::move(allowed)),
      slots_(std::make_unique<Slot[]>(workers + 1)),
      workers_(workers),
#if defined(__linux__)
      enabled_(workers >= 2 && allowed_.size() >= 2),
      helperSteers_(steersHelpers && allowed_.size() >= 2) {
    allMask_ = fullMask(allowed_.size());
    if (allMask_ == 0) helperSteers_ = false;
    for (unsigned i = 0; i < workers; ++i)
        slots_[i].steeredTo.store(allMask_, std::memory_order_relaxed);
}
#else
      enabled_(false),
      helperSteers_(false) {
    (void)steersHelpers;
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

void CpuSpread::attach(unsigned me) noexcept {
    if (enabled_) slots_[me].tid.store(currentThreadId(), std::memory_order_release);
}

void CpuSpread::unparked(unsigned me) noexcept {
#if defined(__linux__)
    if (!enabled_) return;
    Slot& mine = slots_[me];
    int expected = kParked;
    for (unsigned spins = 0;
         !mine.parked.compare_exchange_weak(expected, kRunning, std::memory_order_acq_rel);
         ++spins) {
        if (expected == kRunning) break;  // did not park (found work at the last look)
        expected = kParked;  // a waker is steering us: one system call, unless preempted
        if (spins < 64) {
            cpuRelax();
        } else {
            std::this_thread::yield();
        }
    }
    mine.cpu.store(sched_getcpu(), std::memory_order_relaxed);
    if (mine.steeredTo.load(std::memory_order_relaxed) == allMask_) return;
    mine.steeredTo.store(allMask_, std::memory_order_relaxed);
    bindCallingThread(allowed_);
#else
    (void)me;
#endif
}

std::uint64_t CpuSpread::steerMask(int wakerCpu, std::span<const int> published,
                                   std::span<const int> allowed) noexcept {
    if (allowed.size() > 64) return 0;
    std::uint64_t mask = 0;
    for (std::size_t i = 0; i < allowed.size(); ++i) {
        const int c = allowed[i];
        bool used = c == wakerCpu;
        for (const int p : published)
            used = used || p == c;
        if (!used) mask |= std::uint64_t{1} << i;
    }
    return mask != 0 ? mask : fullMask(allowed.size());
}

#if defined(__linux__)
std::uint64_t CpuSpread::wakeMask(unsigned me) const noexcept {
    // Busy workers' CPUs, as published (every kCheckPeriod jobs and when woken).
    // On the stack up to this many (workers and the poster); more take the vector. Sized
    // for the machines this runs on (2-16 CPUs), no measurement.
    constexpr std::size_t kLocal = 16;
    int local[kLocal];
    std::vector<int> many;
    std::span<int> busy;
    const std::size_t n = workers_ + 1;  // and a busy poster's
    if (n <= kLocal) {
        busy = {local, n};
    } else {
        many.resize(n);  // an allocation per wake only beyond 15 workers
        busy = many;
    }
    for (unsigned j = 0; j < workers_; ++j)
        busy[j] = j == me ? kNotBusy : slots_[j].cpu.load(std::memory_order_relaxed);
    busy[workers_] = posterAwake_.load(std::memory_order_relaxed)
                         ? postCpu_.load(std::memory_order_relaxed)
                         : kNotBusy;
    return steerMask(sched_getcpu(), busy, allowed_);
}

bool CpuSpread::steer(Slot& other, std::uint64_t to) const noexcept {
    if (other.parked.load(std::memory_order_acquire) != kParked) return false;
    if (other.steeredTo.load(std::memory_order_relaxed) == to) return false;
    int expected = kParked;
    if (!other.parked.compare_exchange_strong(expected, kSteering, std::memory_order_acq_rel))
        return false;
    int cpus[64];  // `to` as CPU numbers
    std::size_t count = 0;
    for (std::size_t i = 0; i < allowed_.size(); ++i)
        if (to & (std::uint64_t{1} << i)) cpus[count++] = allowed_[i];
    const int tid = other.tid.load(std::memory_order_acquire);
    const bool moved = tid != 0 && bindThread(tid, {cpus, count});
    if (moved) other.steeredTo.store(to, std::memory_order_relaxed);
    other.parked.store(kParked, std::memory_order_release);
    return moved;
}
#endif

unsigned CpuSpread::steerParked(unsigned me) noexcept {
#if defined(__linux__)
    if (!enabled_ || allMask_ == 0) return 0;
    std::uint64_t to = 0;  // computed when the first parked worker needs it
    unsigned calls = 0;
    for (unsigned j = 0; j < workers_; ++j) {
        if (j == me || slots_[j].parked.load(std::memory_order_acquire) != kParked) continue;
        if (to == 0) to = wakeMask(me);
        if (steer(slots_[j], to)) ++calls;
    }
    return calls;
#else
    (void)me;
    return 0;
#endif
}

bool CpuSpread::helperParking() noexcept {
#if defined(__linux__)
    if (!helperSteers_) return false;
    Slot& slot = slots_[workers_];
    int expected = kRunning;
    // Held as kSteering while it looks, so that no waker steers it half set up.
    if (!slot.parked.compare_exchange_strong(expected, kSteering, std::memory_order_acq_rel))
        return false;  // another helper sleeps in it
    cpu_set_t own;
    CPU_ZERO(&own);
    bool whole = sched_getaffinity(0, sizeof own, &own) == 0 &&
                 static_cast<std::size_t>(CPU_COUNT(&own)) == allowed_.size();
    for (std::size_t i = 0; whole && i < allowed_.size(); ++i)
        whole = CPU_ISSET(allowed_[i], &own);
    if (!whole) {  // bound by its owner: not ours to move
        slot.parked.store(kRunning, std::memory_order_release);
        return false;
    }
    slot.tid.store(currentThreadId(), std::memory_order_relaxed);
    slot.steeredTo.store(allMask_, std::memory_order_relaxed);
    slot.parked.store(kParked, std::memory_order_release);
    return true;
#else
    return false;
#endif
}

void CpuSpread::helperUnparked() noexcept {
#if defined(__linux__)
    Slot& slot = slots_[workers_];
    int expected = kParked;
    for (unsigned spins = 0;
         !slot.parked.compare_exchange_weak(expected, kSteering, std::memory_order_acq_rel);
         ++spins) {
        expected = kParked;  // a waker is steering it: one system call, unless preempted
        if (spins < 64) {
            cpuRelax();
        } else {
            std::this_thread::yield();
        }
    }
    if (slot.steeredTo.load(std::memory_order_relaxed) != allMask_) bindCallingThread(allowed_);
    slot.tid.store(0, std::memory_order_relaxed);
    slot.parked.store(kRunning, std::memory_order_release);
#endif
}

unsigned CpuSpread::steerHelper(unsigned me) noexcept {
#if defined(__linux__)
    Slot& slot = slots_[workers_];
    if (!helperSteers_ || slot.parked.load(std::memory_order_acquire) != kParked) return 0;
    return steer(slot, wakeMask(me)) ? 1 : 0;
#else
    (void)me;
    return 0;
#endif
}

void CpuSpread::notePost() noexcept {
#if defined(__linux__)
    if (!enabled_) return;
    PostLooks& looks = tlPostLooks;
    const bool awake = posterAwake_.load(std::memory_order_relaxed);
    if (looks.spread != this || looks.left == 0 || !awake) {
        looks.spread = this;
        looks.left = kPostLookPeriod;
        const int cpu = sched_getcpu();
        if (postCpu_.load(std::memory_order_relaxed) != cpu)
            postCpu_.store(cpu, std::memory_order_relaxed);
    }
    --looks.left;
    if (!postedSinceLook_.load(std::memory_order_relaxed))
        postedSinceLook_.store(true, std::memory_order_relaxed);
    if (!awake) posterAwake_.store(true, std::memory_order_relaxed);
#endif
}

}  // namespace pullsched::detail
