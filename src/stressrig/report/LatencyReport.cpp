#include "report/LatencyReport.hpp"

#include <chrono>

#include <fmt/format.h>

#include "report/TextFormat.hpp"

namespace pullsched::rig {

namespace {

struct Level {
    double p;
    const char* text;
    const char* key;
};
constexpr Level kLevels[] = {{50, "p50", "p50_us"},
                             {90, "p90", "p90_us"},
                             {99, "p99", "p99_us"},
                             {99.9, "p99.9", "p99_9_us"}};

}  // namespace

std::string percentileLine(const LatencyHistogram& h) {
    if (h.count() == 0) return "no samples";
    std::string s;
    for (const Level& l : kLevels)
        if (percentileSupported(l.p, h.count()))
            s += fmt::format("{} {}  ", l.text,
                             durationText(std::chrono::nanoseconds{h.percentile(l.p)}));
    // the mean as the JSON's mean_us holds it, rounded to the nanosecond as the page's
    // figure is: text and page show the same number
    s += fmt::format("max {}  (mean {}, n={})", durationText(std::chrono::nanoseconds{h.max()}),
                     usText(h.mean() / 1e3), h.count());
    return s;
}

nlohmann::json histogramJson(const LatencyHistogram& h) {
    nlohmann::json j;
    j["count"] = h.count();
    const bool any = h.count() > 0;
    j["mean_us"] = any ? nlohmann::json(h.mean() / 1e3) : nlohmann::json(nullptr);
    for (const Level& l : kLevels)
        j[l.key] = percentileSupported(l.p, h.count())
                       ? nlohmann::json(static_cast<double>(h.percentile(l.p)) / 1e3)
                       : nlohmann::json(nullptr);
    j["max_us"] =
        any ? nlohmann::json(static_cast<double>(h.max()) / 1e3) : nlohmann::json(nullptr);
    return j;
}

}  // namespace pullsched::rig
