// stressrig: parse the command line, run the mode, report; map outcomes to exit codes.
#include <exception>
#include <iostream>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "cli/CommandLine.hpp"
#include "cli/StopRequest.hpp"
#include "cli/UsageError.hpp"
#include "measure/Environment.hpp"
#include "report/Progress.hpp"
#include "report/Reporter.hpp"

int main(int argc, char* argv[]) {
    using namespace pullsched::rig;
    StopRequest stop;
    stop.watchSignals();
    std::unique_ptr<CommandLine> cl;
    try {
        cl = parseCommandLine(std::vector<std::string>(argv + 1, argv + argc));
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
    Environment env = Environment::capture();
    if (const std::string busy = env.busyWarning(); !busy.empty())
        fmt::print(std::cerr, "stressrig: warning: {}\n", busy);
    Progress progress(cl->output.quiet || cl->output.json);
    RunContext context{progress, stop, env};
    ModeResult result;
    try {
        result = cl->mode->run(context);
    } catch (const UsageError& e) {
        fmt::print(std::cerr, "stressrig: {}\n", Reporter::oneLine(e.what()));
        return kExitUsage;
    } catch (const std::exception& e) {
        fmt::print(std::cerr, "stressrig: error: {}\n", Reporter::oneLine(e.what()));
        return kExitSystemFailure;
    }
    Reporter reporter(cl->output, std::cout, std::cerr);
    return reporter.report(result, {std::string(cl->mode->name()), cl->table.configuration()}, env,
                           stop);
}
