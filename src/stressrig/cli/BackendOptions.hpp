#pragma once
// Which schedulers run the mode's graphs: --backends (pullsched alone by default), the
// untimed warm-up runs each backend gets before its measured ones, and what the chosen
// backends can do (BackendInfo's capabilities), which decides what a mode may ask of them.

#include <chrono>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "format/Units.hpp"

#include "backends/BackendRegistry.hpp"
#include "cli/OptionTable.hpp"
#include "cli/UsageError.hpp"

namespace pullsched::rig {

struct BackendOptions {
    std::string backends{BackendRegistry::kDefault};
    unsigned warmup = 1;
    /// The names --backends accepts and "all" stands for: the backends, or, for
    /// --mode=spawn, BackendRegistry::parseRecursionList (the backends and their further
    /// recursion idioms).
    std::vector<std::string> (*parse)(std::string_view) = &BackendRegistry::parseList;

    void declare(OptionTable& t) {
        t.group("Backends");
        std::string help =
            "schedulers that run the same graph with the same job bodies and workers, "
            "comma-separated, or all:";
        for (const BackendInfo& b : BackendRegistry::all()) {
            help += b.name == BackendRegistry::all().front().name ? " " : ", ";
            help += b.name;
            help += " (";
            help += graphStartTimesName(b.startTimes);
            help += " start times)";
        }
        help +=
            ". wait-in-job: the job sleeps, then spins until its start, holding its thread; "
            "that wait is reported as start wait";
        declareList(t, std::move(help));
        t.count("backend-warmup", warmup, 0, 100,
                "runs per backend before its measured ones (per probe or point in a series), "
                "not counted");
    }

    /// --backends alone, with a mode's own help (a mode that has no warm-up runs).
    void declareList(OptionTable& t, std::string help) {
        t.text("backends", backends, "LIST", std::move(help), [read = parse](const std::string& v) {
            std::vector<std::string> names;
            try {
                names = read(v);
            } catch (const std::invalid_argument& e) {
                throw UsageError(std::string("--backends: ") + e.what());
            }
            // parseList drops a repeated name; on the command line it is a slip
            std::string joined;
            for (const std::string& n : names) {
                const std::string item = "," + n + ",";
                const std::string list = "," + v + ",";
                if (list.find(item) != list.rfind(item))
                    throw UsageError(
                        fmt::format("invalid --backends='{}': {} is given twice", v, n));
                joined += (joined.empty() ? "" : ",") + n;
            }
            return joined;
        });
    }

    /// --backends of a mode that plays arrival streams; `what` says what each backend runs.
    void declareStreamList(OptionTable& t, std::string_view what) {
        t.group("Backends");
        std::string help = fmt::format("{}, comma-separated, or all:", what);
        for (const BackendInfo& b : BackendRegistry::all())
            help +=
                fmt::format("{} {} ({})", b.name == BackendRegistry::all().front().name ? "" : ",",
                            b.name, b.streamStartTimesText);
        help +=
            ". Lateness counts from the intended start; a deadline window applies to every "
            "backend (pullsched drops a late job itself, for the others the rig drops it at "
            "its start)";
        declareList(t, std::move(help));
    }

    /// The labels a result of several backends has (each backend's name), for --check
    /// selectors; one backend's result is not nested, so it has none.
    std::vector<std::string> labels() const {
        std::vector<std::string> n = names();
        return n.size() > 1 ? n : std::vector<std::string>{};
    }

    std::vector<std::string> names() const { return parse(backends); }

    /// The chosen backends without `capability` (a BackendInfo flag), in --backends order.
    std::vector<std::string> lacking(bool BackendInfo::*capability) const {
        std::vector<std::string> out;
        for (const std::string& n : names())
            if (!(BackendRegistry::find(n).*capability)) out.push_back(n);
        return out;
    }

    /// Every backend of the registry that has `capability`, as listText() says them.
    static std::string withCapability(bool BackendInfo::*capability) {
        std::vector<std::string> out;
        for (const BackendInfo& b : BackendRegistry::all())
            if (b.*capability) out.emplace_back(b.name);
        return listText(out);
    }

    /// "tbb" or "tbb and pool" or "tbb, openmp and pool".
    static std::string listText(const std::vector<std::string>& names) {
        std::string s;
        for (std::size_t i = 0; i < names.size(); ++i)
            s += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
        return s;
    }

    /// UsageError when `option` (as given: "--life-window=50ms") needs `capability` and a
    /// chosen backend lacks it, naming each: "--life-window=50ms: tbb has no deadlines (give
    /// --life-window=0s to compare it)". `lacks` follows "has"/"have" ("no deadlines");
    /// `instead` is the way out, its {} the word "it" or "them".
    void refuseLacking(bool BackendInfo::*capability, std::string_view option,
                       std::string_view lacks, std::string_view instead) const {
        const std::vector<std::string> without = lacking(capability);
        if (without.empty()) return;
        const bool one = without.size() == 1;
        throw UsageError(fmt::format("{}: {} {} {} ({})", option, listText(without),
                                     one ? "has" : "have", lacks,
                                     fmt::format(fmt::runtime(instead), one ? "it" : "them")));
    }

    /// Whether the chosen backends run with deadlines of `lifeWindow`, and why, in one line.
    /// All or none: a job held to a deadline on one backend and not on another is not the
    /// same work. A window given for a backend without deadlines is refused before this
    /// (refuseLacking), so a backend without them turns off only the default window.
    struct DeadlineChoice {
        bool on = false;
        std::string why;
    };
    DeadlineChoice deadlines(std::chrono::nanoseconds lifeWindow) const {
        const std::string window = Units::formatDuration(lifeWindow);
        if (lifeWindow <= std::chrono::nanoseconds::zero())
            return {false, "no deadlines (--life-window=0s)"};
        const std::vector<std::string> without = lacking(&BackendInfo::deadlines);
        if (without.empty())
            return {true, fmt::format("deadlines: scheduled start + life window {}", window)};
        return {false,
                fmt::format("no deadlines: {} {} none, so the default life window {} is "
                            "enforced on no backend",
                            listText(without), without.size() == 1 ? "has" : "have", window)};
    }
};

}  // namespace pullsched::rig
