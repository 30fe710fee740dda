#pragma once
// Where pullsched's worker threads run, as the rig offers it (--placement).

#include <string_view>

#include "pullsched/scheduler/Config.hpp"

namespace pullsched::rig {

/// spread: the scheduler's default: the OS places the workers and a busy worker that finds
///   another busy one on its CPU moves off it (SchedulerConfig::spreadWorkers).
/// pinned: worker i bound to the i-th CPU the process may use (WorkerPinning::FirstCpus):
///   no worker waits beside another, but none can make room for another thread either.
/// os: the OS alone (neither).
/// Placement is a trade-off measured both ways (docs/decisions.md, "Workers unpinned by
/// default"); the option lets a user measure it on their own machine and load.
enum class Placement { Spread, Pinned, Os };
inline constexpr Placement kPlacements[] = {Placement::Spread, Placement::Pinned, Placement::Os};

std::string_view toString(Placement placement) noexcept;

/// For a report's header: "" for the default, else what was different, e.g.
/// "; pullsched's workers pinned, one per CPU".
std::string_view placementNote(Placement placement) noexcept;

/// Sets cfg's pinWorkers and spreadWorkers for `placement`.
void applyPlacement(SchedulerConfig& cfg, Placement placement) noexcept;

}  // namespace pullsched::rig
