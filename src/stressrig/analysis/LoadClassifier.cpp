#include "analysis/LoadClassifier.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "format/Units.hpp"

namespace pullsched::rig {

std::string_view toString(LoadClass c) noexcept {
    switch (c) {
        case LoadClass::Stable:
            return "stable";
        case LoadClass::Burst:
            return "burst";
        case LoadClass::Failure:
            return "failure";
    }
    return "?";
}

StepVerdict LoadClassifier::classify(const StepMeasurement& s) const {
    const ClassifierLimits& L = limits_;
    auto verdict = [](LoadClass c, std::string why) { return StepVerdict{c, std::move(why)}; };

    if (s.failures > L.maxFailures)
        return verdict(LoadClass::Failure,
                       fmt::format("{} failed jobs > {}", s.failures, L.maxFailures));
    auto dropsOver = [&s](double fraction) {
        return s.jobs > 0 ? static_cast<double>(s.drops) > fraction * static_cast<double>(s.jobs)
                          : s.drops > 0;
    };
    const double failFraction = std::max(L.dropFraction, L.dropThreshold);
    if (dropsOver(failFraction))
        return verdict(LoadClass::Failure, fmt::format("{} drops of {} jobs > {:g}%", s.drops,
                                                       s.jobs, 100 * failFraction));
    if (s.drained.has_value()) {
        if (!*s.drained) return verdict(LoadClass::Failure, "backlog did not drain");
    } else if (s.backlogAfterDrain.has_value()) {
        if (*s.backlogAfterDrain > L.backlogBound)
            return verdict(LoadClass::Failure, fmt::format("backlog {:g} after drain > bound {:g}",
                                                           *s.backlogAfterDrain, L.backlogBound));
    } else if (s.backlogEnd > L.backlogBound && s.backlogEnd > s.backlogStart) {
        return verdict(LoadClass::Failure,
                       fmt::format("backlog grew {:g} → {:g} > bound {:g} (no drain measured)",
                                   s.backlogStart, s.backlogEnd, L.backlogBound));
    }

    std::vector<std::string> why;
    if (std::isnan(s.achievedRate))
        why.push_back("achieved rate not measured");
    else if (s.achievedRate < L.keepUpRatio * s.offeredRate)
        why.push_back(fmt::format("achieved {:g}/s < {:g}·offered {:g}/s", s.achievedRate,
                                  L.keepUpRatio, s.offeredRate));
    if (s.backlogEnd > L.backlogBound)
        why.push_back(fmt::format("backlog {:g} > bound {:g}", s.backlogEnd, L.backlogBound));
    if (!s.latenessP99)
        why.push_back("no lateness measured");
    else if (*s.latenessP99 > L.latenessLimit)
        why.push_back(fmt::format(
            "{} {} > {}",
            s.latenessSamples && *s.latenessSamples < 100
                ? fmt::format("max lateness (n={}, too few for a p99)", *s.latenessSamples)
                : std::string("p99 lateness"),
            Units::formatDuration(*s.latenessP99), Units::formatDuration(L.latenessLimit)));
    if (dropsOver(L.dropThreshold))
        why.push_back(
            fmt::format("{} drops of {} jobs > {:g}%", s.drops, s.jobs, 100 * L.dropThreshold));
    if (why.empty()) return verdict(LoadClass::Stable, "within all limits");
    return verdict(LoadClass::Burst, fmt::format("{}; backlog drains", fmt::join(why, ", ")));
}

SweepSummary LoadClassifier::summarize(std::span<const StepMeasurement> steps) const {
    std::vector<std::pair<double, LoadClass>> byRate;
    byRate.reserve(steps.size());
    for (const StepMeasurement& s : steps)
        byRate.emplace_back(s.offeredRate, classify(s).loadClass);
    std::stable_sort(byRate.begin(), byRate.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });

    SweepSummary sum;
    for (const auto& [rate, cls] : byRate) {
        if (sum.firstFailure) {
            if (cls != LoadClass::Failure) sum.consistent = false;
            continue;
        }
        switch (cls) {
            case LoadClass::Stable:
                if (sum.highestBurst) sum.consistent = false;
                sum.highestStable = rate;
                break;
            case LoadClass::Burst:
                sum.highestBurst = rate;
                break;
            case LoadClass::Failure:
                sum.firstFailure = rate;
                break;
        }
    }
    return sum;
}

std::string achievedAboveOfferedNote(std::span<const StepMeasurement> steps,
                                     std::span<const unsigned> workers, bool randomArrivals) {
    std::vector<std::string> above;
    for (std::size_t i = 0; i < steps.size() && i < workers.size(); ++i)
        if (steps[i].achievedRate > steps[i].offeredRate)  // a missing (NaN) rate never is
            above.push_back(
                fmt::format("{} at {} W", Units::formatRate(steps[i].offeredRate), workers[i]));
    if (above.empty()) return {};
    return fmt::format(
        "note: achieved above offered ({}): achieved counts the jobs completed in the measured "
        "interval, including a backlog left from the warm-up{}",
        fmt::join(above, ", "), randomArrivals ? ", and random arrivals exceed their mean" : "");
}

}  // namespace pullsched::rig
