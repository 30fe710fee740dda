#pragma once
// The arrival process of an open load and the timetable it makes.

#include <cstdint>
#include <optional>
#include <string>

#include "load/ArrivalTimetable.hpp"
#include "load/RateProfile.hpp"
#include "pullsched/scheduler/Time.hpp"

namespace pullsched::rig {

/// Arrival process of an open load.
struct ArrivalConfig {
    double rate = 1000;                ///< jobs per second
    std::string arrival = "constant";  ///< constant | poisson
    std::uint64_t seed = 42;           ///< Poisson arrivals
    /// --stages: the rate changes over time (then `rate` is unused)
    std::optional<RateProfile> profile;

    /// The offered rate at `t`: the profile's, else the constant rate.
    double rateAt(Duration t) const { return profile ? profile->rateAt(t) : rate; }
    /// The mean offered rate over [from, to).
    double meanRate(Duration from, Duration to) const {
        return profile ? profile->meanRate(from, to) : rate;
    }
};

/// The arrivals of [0, duration).
ArrivalTimetable makeTimetable(const ArrivalConfig& a, Duration duration);
/// The arrivals of the window [from, to) of the load, offsets relative to `from`; a
/// constant rate starts afresh in every window (as soak intervals do), a profile's
/// arrivals are the profile's own in that window. Poisson uses `seed` as given.
ArrivalTimetable makeTimetable(const ArrivalConfig& a, Duration from, Duration to);

}  // namespace pullsched::rig
