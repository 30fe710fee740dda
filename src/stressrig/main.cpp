// stressrig: parse the command line, run the mode, report; map outcomes to exit codes.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <iostream>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "CommandLine.hpp"
#include "cli/UsageError.hpp"
#include "load/Progress.hpp"
#include "load/StopRequest.hpp"
#include "measure/Environment.hpp"
#include "report/Reporter.hpp"
#include "report/ResultFiles.hpp"
#include "report/TerminalColour.hpp"

namespace {

/// `stressrig compare DIR_A DIR_B [options]` is `--mode=compare --baseline=DIR_A
/// --candidate=DIR_B [options]`: the two results come first, options after them.
std::vector<std::string> expandCompareCommand(const std::vector<std::string>& args) {
    if (args.empty() || args.front() != "compare") return args;
    std::vector<std::string> out{"--mode=compare"};
    std::size_t next = 1;
    if (args.size() >= 3 && args[1].rfind("-", 0) != 0 && args[2].rfind("-", 0) != 0) {
        out.push_back("--baseline=" + args[1]);
        out.push_back("--candidate=" + args[2]);
        next = 3;
    } else if (std::find(args.begin(), args.end(), "--help") == args.end() &&
               std::find(args.begin(), args.end(), "-h") == args.end()) {
        throw pullsched::rig::UsageError(
            "usage: stressrig compare DIR_A DIR_B [--result=NAME] [--alpha=P] [--out=DIR]");
    }
    out.insert(out.end(), args.begin() + static_cast<std::ptrdiff_t>(next), args.end());
    return out;
}

}  // namespace

int main(int argc, char* argv[]) {
    using namespace pullsched::rig;
    StopRequest stop;
    stop.watchSignals();
    std::unique_ptr<CommandLine> cl;
    try {
        cl =
            parseCommandLine(expandCompareCommand(std::vector<std::string>(argv + 1, argv + argc)));
    } catch (const std::exception& e) {  // UsageError and the parsers' own
        fmt::print(std::cerr, "stressrig: {}\n", Reporter::oneLine(e.what()));
        return kExitUsage;
    }
    if (cl->action == CommandLine::Action::Help) {
        std::cout << helpText(*cl);
        return 0;
    }
    if (cl->action == CommandLine::Action::Version) {
        std::cout << versionText();
        return 0;
    }
    // A result that cannot be written is known before the run, not after hours of it.
    try {
        ResultFiles::checkWritable(cl->output.directory());
    } catch (const std::exception& e) {
        fmt::print(std::cerr, "stressrig: {}; nothing was run\n", Reporter::oneLine(e.what()));
        return kExitWriteFailure;
    }
    Environment env = Environment::capture();
    if (const std::string busy = env.busyWarning(); !busy.empty() && cl->mode->measures())
        fmt::print(std::cerr, "stressrig: warning: {}\n", busy);
    Progress progress(cl->output.quiet || cl->output.json);
    RunContext context{progress, stop, env};
    ModeResult result;
    try {
        result = cl->mode->run(context);
    } catch (const UsageError& e) {
        fmt::print(std::cerr, "stressrig: {}\n", Reporter::oneLine(e.what()));
        return kExitUsage;
    } catch (const pullsched::testchain::Stopped&) {
        // A stop while a large graph was generated or prepared: a partial result, empty.
        result = ModeResult{};
        result.name = std::string(cl->mode->name());
        result.partial = true;
        result.verdict = "interrupted before anything was measured";
        result.text.push_back("stopped on request while the graph was being prepared");
    } catch (const std::exception& e) {
        fmt::print(std::cerr, "stressrig: error: {}\n", Reporter::oneLine(e.what()));
        return kExitSystemFailure;
    }
    cl->output.colour = terminalColourWanted(::isatty(STDOUT_FILENO) == 1, std::getenv("NO_COLOR"),
                                             cl->output.noColor);
    Reporter reporter(cl->output, std::cout, std::cerr);
    return reporter.report(
        result,
        {std::string(cl->mode->name()), cl->table.configuration(), cl->mode->measures(), cl->checks,
         cl->checkOptions.busyPolicy(), cl->checkBaseline},
        env, stop);
}
