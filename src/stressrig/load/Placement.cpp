#include "load/Placement.hpp"

namespace pullsched::rig {

std::string_view toString(Placement placement) noexcept {
    switch (placement) {
        case Placement::Pinned:
            return "pinned";
        case Placement::Os:
            return "os";
        case Placement::Spread:
            break;
    }
    return "spread";
}

std::string_view placementNote(Placement placement) noexcept {
    switch (placement) {
        case Placement::Pinned:
            return "; pullsched's workers pinned, one per CPU";
        case Placement::Os:
            return "; pullsched's workers placed by the OS alone";
        case Placement::Spread:
            break;
    }
    return "";
}

void applyPlacement(SchedulerConfig& cfg, Placement placement) noexcept {
    cfg.pinWorkers =
        placement == Placement::Pinned ? WorkerPinning::FirstCpus : WorkerPinning::None;
    cfg.spreadWorkers = placement == Placement::Spread;
}

}  // namespace pullsched::rig
