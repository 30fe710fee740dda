#pragma once
// Which schedulers run the mode's graphs: --backends (pullsched alone by default) and the
// untimed warm-up runs each backend gets before its measured ones.

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "backends/BackendRegistry.hpp"
#include "cli/OptionTable.hpp"
#include "cli/UsageError.hpp"

namespace pullsched::rig {

struct BackendOptions {
    std::string backends{BackendRegistry::kDefault};
    unsigned warmup = 1;

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
                "runs per backend before its measured ones, not counted (only when comparing "
                "backends)");
    }

    /// --backends alone, with a mode's own help (a mode that has no warm-up runs).
    void declareList(OptionTable& t, std::string help) {
        t.text("backends", backends, "LIST", std::move(help), [](const std::string& v) {
            std::vector<std::string> names;
            try {
                names = BackendRegistry::parseList(v);
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

    std::vector<std::string> names() const { return BackendRegistry::parseList(backends); }
    /// Anything but pullsched alone: the mode reports per backend.
    bool comparing() const { return backends != BackendRegistry::kDefault; }
};

}  // namespace pullsched::rig
