#include "report/ChromeTrace.hpp"

#include <algorithm>
#include <fstream>
#include <ostream>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

namespace pullsched::rig {
namespace {

double micros(std::chrono::nanoseconds d) {
    return static_cast<double>(d.count()) / 1e3;
}

}  // namespace

ChromeTrace::ChromeTrace(std::string processName, int pid)
    : processName_(std::move(processName)), pid_(pid) {}

void ChromeTrace::add(const MeasuredJob& job) {
    jobs_.push_back(job);
}

void ChromeTrace::add(std::span<const MeasuredJob> jobs) {
    jobs_.insert(jobs_.end(), jobs.begin(), jobs.end());
}

void ChromeTrace::setMetadata(const std::string& key, const std::string& value) {
    metadata_[key] = value;
}

ChromeTrace::TimePoint ChromeTrace::origin() const {
    if (hasOrigin_ || jobs_.empty()) return origin_;
    TimePoint o = std::min(jobs_.front().scheduledStart, jobs_.front().actualStart);
    for (const MeasuredJob& j : jobs_)
        o = std::min({o, j.scheduledStart, j.actualStart});
    return o;
}

nlohmann::json ChromeTrace::toJson() const {
    using nlohmann::json;
    const TimePoint zero = origin();

    json events = json::array();
    events.push_back({{"ph", "M"},
                      {"name", "process_name"},
                      {"pid", pid_},
                      {"tid", 0},
                      {"args", {{"name", processName_}}}});
    std::set<unsigned> workers;
    for (const MeasuredJob& j : jobs_)
        workers.insert(j.worker);
    for (unsigned w : workers) {
        events.push_back({{"ph", "M"},
                          {"name", "thread_name"},
                          {"pid", pid_},
                          {"tid", w},
                          {"args", {{"name", fmt::format("worker {}", w)}}}});
        events.push_back({{"ph", "M"},
                          {"name", "thread_sort_index"},
                          {"pid", pid_},
                          {"tid", w},
                          {"args", {{"sort_index", w}}}});
    }

    std::vector<const MeasuredJob*> order;
    order.reserve(jobs_.size());
    for (const MeasuredJob& j : jobs_)
        order.push_back(&j);
    std::stable_sort(order.begin(), order.end(), [](const MeasuredJob* a, const MeasuredJob* b) {
        return a->actualStart != b->actualStart ? a->actualStart < b->actualStart
                                                : a->worker < b->worker;
    });
    for (const MeasuredJob* j : order) {
        events.push_back({{"ph", "X"},
                          {"name", j->name.empty() ? std::string("job") : j->name},
                          {"cat", "job"},
                          {"pid", pid_},
                          {"tid", j->worker},
                          {"ts", micros(j->actualStart - zero)},
                          {"dur", micros(std::max(j->runTime(), std::chrono::nanoseconds{0}))},
                          {"args",
                           {{"id", j->id},
                            {"scheduled_us", micros(j->scheduledStart - zero)},
                            {"lateness_us", micros(j->lateness())}}}});
    }
    return json{
        {"traceEvents", std::move(events)}, {"displayTimeUnit", "ms"}, {"otherData", metadata_}};
}

void ChromeTrace::write(std::ostream& out) const {
    out << toJson().dump() << '\n';
}

void ChromeTrace::writeFile(const std::filesystem::path& file) const {
    std::ofstream out(file);
    if (!out) throw std::runtime_error(fmt::format("cannot write trace file {}", file.string()));
    write(out);
    out.flush();
    if (!out) throw std::runtime_error(fmt::format("error writing trace file {}", file.string()));
}

}  // namespace pullsched::rig
