#pragma once
// The lateness figures, which several modes hold in one of three shapes, for their
// Mode::figures() declarations.

#include <vector>

#include "report/ResultCheck.hpp"

namespace pullsched::rig {

/// Where a mode's result keeps its lateness percentiles.
enum class LatenessAt {
    Flat,          ///< `lateness_p99_us` (run)
    Nested,        ///< `lateness.p99_us` (open, soak)
    NestedPerLoop  ///< `closed.lateness.p99_us` and `open.lateness.p99_us` (closed)
};

/// The lateness figures at `at`, followed by `others`.
inline std::vector<FigureSource> withLateness(LatenessAt at, std::vector<FigureSource> others) {
    static constexpr const char* kNames[] = {"lateness_p50",   "lateness_p90", "lateness_p99",
                                             "lateness_p99_9", "lateness_max", "lateness_mean"};
    static constexpr const char* kNested[] = {"lateness.p50_us", "lateness.p90_us",
                                              "lateness.p99_us", "lateness.p99_9_us",
                                              "lateness.max_us", "lateness.mean_us"};
    static constexpr const char* kPerLoop[] = {"*.lateness.p50_us", "*.lateness.p90_us",
                                               "*.lateness.p99_us", "*.lateness.p99_9_us",
                                               "*.lateness.max_us", "*.lateness.mean_us"};
    std::vector<FigureSource> figures;
    for (std::size_t i = 0; i < std::size(kNames); ++i)
        figures.push_back({kNames[i], at == LatenessAt::Flat     ? ""
                                      : at == LatenessAt::Nested ? kNested[i]
                                                                 : kPerLoop[i]});
    figures.insert(figures.end(), others.begin(), others.end());
    return figures;
}

}  // namespace pullsched::rig
