#include "modes/Mode.hpp"

namespace pullsched::rig {

std::vector<std::unique_ptr<Mode>> makeModes() {
    std::vector<std::unique_ptr<Mode>> modes;
    modes.push_back(makeRunMode());
    modes.push_back(makeTopologyMode());
    modes.push_back(makeBreakingPointMode());
    modes.push_back(makeParamRangeMode());
    modes.push_back(makeOpenMode());
    modes.push_back(makeClosedMode());
    modes.push_back(makeSweepMode());
    modes.push_back(makePipecleanMode());
    modes.push_back(makeSoakMode());
    modes.push_back(makeHeadroomMode());
    modes.push_back(makeGranularityMode());
    modes.push_back(makeSpawnMode());
    modes.push_back(makeCompareMode());
    return modes;
}

}  // namespace pullsched::rig
