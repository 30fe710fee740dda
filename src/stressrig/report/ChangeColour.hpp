#pragma once
// How `stressrig compare` colours a change of B against A. A change beyond the noise is
// better or worse only for a metric that has a direction in which it is better (less
// runtime, lateness, misses, drops; more efficiency, concurrency, completed jobs); a
// change of any other metric (a count of nodes, a setting) is only "changed".

#include <string_view>

#include "analysis/ResultComparison.hpp"

namespace pullsched::rig {

enum class BetterDirection { Lower, Higher, None };

/// From the words of a metric's name ("lateness p99 us (per rep)", "jobs_expired",
/// "efficiency"); None when no word says.
BetterDirection betterDirectionOf(std::string_view metric);

enum class ChangeClass { Better, Worse, Changed, WithinNoise, NoJudgement };

/// `changePercent` is (B - A) / |A| in per cent; NaN or 0 beyond the noise is Changed.
ChangeClass changeClassOf(Judgement judgement, double changePercent, BetterDirection direction);

/// Green better, orange worse (a measurement, not a correctness failure: no red),
/// purple changed, blue-grey within the noise, light grey no judgement.
std::string_view changeColour(ChangeClass c);

/// The picture's legend entry, e.g. "B better, beyond the noise".
std::string_view changeLegend(ChangeClass c);

}  // namespace pullsched::rig
