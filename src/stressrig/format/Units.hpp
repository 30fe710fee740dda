#pragma once
// Durations and rates as people read them (`1.50ms`, `12.5k/s`), for every text the rig
// writes; parsing the command line's units is cli/UnitParsing.hpp.

#include <chrono>
#include <string>

namespace pullsched::rig {

struct Units {
    /// 3 significant digits in the largest unit ≥ 1: `850ns`, `12.3µs`, `1.50ms`,
    /// `2.35s`; from one minute on `2min 05.3s`, from one hour `1h 02min`. Negative
    /// durations get a leading '-'. ascii = true writes `us` instead of `µs`.
    static std::string formatDuration(std::chrono::nanoseconds d, bool ascii = false);

    /// `950/s`, `12.5k/s`, `1.20M/s` (3 significant digits).
    static std::string formatRate(double perSecond);
};

/// A duration as a number of milliseconds / microseconds (for CSV and JSON fields whose
/// names carry the unit).
inline double toMs(std::chrono::nanoseconds d) {
    return std::chrono::duration<double, std::milli>(d).count();
}
inline double toUs(std::chrono::nanoseconds d) {
    return std::chrono::duration<double, std::micro>(d).count();
}

}  // namespace pullsched::rig
