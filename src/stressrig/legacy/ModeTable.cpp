#include "legacy/Modes.hpp"

namespace pullsched::rig {

const std::vector<ModeInfo>& modeTable() {
    static const std::vector<ModeInfo> table{
        {"topology", "print the graph's statistics (--json, --dot=FILE|-); runs nothing",
         &runTopologyMode},
        {"run", "one scheduled run (default): times, lateness, concurrency, hash check",
         &runSingleRunMode},
        {"breaking-point", "search the stress factor at which the schedule breaks",
         &runBreakingPointMode},
        {"param-range", "load-peak series over --from..--to jobs, with linear regression",
         &runParamRangeMode},
        {"open", "open load: jobs arrive at --rate regardless of completions", &runOpenMode},
        {"closed", "closed load: --users each post the next job when the last completed",
         &runClosedMode},
        {"sweep", "offered-rate sweep: stable / burst / failure levels", &runSweepMode},
        {"pipeclean", "short single-user run per pattern to validate the set-up",
         &runPipecleanMode},
        {"soak", "long run at a moderate rate, sampling drift every --interval", &runSoakMode},
        {"headroom", "copies k = 1..N of the graph side by side: capacity headroom",
         &runHeadroomMode},
    };
    return table;
}

}  // namespace pullsched::rig
