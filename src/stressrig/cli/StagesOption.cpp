#include "cli/StagesOption.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "cli/ArgumentFile.hpp"
#include "cli/UnitParsing.hpp"
#include "cli/UsageError.hpp"
#include "format/Units.hpp"

namespace pullsched::rig {
namespace {

constexpr std::string_view kForm =
    "a stage is DURATION:RATE (hold) or DURATION:RATE->RATE (ramp), e.g. 30s:0->2k/s,1m:2k/s";

std::string_view trim(std::string_view s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string_view::npos) return {};
    return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

/// k6's `1m` is a minute; everything else as the rig's durations.
Duration stageDuration(std::string_view text) {
    std::string t(trim(text));
    if (t.size() > 1 && t.back() == 'm' &&
        std::isdigit(static_cast<unsigned char>(t[t.size() - 2])))
        t += "in";
    return parseDuration(t);
}

/// A rate that may be 0 (a ramp from or to nothing); the unit is checked either way.
double stageRate(std::string_view text) {
    const std::string t(trim(text));
    if (t.starts_with('-'))
        throw UnitError(fmt::format("invalid rate '{}': must not be negative", t));
    const auto numberEnd = t.find_first_not_of("0123456789.+eE");
    const std::string number = t.substr(0, numberEnd);
    const bool zero = number.find_first_of("0123456789") != std::string::npos &&
                      number.find_first_not_of("0.+") == std::string::npos;
    if (!zero) return parseRate(t);
    std::string one(1, '1');  // the unit must be one the rig knows
    one.append(t, number.size());
    parseRate(one);
    return 0;
}

RateStage parseStage(std::string_view text) {
    const auto colon = text.find(':');
    if (colon == std::string_view::npos)
        throw UnitError(fmt::format("'{}' has no ':'; {}", text, kForm));
    RateStage s;
    s.length = stageDuration(text.substr(0, colon));
    if (s.length <= Duration{0})
        throw UnitError(fmt::format("'{}': a stage lasts longer than 0", text));
    std::string_view rates = text.substr(colon + 1);
    std::size_t arrow = rates.find("->"), arrowLength = 2;
    if (arrow == std::string_view::npos) {
        arrow = rates.find("\u2192");
        arrowLength = std::string_view("\u2192").size();
    }
    s.fromRate = stageRate(rates.substr(0, arrow));
    s.toRate =
        arrow == std::string_view::npos ? s.fromRate : stageRate(rates.substr(arrow + arrowLength));
    return s;
}

}  // namespace

RateProfile parseStages(std::string_view spec) {
    std::vector<RateStage> stages;
    std::size_t index = 0;
    while (index <= spec.size()) {
        const auto comma = std::min(spec.find(',', index), spec.size());
        const std::string_view item = trim(spec.substr(index, comma - index));
        const std::size_t n = stages.size() + 1;
        if (item.empty())
            throw UsageError(fmt::format("invalid --stages='{}': stage {} is empty; {}",
                                         echoed(spec), n, kForm));
        try {
            stages.push_back(parseStage(item));
        } catch (const UnitError& e) {
            throw UsageError(fmt::format("invalid --stages: stage {}: {}", n, e.what()));
        }
        index = comma + 1;
    }
    try {
        return RateProfile(std::move(stages));
    } catch (const std::invalid_argument& e) {
        throw UsageError(fmt::format("invalid --stages='{}': {}", echoed(spec), e.what()));
    }
}

namespace {

/// The run the stages make is one --duration allows, with one job in it at least: a 1 ns
/// stage put one job into a measured span of 1 ns ("achieved 1000M/s").
RateProfile measurable(RateProfile profile, std::string_view spec) {
    const Duration d = profile.duration();
    if (d < kMinLoadDuration || d > kMaxLoadDuration)
        throw UsageError(
            fmt::format("invalid --stages='{}': the stages last {} in all; a load lasts {}..{}, as "
                        "--duration",
                        echoed(spec), Units::formatDuration(d, true),
                        Units::formatDuration(kMinLoadDuration, true),
                        Units::formatDuration(kMaxLoadDuration, true)));
    const long double jobs = profile.arrivalsBefore(d);
    if (jobs < 1)
        throw UsageError(fmt::format(
            "invalid --stages='{}': the stages offer {:.3g} jobs in all; they must offer one at "
            "least",
            echoed(spec), static_cast<double>(jobs)));
    return profile;
}

}  // namespace

RateProfile readStagesArgument(const std::string& text) {
    const std::string_view spec = trim(text);
    if (!spec.starts_with('@')) return measurable(parseStages(spec), spec);
    const std::filesystem::path file{std::string(spec.substr(1))};
    if (file.empty()) throw UsageError("invalid --stages=@: no file name after '@'");
    const std::string what = fmt::format("invalid --stages=@{}", echoed(file.string()));
    const std::string content = readArgumentFile(file, what, "a stages file", kMaxStagesFileBytes);
    std::string all;
    std::istringstream in(content);
    for (std::string line; std::getline(in, line);) {
        line = std::string(trim(line.substr(0, line.find('#'))));
        if (line.empty()) continue;
        all += (all.empty() ? "" : ",") + line;
    }
    if (all.empty()) throw UsageError(fmt::format("{}: the file holds no stages", what));
    try {
        return measurable(parseStages(all), all);
    } catch (const UsageError& e) {
        throw UsageError(fmt::format("{}: {}", what, e.what()));
    }
}

}  // namespace pullsched::rig
