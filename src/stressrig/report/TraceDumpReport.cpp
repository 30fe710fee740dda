#include "report/TraceDumpReport.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace pullsched::rig {

namespace {

/// What the pictures draw: bars (from an event to a later one on the same worker) and
/// marks (instants). Kinds are numbered for the Gnuplot data (column "kind").
enum Kind : int {
    kJob = 1,
    kToken = 2,
    kSleep = 3,
    kParked = 4,
    kBackoff = 5,
    kContended = 6,
    kGateNotify = 7,
    kExpired = 8,
};

struct Shape {
    double startUs, endUs;
    unsigned lane;
    int kind;
    std::int64_t detail;
};

const char* kindName(int k) {
    switch (k) {
        case kJob:
            return "job";
        case kToken:
            return "token held";
        case kSleep:
            return "sleep";
        case kParked:
            return "parked";
        case kBackoff:
            return "backoff";
        case kContended:
            return "token contended";
        case kGateNotify:
            return "gate notify";
        case kExpired:
            return "expired";
    }
    return "?";
}

/// Bars open at one event of a worker and close at its next event (a job, a sleep, a
/// backoff), or at a matching event (token dropped, wake). Marks are instants.
std::vector<Shape> shapesOf(const std::vector<TraceDumpEvent>& events, unsigned lanes) {
    std::vector<Shape> out;
    struct Open {
        std::optional<std::size_t> untilNext;  ///< shape closed by the worker's next event
        std::optional<std::size_t> token, park;
    };
    std::vector<Open> open(lanes);
    for (const TraceDumpEvent& e : events) {
        Open& o = open[e.worker];
        if (o.untilNext) {
            out[*o.untilNext].endUs = e.timeUs;
            o.untilNext.reset();
        }
        auto bar = [&](int kind) {
            out.push_back({e.timeUs, e.timeUs, e.worker, kind, e.detail});
            return out.size() - 1;
        };
        if (e.event == "dispatch" || e.event == "continuation") {
            o.untilNext = bar(kJob);
        } else if (e.event == "sleep") {
            o.untilNext = bar(kSleep);
        } else if (e.event == "backoff") {
            o.untilNext = bar(kBackoff);
        } else if (e.event == "token-acquired") {
            o.token = bar(kToken);
        } else if (e.event == "token-dropped") {
            if (o.token) out[*o.token].endUs = e.timeUs;
            o.token.reset();
        } else if (e.event == "park") {
            o.park = bar(kParked);
        } else if (e.event == "wake") {
            if (o.park) out[*o.park].endUs = e.timeUs;
            o.park.reset();
        } else if (e.event == "token-contended") {
            bar(kContended);
        } else if (e.event == "gate-notify") {
            bar(kGateNotify);
        } else if (e.event == "expired") {
            bar(kExpired);
        }
    }
    return out;
}

}  // namespace

TraceDump TraceDump::parse(std::istream& in) {
    TraceDump d;
    std::size_t lineNo = 0;
    for (std::string line; std::getline(in, line);) {
        ++lineNo;
        if (line.empty()) continue;
        if (line[0] == '#') {
            const auto at = line.find(" events, ");
            if (at != std::string::npos) {
                unsigned long long dropped = 0;
                if (std::sscanf(line.c_str() + at, " events, %llu dropped", &dropped) == 1)
                    d.dropped_ = dropped;
            }
            continue;
        }
        std::istringstream ls(line);
        TraceDumpEvent e;
        std::string worker, detail;
        bool ok = static_cast<bool>(ls >> e.timeUs >> worker >> e.event >> detail) &&
                  worker.size() >= 2 && worker[0] == 'w';
        // Job tags are unsigned 64-bit (planning jobs set the top bit); other details signed.
        if (ok) {
            try {
                std::size_t used = 0;
                e.detail = detail[0] == '-' ? std::stoll(detail, &used)
                                            : static_cast<std::int64_t>(std::stoull(detail, &used));
                ok = used == detail.size();
            } catch (const std::exception&) {
                ok = false;
            }
        }
        if (!ok)
            throw std::runtime_error(fmt::format(
                "trace dump line {}: expected '<time us> w<worker> <event> <detail>', got '{}'",
                lineNo, line));
        try {
            e.worker = static_cast<unsigned>(std::stoul(worker.substr(1)));
        } catch (const std::exception&) {
            throw std::runtime_error(
                fmt::format("trace dump line {}: bad worker '{}'", lineNo, worker));
        }
        d.lanes_ = std::max(d.lanes_, e.worker + 1);
        d.events_.push_back(std::move(e));
    }
    return d;
}

