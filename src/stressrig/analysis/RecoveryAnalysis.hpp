#pragma once
// Whether a load recovered after its last stage above the sustained rate (a spike, an
// overload): how long until the backlog drained and until starts were on time again.
// Pure: the unit tests check it on synthetic per-interval series.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace pullsched::rig {

/// One measured interval, as the recovery sees it.
struct RecoveryPoint {
    double endSeconds = 0;  ///< the interval's end since the load started
    double backlog = 0;     ///< due jobs not started at its end
    /// (late starts + drops) / (measured starts + drops) in the interval; NaN when it had none
    double lateShare = 0;
};

struct RecoveryCriteria {
    /// End of the last stage offering more than the sustained (final) rate.
    double spikeEndSeconds = 0;
    /// A backlog at most this is drained (what the workers start within the lateness limit).
    double backlogLimit = 1;
    /// An interval is under the lateness limit when at most this share of its starts was
    /// late or dropped (0.01: its p99 is within the limit).
    double lateShareLimit = 0.01;
};

struct Recovery {
    /// There was an interval after the spike to judge by.
    bool assessed = false;
    /// The backlog at the end of the last interval that ends at or before the spike's end
    /// (when intervals follow the stages: at the spike's end); missing when none does.
    std::optional<double> backlogAtSpikeEnd;
    /// The highest backlog of the intervals ending after the spike's end.
    double peakBacklog = 0;
    /// From the spike's end to the end of the first interval whose backlog was drained
    /// (resp. whose starts were within the limit): 0 when the interval the spike ended in
    /// already was; missing when none was by the end of the load. Resolution: one interval.
    std::optional<double> drainSeconds;
    std::optional<double> underLimitSeconds;
    /// Intervals after both recoveries that again had a backlog or late starts: a noisy
    /// machine, or a system that only just keeps up with the sustained rate.
    std::size_t relapses = 0;
    /// The intervals after both recoveries, which the relapses are counted among.
    std::size_t intervalsAfterRecovery = 0;
    /// Came back (drained and on time) and stayed so: at most one in ten intervals after
    /// it relapsed — a stray late interval on a busy machine is not an unrecovered system,
    /// a return for one interval among many late ones is no recovery.
    bool cameBack() const noexcept { return assessed && drainSeconds && underLimitSeconds; }
    bool recovered() const noexcept {
        return cameBack() && relapses * 10 <= intervalsAfterRecovery;
    }
};

/// `points` in time order. Intervals ending at or before the spike's end are not judged,
/// except the last of them, which decides whether recovery took no time.
Recovery assessRecovery(std::span<const RecoveryPoint> points, const RecoveryCriteria& c);

}  // namespace pullsched::rig
