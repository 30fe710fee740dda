// stressrig: parse the command line, dispatch to the mode, map errors to exit codes.
#include <exception>
#include <iostream>

#include "pullsched/stressrig/CommandLine.hpp"
#include "pullsched/stressrig/Modes.hpp"
#include "pullsched/stressrig/Units.hpp"
#include "pullsched/testchain/RuleParser.hpp"

int main(int argc, char* argv[]) {
    using namespace pullsched::rig;
    try {
        const ParsedCommandLine cl = parseCommandLine(argc, argv);
        if (cl.help) {
            std::cout << helpText();
            return 0;
        }
        for (const ModeInfo& m : modeTable())
            if (m.name == cl.options.mode) return m.run(cl.options);
        std::cerr << "stressrig: unknown mode '" << cl.options.mode << "'\n";
        return 2;
    } catch (const UsageError& e) {
        std::cerr << "stressrig: " << e.what() << '\n';
        return 2;
    } catch (const UnitError& e) {
        std::cerr << "stressrig: " << e.what() << '\n';
        return 2;
    } catch (const pullsched::testchain::RuleSyntaxError& e) {
        std::cerr << "stressrig: " << e.what() << '\n';
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "stressrig: error: " << e.what() << '\n';
        return 1;
    }
}
