#pragma once
// CSV columns whose names resemble a figure of the metric catalogue but hold another
// quantity (one interval's or one pattern's value, a share of a step): declared here, each
// with what it holds, so that every other column named like a figure must carry the
// catalogue's header (tests/stressrig/regression_mode_json_keys.cpp holds every mode to it).

#include <array>
#include <string_view>

namespace pullsched::rig {

struct FigureLookalike {
    std::string_view header;  ///< as the CSV writes it
    std::string_view mode;    ///< the mode whose CSV has it
    std::string_view holds;   ///< what the column holds instead of the figure
};

inline constexpr std::array kFigureLookalikes = {
    FigureLookalike{"throughput per s", "soak",
                    "jobs completed per second in one interval, not the run's throughput"},
    FigureLookalike{"capacity %", "headroom",
                    "a load step's offered rate in percent of the nominal capacity"},
    FigureLookalike{"runtime us", "run", "one job's run time, not the graph's"},
};

}  // namespace pullsched::rig
