#include "load/ArrivalConfig.hpp"

namespace pullsched::rig {

ArrivalTimetable makeTimetable(const ArrivalConfig& a, Duration duration) {
    return makeTimetable(a, Duration{0}, duration);
}

ArrivalTimetable makeTimetable(const ArrivalConfig& a, Duration from, Duration to) {
    const bool poisson = a.arrival == "poisson";
    if (a.profile)
        return poisson ? ArrivalTimetable::stagedPoisson(*a.profile, from, to, a.seed)
                       : ArrivalTimetable::staged(*a.profile, from, to);
    if (poisson) return ArrivalTimetable::poisson(a.rate, to - from, a.seed);
    return ArrivalTimetable::constant(a.rate, to - from);
}

}  // namespace pullsched::rig
