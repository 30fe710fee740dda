#pragma once
// The rig's modes. Each returns the process exit code: 0 success, 1 the run found a
// failure (hash mismatch, failed jobs, pipeclean outlier), 2 bad input (the message is
// already printed to stderr). Reports go to stdout, progress to stderr.

#include <string_view>
#include <vector>

#include "legacy/RigOptions.hpp"

namespace pullsched::rig {

using ModeFunction = int (*)(const RigOptions&);

struct ModeInfo {
    std::string_view name;
    std::string_view summary;  ///< one line for --help
    ModeFunction run;
};

// issue: TestChainLoad + StressTestRig (ModesGraph.cpp, ModesSeries.cpp)
int runTopologyMode(const RigOptions&);
int runSingleRunMode(const RigOptions&);
int runBreakingPointMode(const RigOptions&);
int runParamRangeMode(const RigOptions&);

// issue: load-test methods (ModesLoadTest.cpp)
int runOpenMode(const RigOptions&);
int runClosedMode(const RigOptions&);
int runSweepMode(const RigOptions&);
int runPipecleanMode(const RigOptions&);
int runSoakMode(const RigOptions&);
int runHeadroomMode(const RigOptions&);

/// All modes in --help order.
const std::vector<ModeInfo>& modeTable();

}  // namespace pullsched::rig
