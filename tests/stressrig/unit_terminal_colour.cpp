// The text report's verdict line is coloured by what it means only where a person reads
// it: stdout a terminal, NO_COLOR unset or empty, no --no-color; never in a pipe or file.
#include <filesystem>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "RigTestSupport.hpp"
#include "load/StopRequest.hpp"
#include "measure/Environment.hpp"
#include "report/Reporter.hpp"
#include "report/TerminalColour.hpp"

namespace fs = std::filesystem;
using namespace pullsched::rig;

TEST(TerminalColour, OnlyOnATerminalWithoutNoColor) {
    EXPECT_TRUE(terminalColourWanted(true, nullptr, false));
    EXPECT_TRUE(terminalColourWanted(true, "", false)) << "an empty NO_COLOR does not count";
    EXPECT_FALSE(terminalColourWanted(true, "1", false));
    EXPECT_FALSE(terminalColourWanted(true, "no", false)) << "any non-empty value";
    EXPECT_FALSE(terminalColourWanted(true, nullptr, true)) << "--no-color";
    EXPECT_FALSE(terminalColourWanted(false, nullptr, false)) << "a pipe or a file";
}

TEST(TerminalColour, GreenAmberRedByVerdictClass) {
    EXPECT_EQ(terminalColoured("v", VerdictClass::Ok), "\x1b[32mv\x1b[0m");
    EXPECT_EQ(terminalColoured("v", VerdictClass::Caveat), "\x1b[33mv\x1b[0m");
    EXPECT_EQ(terminalColoured("v", VerdictClass::Failure), "\x1b[1;31mv\x1b[0m");
}

namespace {

/// The text report of a result with `overload`, printed with colour on or off.
std::string printed(bool colour, bool overload, bool failure, const fs::path& dir) {
    ModeResult r;
    r.name = "coloured";
    r.text = {"a line of the report"};
    r.verdict = "the verdict";
    r.overload = overload;
    r.systemFailure = failure;
    if (failure) r.failures = {"hash mismatch"};
    OutputSettings o;
    o.out = dir.string();
    o.noRender = true;
    o.colour = colour;
    std::ostringstream out, err;
    Environment env = Environment::capture();
    env.cores = 1u << 30;  // never busy: the class comes from the result alone
    env.loadAverageStart = 0.0;
    StopRequest stop;
    Reporter(o, out, err).report(r, {"coloured", nlohmann::json::object(), false}, env, stop);
    return out.str();
}

}  // namespace

TEST(TerminalColour, TheReportColoursOnlyItsVerdictLine) {
    const fs::path dir = rigtest::scratch("terminal-colour", "report");
    EXPECT_NE(printed(true, false, false, dir).find("\x1b[32mVerdict: the verdict\x1b[0m\n"),
              std::string::npos);
    EXPECT_NE(printed(true, true, false, dir).find("\x1b[33mVerdict: the verdict\x1b[0m\n"),
              std::string::npos);
    EXPECT_NE(printed(true, false, true, dir).find("\x1b[1;31mVerdict: the verdict\x1b[0m\n"),
              std::string::npos);
    const std::string coloured = printed(true, true, false, dir);
    EXPECT_EQ(coloured.rfind("a line of the report\n", 0), 0u) << "the other lines stay plain";
    const std::string plain = printed(false, true, false, dir);
    EXPECT_EQ(plain.find('\x1b'), std::string::npos) << plain;
    EXPECT_NE(plain.find("Verdict: the verdict\n"), std::string::npos);
    fs::remove_all(dir);
}
