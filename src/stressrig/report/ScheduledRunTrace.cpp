#include "report/ScheduledRunTrace.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

namespace pullsched::rig {

using testchain::JobTiming;

namespace {

constexpr int kPid = 1;

double micros(std::chrono::nanoseconds d) {
    return static_cast<double>(d.count()) / 1e3;
}

nlohmann::json threadName(unsigned tid, const std::string& name, int sortIndex) {
    return nlohmann::json::array({{{"ph", "M"},
                                   {"name", "thread_name"},
                                   {"pid", kPid},
                                   {"tid", tid},
                                   {"args", {{"name", name}}}},
                                  {{"ph", "M"},
                                   {"name", "thread_sort_index"},
                                   {"pid", kPid},
                                   {"tid", tid},
                                   {"args", {{"sort_index", sortIndex}}}}});
}

}  // namespace

ScheduledRunTrace::ScheduledRunTrace(std::string title, unsigned workers, std::string track)
    : title_(std::move(title)), workers_(workers), track_(std::move(track)) {}

void ScheduledRunTrace::setMetadata(const std::string& key, nlohmann::json value) {
    metadata_[key] = std::move(value);
}

void ScheduledRunTrace::addRep(unsigned rep, const testchain::RunResult& run,
                               const std::function<int(std::size_t)>& workerOf,
                               const std::string& label) {
    if (!hasOrigin_) {
        origin_ = run.anchor;
        hasOrigin_ = true;
    }
    ++reps_;
    const double base = micros(run.anchor - origin_);
    std::chrono::nanoseconds last = run.runTime;
    for (const JobTiming& j : run.jobs) {
        nlohmann::json args = {{"rep", rep},
                               {"node", j.node},
                               {"level", j.level},
                               {"weight", j.weight},
                               {"state", j.posted ? std::string(toString(j.state)) : "not posted"},
                               {"scheduled_us", base + micros(j.scheduledStart)}};
        ++jobs_;
        if (j.ran()) {
            last = std::max(last, j.end);
            args["lateness_us"] = micros(j.lateness());
            const int w = workerOf(j.node);
            events_.push_back({{"ph", "X"},
                               {"name", fmt::format("node {}", j.node)},
                               {"cat", std::string(toString(j.state))},
                               {"pid", kPid},
                               {"tid", w < 0 ? notRunTrack() : static_cast<unsigned>(w)},
                               {"ts", base + micros(j.actualStart)},
                               {"dur", micros(std::max(j.runTime(), std::chrono::nanoseconds{0}))},
                               {"args", std::move(args)}});
        } else {
            last = std::max(last, j.scheduledStart);
            events_.push_back(
                {{"ph", "i"},
                 {"s", "t"},
                 {"name", fmt::format("node {} {}", j.node, args["state"].get<std::string>())},
                 {"cat", args["state"]},
                 {"pid", kPid},
                 {"tid", notRunTrack()},
                 {"ts", base + micros(j.scheduledStart)},
                 {"args", std::move(args)}});
        }
    }
    events_.push_back({{"ph", "X"},
                       {"name", label.empty() ? fmt::format("rep {}", rep) : label},
                       {"cat", "rep"},
                       {"pid", kPid},
                       {"tid", repTrack()},
                       {"ts", base},
                       {"dur", micros(last)},
                       {"args",
                        {{"rep", rep},
                         {"jobs_completed", run.completedJobs},
                         {"jobs_expired", run.expired},
                         {"jobs_cancelled", run.cancelled},
                         {"jobs_failed", run.failed},
                         {"timed_out", run.timedOut}}}});
}

nlohmann::json ScheduledRunTrace::toJson() const {
    nlohmann::json events = nlohmann::json::array();
    events.push_back({{"ph", "M"},
                      {"name", "process_name"},
                      {"pid", kPid},
                      {"tid", 0},
                      {"args", {{"name", title_}}}});
    for (const nlohmann::json& e : threadName(repTrack(), "reps", -1))
        events.push_back(e);
    for (unsigned w = 0; w < workers_; ++w)
        for (const nlohmann::json& e :
             threadName(w, fmt::format("{} {}", track_, w), static_cast<int>(w)))
            events.push_back(e);
    for (const nlohmann::json& e :
         threadName(notRunTrack(), "not run (expired, cancelled)", static_cast<int>(workers_)))
        events.push_back(e);
    // in time order, as a reader scanning the file expects (jobs were added node by node)
    std::vector<const nlohmann::json*> order;
    order.reserve(events_.size());
    for (const nlohmann::json& e : events_)
        order.push_back(&e);
    std::stable_sort(order.begin(), order.end(),
                     [](const nlohmann::json* a, const nlohmann::json* b) {
                         return a->at("ts").get<double>() < b->at("ts").get<double>();
                     });
    for (const nlohmann::json* e : order)
        events.push_back(*e);
    return {
        {"traceEvents", std::move(events)}, {"displayTimeUnit", "ms"}, {"otherData", metadata_}};
}

}  // namespace pullsched::rig
