#pragma once
// --stages: a load that changes over time, `DURATION:RATE` (hold) or
// `DURATION:RATE→RATE` (linear ramp; `->` works too), comma-separated or one per line of
// `@FILE`; parsed into a load/RateProfile before anything runs.

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

#include "load/RateProfile.hpp"

namespace pullsched::rig {

/// The largest stages file --stages=@FILE reads.
inline constexpr std::size_t kMaxStagesFileBytes = 64 * 1024;

/// How long a timed load may run: --duration's bounds, which the stages replace.
inline constexpr Duration kMinLoadDuration = std::chrono::milliseconds(10);
inline constexpr Duration kMaxLoadDuration = std::chrono::hours(24);

/// Parses a stage list. Durations take the rig's units plus `m` for minutes (as k6
/// writes `1m`; a stage is never a millisecond long); rates take the rig's units and may
/// be 0. UsageError with one line naming the stage for an empty list or stage, a
/// missing ':', a zero duration, a negative or unparsable rate, an unknown unit, or a
/// profile that offers no load.
RateProfile parseStages(std::string_view spec);

/// `--stages` as given: `@FILE` is read (one stage per line, '#' comments), else
/// parseStages(text). UsageError besides for stages that last less than kMinLoadDuration
/// or more than kMaxLoadDuration in all, or offer less than one job.
RateProfile readStagesArgument(const std::string& text);

}  // namespace pullsched::rig