TraceDump TraceDump::parse(const std::string& text) {
    std::istringstream in(text);
    return parse(in);
}

std::map<std::string, std::size_t> TraceDump::counts() const {
    std::map<std::string, std::size_t> c;
    for (const TraceDumpEvent& e : events_)
        ++c[e.event];
    return c;
}

bool TraceDump::timeOrdered() const noexcept {
    return std::is_sorted(events_.begin(), events_.end(),
                          [](const auto& a, const auto& b) { return a.timeUs < b.timeUs; });
}

GnuplotScript TraceDump::lanesPlot(const std::string& title) const {
    CsvTable t({"start us", "end us", "lane", "kind", "detail"});
    for (const Shape& s : shapesOf(events_, lanes_))
        t.addRow({s.startUs, s.endUs, static_cast<double>(s.lane), static_cast<double>(s.kind),
                  static_cast<double>(s.detail)});
    PlotOptions o;
    o.title = title;
    o.width = 1600;
    o.height = std::max(400, 160 * static_cast<int>(lanes_) + 200);
    std::string c;
    c += fmt::format("set title {}\n", GnuplotScript::kTitle);
    c += "set xlabel 'time since the first event [µs]'\nset ylabel 'worker'\n";
    c += fmt::format("set yrange [-0.7:{}]\n", lanes_ > 0 ? lanes_ - 0.3 : 0.7);
    c += "set ytics (";
    for (unsigned w = 0; w < lanes_; ++w)
        c += fmt::format("{}'w{}' {}", w ? ", " : "", w, w);
    c += ")\nset grid xtics\nset key outside right top box\n";
    // bars: each kind at its own offset within the worker's lane
    struct Bar {
        int kind;
        double offset;
        const char* colour;
        int width;
    };
    const Bar bars[] = {{kJob, 0.0, "#2e7d32", 10},
                        {kToken, 0.28, "#1565c0", 5},
                        {kSleep, -0.28, "#9e9e9e", 5},
                        {kParked, -0.28, "#424242", 5},
                        {kBackoff, 0.4, "#ef6c00", 4}};
    std::vector<std::string> parts;
    for (const Bar& b : bars)
        parts.push_back(fmt::format(
            "$RunData using 1:($4=={} ? $3+({}) : 1/0):($2-$1):(0) with vectors nohead lw {} "
            "lc rgb '{}' title '{}'",
            b.kind, b.offset, b.width, b.colour, kindName(b.kind)));
    struct Mark {
        int kind;
        double offset;
        int pt;
        const char* colour;
    };
    const Mark marks[] = {{kContended, 0.28, 2, "#c62828"},
                          {kGateNotify, 0.12, 7, "#6a1b9a"},
                          {kExpired, 0.0, 9, "#000000"}};
    for (const Mark& m : marks)
        parts.push_back(fmt::format(
            "$RunData using 1:($4=={} ? $3+({}) : 1/0) with points pt {} ps 1.2 lc rgb '{}' "
            "title '{}'",
            m.kind, m.offset, m.pt, m.colour, kindName(m.kind)));
    c += "plot ";
    for (std::size_t i = 0; i < parts.size(); ++i)
        c += (i ? ", \\\n     " : "") + parts[i];
    c += "\n";
    return GnuplotScript::custom(t, std::move(c), std::move(o));
}

std::string TraceDump::chromeTrace() const {
    nlohmann::json events = nlohmann::json::array();
    for (unsigned w = 0; w < lanes_; ++w)
        events.push_back({{"ph", "M"},
                          {"pid", 1},
                          {"tid", w},
                          {"name", "thread_name"},
                          {"args", {{"name", fmt::format("worker {}", w)}}}});
    for (const Shape& s : shapesOf(events_, lanes_)) {
        nlohmann::json e{{"pid", 1},           {"tid", s.lane},
                         {"ts", s.startUs},    {"name", kindName(s.kind)},
                         {"cat", "scheduler"}, {"args", {{"detail", s.detail}}}};
        if (s.kind >= kContended) {
            e["ph"] = "i";
            e["s"] = "t";
        } else {
            e["ph"] = "X";
            e["dur"] = std::max(0.0, s.endUs - s.startUs);
        }
        events.push_back(std::move(e));
    }
    return nlohmann::json{{"traceEvents", events}, {"displayTimeUnit", "ns"}}.dump() + "\n";
}

}  // namespace pullsched::rig
