#include "detail/LoadController.hpp"

#include <algorithm>

namespace pullsched::detail {

std::string_view toString(CapacityClass c) noexcept {
    switch (c) {
        case CapacityClass::Dispatch:
            return "dispatch";
        case CapacityClass::SpinTime:
            return "spintime";
        case CapacityClass::NearTime:
            return "neartime";
        case CapacityClass::WorkTime:
            return "worktime";
        case CapacityClass::IdleWait:
            return "idlewait";
    }
    return "?";
}

CapacityClass LoadController::classify(std::optional<TimePoint> head,
                                       TimePoint now) const noexcept {
    if (!head) return CapacityClass::IdleWait;
    const Duration d = saturatingSub(*head, now);
    if (d <= Duration::zero()) return CapacityClass::Dispatch;
    if (d <= h_.nearTime) return CapacityClass::SpinTime;
    if (d <= h_.workTime) return CapacityClass::NearTime;
    if (d <= h_.idleWait) return CapacityClass::WorkTime;
    return CapacityClass::IdleWait;
}

WorkerAction LoadController::decide(std::optional<TimePoint> head, TimePoint now,
                                    bool mayTend) const noexcept {
    using K = WorkerAction::Kind;
    if (!head) return {K::Park, kNoDeadline};
    switch (classify(head, now)) {
        case CapacityClass::Dispatch:
            return {K::Dispatch, *head};
        case CapacityClass::SpinTime:
            return {K::Spin, *head};
        case CapacityClass::NearTime:
            // Too close to sleep: an OS sleep would overshoot the start.
            if (saturatingSub(*head, now) <= h_.spinWindow) return {K::Spin, *head};
            [[fallthrough]];
        case CapacityClass::WorkTime:
            if (mayTend) return {K::TendNext, saturatingAdd(*head, -h_.spinWindow)};
            return {K::Park, kNoDeadline};
        case CapacityClass::IdleWait:
            // One sleep until shortly before the head, however far: a post of an earlier
            // job wakes the tender, so it need not look again once per idle cycle.
            if (mayTend) return {K::TendNext, saturatingAdd(*head, -h_.spinWindow)};
            return {K::Park, kNoDeadline};
    }
    return {K::Park, kNoDeadline};
}

}  // namespace pullsched::detail
