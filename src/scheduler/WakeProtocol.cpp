#include "detail/WakeProtocol.hpp"

#include <algorithm>

namespace pullsched::detail {

WakeProtocol::WakeProtocol(unsigned workers, bool wakesHelpers) noexcept
    : wakesHelpers_(wakesHelpers), maxSpinners_(std::max(1u, workers / 2)) {}

bool WakeProtocol::notifyTender() {
    // The tender clears the flag after its wait and before it looks for work (see
    // tenderSleepEnded), so either it sees what the caller published or we see the flag
    // clear (as with wakeInFlight_).
    if (tenderWakeInFlight_.exchange(true, std::memory_order_seq_cst)) return false;
    if (tenderSignal_.notifyAll()) return true;
    tenderWakeInFlight_.store(false, std::memory_order_seq_cst);  // nobody was waiting
    return false;
}

void WakeProtocol::clockMoved() {
    if (tenderSignal_.notifyAll()) return;
    idleSignal_.notifyOne();
}

void WakeProtocol::wakeEverybody() {
    idleSignal_.notifyAll();
    tenderSignal_.notifyAll();
}

bool WakeProtocol::claimTender(std::int64_t target) noexcept {
    std::int64_t tended = tendTarget_.load(std::memory_order_acquire);
    do {
        if (!takesOverTending(tended, target)) return false;
    } while (!tendTarget_.compare_exchange_weak(tended, target, std::memory_order_seq_cst));
    return true;
}

void WakeProtocol::tenderSleepEnded(std::int64_t target) noexcept {
    tenderWakeInFlight_.store(false, std::memory_order_seq_cst);  // see notifyTender
    std::int64_t mine = target;
    tendTarget_.compare_exchange_strong(mine, kNone, std::memory_order_seq_cst);
}

}  // namespace pullsched::detail
