#pragma once
// Small helpers shared by the rig's own modes (ModesGraph.cpp, ModesSeries.cpp).

#include <chrono>
#include <cstdint>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <iostream>

#include "legacy/ReportWriter.hpp"
#include "legacy/RigOptions.hpp"
#include "legacy/RigSetup.hpp"

namespace pullsched::rig::detail {

inline double ms(std::chrono::nanoseconds d) {
    return std::chrono::duration<double, std::milli>(d).count();
}
inline double us(std::chrono::nanoseconds d) {
    return std::chrono::duration<double, std::micro>(d).count();
}
inline std::string hashHex(std::uint64_t h) {
    return fmt::format("0x{:016X}", h);
}

/// The configuration as a JSON object (the same lines as the CSV comments).
inline nlohmann::json configJson(const RigOptions& opt) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [k, v] : configurationOf(opt))
        j[k] = v;
    return j;
}

/// The --json report of a graph mode: `j` plus calibration and configuration as one line
/// on stdout; the list of files written goes to stderr.
inline void printJsonReport(nlohmann::json& j, const RigSetup& setup, const RigOptions& opt,
                            const ReportWriter& out) {
    j["calibration"] = setup.calibrationText();
    j["configuration"] = configJson(opt);
    std::cout << j.dump() << '\n';
    out.printSummary(std::cerr);
}

}  // namespace pullsched::rig::detail
