#pragma once
// The runner factories of each backend; each adapter file defines its own, and
// BackendRegistry's entry of the backend names both.

#include <memory>

#include "backends/BackendInfo.hpp"

namespace pullsched::rig {

std::unique_ptr<GraphRunner> makePullschedGraphRunner(const BackendInfo& info);
std::unique_ptr<GraphRunner> makeTbbGraphRunner(const BackendInfo& info);
std::unique_ptr<GraphRunner> makeOpenMpGraphRunner(const BackendInfo& info);
std::unique_ptr<GraphRunner> makeAsioGraphRunner(const BackendInfo& info);
std::unique_ptr<GraphRunner> makePoolGraphRunner(const BackendInfo& info);

std::unique_ptr<StreamRunner> makePullschedStreamRunner(const BackendInfo& info);
std::unique_ptr<StreamRunner> makeTbbStreamRunner(const BackendInfo& info);
std::unique_ptr<StreamRunner> makeOpenMpStreamRunner(const BackendInfo& info);
std::unique_ptr<StreamRunner> makeAsioStreamRunner(const BackendInfo& info);
std::unique_ptr<StreamRunner> makePoolStreamRunner(const BackendInfo& info);

std::unique_ptr<RecursionRunner> makePullschedRecursionRunner(const BackendInfo& info);
std::unique_ptr<RecursionRunner> makeTbbRecursionRunner(const BackendInfo& info);
std::unique_ptr<RecursionRunner> makeOpenMpRecursionRunner(const BackendInfo& info);
std::unique_ptr<RecursionRunner> makeAsioRecursionRunner(const BackendInfo& info);
std::unique_ptr<RecursionRunner> makePoolRecursionRunner(const BackendInfo& info);
std::unique_ptr<RecursionRunner> makePullschedCoroutineRecursionRunner(const BackendInfo& info);

}  // namespace pullsched::rig
