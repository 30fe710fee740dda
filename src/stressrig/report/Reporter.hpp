#pragma once
// The one way every mode's result is reported: the text report (or the JSON envelope)
// on stdout, and the result's files — CSV, Gnuplot scripts and pictures, DOT and SVG,
// other text files, and the JSON envelope as manifest — written as one set.

#include <iosfwd>
#include <string>

#include <nlohmann/json.hpp>

#include "report/ModeResult.hpp"
#include "report/OutputSettings.hpp"
#include "report/ResultCheck.hpp"
#include "report/ResultFiles.hpp"

namespace pullsched::rig {

struct Environment;
class StopRequest;

/// Exit statuses of the rig.
enum ExitStatus : int {
    kExitMeasured = 0,       ///< the measurement was made (overload is a result)
    kExitSystemFailure = 1,  ///< the scheduler lost, doubled or failed a job, or a hash differs
    kExitUsage = 2,          ///< bad input; nothing was run or written
    kExitWriteFailure = 3,   ///< measured, but the result files could not be written
    kExitCheckFailed = 4,    ///< measured and written, but a --check condition failed
    kExitInterrupted = 130,  ///< SIGINT (143 for SIGTERM): partial result written
};

/// What the reporter needs to know of the invocation.
struct Invocation {
    std::string mode;
    nlohmann::json configuration;  ///< OptionTable::configuration() of the mode
    bool measures = true;          ///< Mode::measures(): warn about a busy machine
    std::vector<Check> checks{};   ///< --check conditions, held against the result
    BusyPolicy busyPolicy = BusyPolicy::Warn;
    nlohmann::json checkBaseline{};  ///< the stored result `F*baseline` conditions read
};

class Reporter {
  public:
    Reporter(const OutputSettings& output, std::ostream& out, std::ostream& err,
             ResultFiles::Writer writer = {});

    /// Writes the files, prints the report and returns the exit status. The envelope:
    /// { mode, version, configuration, environment, calibration, files, partial,
    ///   verdict, warnings, failures, exit_status, result }, and `checks` when the
    /// invocation has --check conditions (exit 4 when one fails).
    int report(const ModeResult& result, const Invocation& invocation, Environment& environment,
               const StopRequest& stop);

    /// The base name of the files: --name, or the mode's.
    std::string baseName(const ModeResult& result) const;

    /// `s` on one line: control characters shown escaped (\n, \t, \x1b).
    static std::string oneLine(const std::string& s);

  private:
    const OutputSettings& output_;
    std::ostream& out_;
    std::ostream& err_;
    ResultFiles::Writer writer_;
};

}  // namespace pullsched::rig
