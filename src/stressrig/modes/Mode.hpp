#pragma once
// The contract of a rig mode (one file per mode in src/stressrig/modes/).

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cli/OptionTable.hpp"
#include "report/ModeResult.hpp"
#include "report/ResultCheck.hpp"

namespace pullsched::rig {

class Progress;
class StopRequest;
struct Environment;

/// What a running mode may use besides its own options.
struct RunContext {
    Progress& progress;       ///< progress lines on stderr (silent with --quiet)
    const StopRequest& stop;  ///< poll it: Ctrl-C / SIGTERM must end the run within 1 s
    const Environment& environment;
};

/// One mode of the rig, in the manner of fio's engines: it owns its options (declared
/// into the OptionTable, bound to its own members), checks them, runs, and returns a
/// ModeResult. It does not print and does not write files.
///
/// Lifecycle: declare() once, then the command line is parsed into the table, then
/// validate() (UsageError for bad combinations), then run() at most once.
///
/// run() reads as three steps, each its own function: measure (runs the system and
/// returns plain data), analyse (pure functions of that data, in analysis/ when they are
/// worth a unit test without threads) and present (text lines, tables, pictures, verdict
/// and JSON into the ModeResult).
class Mode {
  public:
    virtual ~Mode() = default;
    virtual std::string_view name() const = 0;
    /// One line for --help.
    virtual std::string_view summary() const = 0;
    /// Declares every option the mode reads (including the shared groups it uses).
    virtual void declare(OptionTable& table) = 0;
    /// Checks combinations after parsing; table.given() tells what the user set.
    virtual void validate(const OptionTable& table) { (void)table; }
    virtual ModeResult run(RunContext& context) = 0;
    /// Whether run() measures times on this machine. Modes that run nothing (topology)
    /// or read stored results (compare) get no busy-machine warning.
    virtual bool measures() const { return true; }
    /// The figures of the result a `--check` may name, and where the result holds them.
    virtual std::vector<FigureSource> figures() const { return {}; }
    /// Figures a `--check` may not name as the mode is configured, each with what to name
    /// instead (a figure the mode never produces needs no entry).
    virtual std::vector<FigureRefusal> refusedFigures() const { return {}; }
    /// What the result tells a figure's instances apart by, as configured (after
    /// validate()): backend names, `workers=2`, graph names, `name=fib-25` (see
    /// FigureSource). A `--check` selector must name one; none: one value of each figure.
    virtual std::vector<std::string> selectorLabels() const { return {}; }
};

/// Every mode, in --help order. Each mode file defines its factory.
std::vector<std::unique_ptr<Mode>> makeModes();

std::unique_ptr<Mode> makeTopologyMode();
std::unique_ptr<Mode> makeRunMode();
std::unique_ptr<Mode> makeBreakingPointMode();
std::unique_ptr<Mode> makeParamRangeMode();
std::unique_ptr<Mode> makeOpenMode();
std::unique_ptr<Mode> makeClosedMode();
std::unique_ptr<Mode> makeSweepMode();
std::unique_ptr<Mode> makePipecleanMode();
std::unique_ptr<Mode> makeSoakMode();
std::unique_ptr<Mode> makeHeadroomMode();
std::unique_ptr<Mode> makeGranularityMode();
std::unique_ptr<Mode> makeSpawnMode();
std::unique_ptr<Mode> makeCompareMode();

}  // namespace pullsched::rig
