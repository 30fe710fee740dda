#include "report/MetricCatalogue.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "format/SignificantDigits.hpp"
#include "format/Units.hpp"

namespace pullsched::rig {

namespace {

using enum Dimension;
constexpr Better kLower = Better::Lower;
constexpr Better kHigher = Better::Higher;
constexpr Better kNeither = Better::Neither;

// clang-format off
constexpr std::array kMetrics = {
    // lateness: how long after its start time a job started
    Metric{"lateness_p50", "lateness_p50_us", "lateness.p50_us", Duration, 1, kLower,
           "median lateness", "half of the jobs started at most this long after their start time", "p50 lateness"},
    Metric{"lateness_p90", "lateness_p90_us", "lateness.p90_us", Duration, 1, kLower,
           "p90 lateness", "90% of the jobs started at most this long after their start time", "p90 lateness"},
    Metric{"lateness_p99", "lateness_p99_us", "lateness.p99_us", Duration, 1, kLower,
           "p99 lateness", "99% of the jobs started at most this long after their start time "
           "(n/a below 100 samples)", "p99 lateness"},
    Metric{"lateness_p99_9", "lateness_p99_9_us", "lateness.p99_9_us", Duration, 1, kLower,
           "p99.9 lateness", "99.9% of the jobs started at most this long after their start "
           "time (n/a below 1000 samples)", "p99.9 lateness"},
    Metric{"lateness_max", "lateness_max_us", "lateness.max_us", Duration, 1, kLower,
           "largest lateness", "the latest start of any measured job after its start time", "max lateness"},
    Metric{"lateness_mean", "lateness_mean_us", "lateness.mean_us", Duration, 1, kLower,
           "mean lateness", "the mean delay of a job's start after its start time"},
    // scheduled graph runs
    Metric{"efficiency", "efficiency", "", Ratio, 1, kHigher, "efficiency",
           "the graph's lower bound over its measured run time (1 = as fast as its schedule)"},
    Metric{"runtime", "runtime_ms", "", Duration, 1000, kLower, "run time",
           "time of one run of the graph, first start to last finish (mean of the reps)",
           "runtime"},
    Metric{"past_deadline", "past_deadline", "", Count, 1, kLower, "past deadline",
           "jobs of the measured reps that ended after their deadline (scheduled start + life "
           "window), read from their end times (a job that never ran has none)"},
    Metric{"breaking_stress", "breaking_stress", "", Ratio, 1, kHigher, "breaking stress",
           "the stress factor at which the schedule breaks (higher = more headroom)"},
    Metric{"breaking_to_ideal", "breaking_to_ideal", "", Ratio, 1, kHigher,
           "breaking stress / ideal",
           "the breaking stress over an ideal scheduler's on this machine (1 = ideal)"},
    Metric{"breaking_to_limit", "breaking_to_limit", "", Ratio, 1, kHigher,
           "breaking stress / limit", "the breaking stress over the schedule's own limit"},
    Metric{"gradient", "gradient_ms_per_job", "", Duration, 1000, kLower, "time per job",
           "run time added per job of load size (the fitted gradient)"},
    Metric{"correlation", "correlation", "", Ratio, 1, kNeither, "correlation",
           "how closely run time follows load size (Pearson r)"},
    // what became of the jobs: one name per count in every mode
    Metric{"jobs_posted", "jobs_posted", "", Count, 1, kNeither, "jobs posted",
           "jobs handed to the backend (a graph run: its nodes in every rep)"},
    Metric{"jobs_completed", "jobs_completed", "", Count, 1, kHigher, "jobs completed",
           "jobs whose body ran to its end"},
    Metric{"jobs_measured", "jobs_measured", "", Count, 1, kNeither, "jobs measured",
           "jobs of the measured span (after the warm-up), the ones the lateness is of"},
    Metric{"jobs_expired", "jobs_expired", "", Count, 1, kLower, "jobs expired",
           "jobs dropped unstarted because they could not start within their deadline window"},
    Metric{"jobs_failed", "jobs_failed", "", Count, 1, kLower, "jobs failed",
           "jobs whose body threw"},
    Metric{"jobs_cancelled", "jobs_cancelled", "", Count, 1, kLower, "jobs cancelled",
           "jobs that never started because they were cancelled (a predecessor expired, or "
           "the run was stopped)"},
    Metric{"jobs_lost", "jobs_lost", "", Count, 1, kLower, "jobs lost",
           "jobs that never ran although nothing expired or cancelled them (a correct "
           "backend: 0)"},
    Metric{"jobs_repeated", "jobs_repeated", "", Count, 1, kLower, "jobs repeated",
           "jobs that ran more than once (a graph run: posted more than once; a correct "
           "backend: 0)"},
    // open and closed load
    Metric{"throughput", "achieved_rate_per_s", "trend.mean_throughput_per_s", Rate, 1, kHigher, "throughput",
           "jobs completed per second in the measured span", "achieved rate"},
    Metric{"offered_rate", "offered_rate_per_s", "", Rate, 1, kNeither, "offered rate",
           "jobs per second the load generator was asked to post"},
    Metric{"drop_rate", "drop_rate", "verdict.drop_fraction", Ratio, 1, kLower, "drop rate",
           "jobs_expired / jobs_posted: share of the posted jobs dropped because they could "
           "not start within their deadline window"},
    Metric{"late_rate", "late_rate", "verdict.late_fraction", Ratio, 1, kLower, "late rate",
           "share of the jobs that started later than the lateness limit"},
    Metric{"late_starts", "late_starts", "", Count, 1, kLower, "late starts",
           "jobs that started later than the lateness limit"},
    Metric{"max_backlog", "max_backlog", "", Count, 1, kLower, "largest backlog",
           "most jobs due but not started at one time", "max backlog"},
    Metric{"rss_max", "rss_max_mib", "", Memory, 1, kLower, "peak memory",
           "largest resident set size of the process", "rss max"},
    // soak
    Metric{"rss_trend", "rss_trend", "trend.memory_mib_per_hour.slope", MemoryGrowth, 1, kLower,
           "memory trend", "growth of the resident set size per hour, fitted over the "
           "intervals (near 0 = no leak)"},
    // sweep and headroom
    Metric{"highest_stable_rate", "highest_stable_per_s", "", Rate, 1, kHigher,
           "highest stable rate", "highest offered rate a worker count kept without failing"},
    Metric{"first_failure_rate", "first_failure_per_s", "", Rate, 1, kHigher,
           "first failing rate", "lowest offered rate at which a step failed"},
    Metric{"steps_run", "steps_run", "", Count, 1, kNeither, "steps run",
           "rate steps measured for a worker count (the rest skipped past a failure)"},
    Metric{"max_sustained_rate", "max_sustained_rate_per_s", "", Rate, 1, kHigher,
           "highest sustained rate", "highest offered rate sustained within the lateness bound"},
    Metric{"max_sustained_capacity", "max_sustained_capacity_percent", "", Percent, 1, kHigher,
           "highest sustained load", "that rate in percent of the nominal capacity"},
    Metric{"capacity", "capacity_per_s", "", Rate, 1, kNeither, "nominal capacity",
           "jobs per second the workers could run back to back"},
    // granularity
    Metric{"metg", "metg_us", "", Duration, 1, kLower, "METG",
           "minimum effective task granularity: the smallest job size reaching the efficiency "
           "threshold", "metg"},
    Metric{"runs_verified", "runs_verified", "", Count, 1, kHigher, "verified runs",
           "runs in which every job ran exactly once with the expected hash"},
    // spawn: work that jobs create
    Metric{"time_per_call", "ns_per_call_median", "", Duration, 0.001, kLower, "time per call",
           "median run of a recursion over its calls: what one job spawned from a job costs",
           "median time per call"},
    Metric{"vs_tbb", "vs_reference", "", Ratio, 1, kLower, "ratio to oneTBB",
           "time per call over oneTBB's on as many threads", "vs tbb"},
    Metric{"speed_up", "speed_up", "", Ratio, 1, kHigher, "speed-up",
           "time per call on the first worker count over the time per call here"},
    // pipeclean
    Metric{"failures", "failures", "", Count, 1, kLower, "failed patterns",
           "patterns whose run failed"},
    Metric{"late", "late", "", Count, 1, kLower, "late patterns",
           "patterns that ran but missed their schedule"},
    // topology
    Metric{"nodes", "nodes", "", Count, 1, kNeither, "nodes", "jobs in the graph"},
    Metric{"levels", "levels", "", Count, 1, kNeither, "levels", "levels of the graph"},
    Metric{"edges", "edges", "", Count, 1, kNeither, "edges", "dependencies in the graph"},
    Metric{"max_width", "max_width", "", Count, 1, kNeither, "largest width",
           "most jobs on one level"},
    Metric{"critical_path", "critical_path_ms", "", Duration, 1000, kNeither, "critical path",
           "the longest chain of work through the graph"},
    Metric{"work", "work_ms", "", Duration, 1000, kNeither, "total work",
           "the work of every job of the graph together"},
    // compare
    Metric{"beyond_noise", "beyond_noise", "", Count, 1, kLower, "changes beyond the noise",
           "compared figures whose difference is beyond the noise"},
    Metric{"within_noise", "within_noise", "", Count, 1, kNeither, "changes within the noise",
           "compared figures whose difference is within the noise"},
};
// clang-format on

bool endsWithSegment(std::string_view path, std::string_view key, std::string& qualifier) {
    if (key.empty() || path.size() < key.size()) return false;
    if (path.substr(path.size() - key.size()) != key) return false;
    const std::size_t rest = path.size() - key.size();
    if (rest != 0 && path[rest - 1] != '.') return false;
    qualifier = std::string(path.substr(0, rest == 0 ? 0 : rest - 1));
    return true;
}

}  // namespace

std::span<const Metric> MetricCatalogue::all() {
    return kMetrics;
}

const Metric* MetricCatalogue::find(std::string_view name) {
    for (const Metric& m : kMetrics)
        if (m.name == name || m.key == name) return &m;
    return nullptr;
}

const Metric* MetricCatalogue::forPath(std::string_view path, std::string& qualifier) {
    for (const Metric& m : kMetrics)
        if (endsWithSegment(path, m.key, qualifier) ||
            endsWithSegment(path, m.nestedKey, qualifier))
            return &m;
    return nullptr;
}

std::string_view MetricCatalogue::jsonUnit(const Metric& m) {
    switch (m.dimension) {
        case Duration:
            return m.toBase == 1000 ? "ms" : m.toBase == 0.001 ? "ns" : "µs";
        case Rate:
            return "/s";
        case Percent:
            return "%";
        case Memory:
            return "MiB";
        case MemoryGrowth:
            return "MiB/h";
        case Ratio:
        case Count:
            return "";
    }
    return "";
}

std::string MetricCatalogue::format(const Metric& m, double jsonValue) {
    if (!std::isfinite(jsonValue)) return "n/a";
    const double base = jsonValue * m.toBase;
    switch (m.dimension) {
        case Duration:
            return Units::formatDuration(std::chrono::nanoseconds(std::llround(base * 1000)));
        case Rate:
            return Units::formatRate(base);
        case Percent:
            return formatSignificant(base, 3) + "%";
        case Memory:
            return formatSignificant(base, 3) + " MiB";
        case MemoryGrowth:
            return formatSignificant(base, 3) + " MiB/h";
        case Count:
            return fmt::format("{:.0f}", base);
        case Ratio:
            return formatSignificant(base, 3);
    }
    return "n/a";
}

std::string_view MetricCatalogue::csvUnit(const Metric& m) {
    switch (m.dimension) {
        case Duration:
            return m.toBase == 1000 ? "ms" : m.toBase == 0.001 ? "ns" : "us";
        case Rate:
            return "per s";
        case Percent:
            return "%";
        case Memory:
            return "MiB";
        case MemoryGrowth:
            return "MiB per h";
        case Ratio:
        case Count:
            return "";
    }
    return "";
}

std::string MetricCatalogue::csvHeader(const Metric& m) {
    std::string header(m.csvWords.empty() ? m.label : m.csvWords);
    const std::string_view unit = csvUnit(m);
    return unit.empty() ? header : header + " " + std::string(unit);
}

std::string MetricCatalogue::csvHeader(std::string_view name) {
    const Metric* m = find(name);
    if (m == nullptr)
        throw std::logic_error(fmt::format("no figure '{}' in the metric catalogue", name));
    return csvHeader(*m);
}

MetricRange MetricCatalogue::range(const Metric& m) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    if (m.name == "gradient" || m.name == "rss_trend") return {-kInf, kInf};
    if (m.name == "correlation") return {-1, 1};
    if (m.name == "drop_rate" || m.name == "late_rate") return {0, 1};
    return {0, kInf};
}

std::string_view MetricCatalogue::unitsOf(Dimension d) {
    switch (d) {
        case Duration:
            return "ns, us, ms, s, min, h";
        case Rate:
            return "/s, k/s, /ms, /min, Hz, kHz or a plain number per second";
        case Ratio:
            return "a plain number, x or %";
        case Percent:
            return "%";
        case Count:
            return "a plain number";
        case Memory:
            return "KiB, MiB, GiB";
        case MemoryGrowth:
            return "KiB/h, MiB/h, GiB/h";
    }
    return "";
}

std::string_view MetricCatalogue::nameOf(Dimension d) {
    switch (d) {
        case Duration:
            return "a duration";
        case Rate:
            return "a rate";
        case Ratio:
            return "a ratio";
        case Percent:
            return "a percentage";
        case Count:
            return "a count";
        case Memory:
            return "a memory size";
        case MemoryGrowth:
            return "a memory growth";
    }
    return "";
}

}  // namespace pullsched::rig
