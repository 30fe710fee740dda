#pragma once
// --check and --check-busy, declared for every mode: conditions on the result's figures
// that fail the run (exit 4), parsed and validated against the mode before anything runs.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/OptionTable.hpp"
#include "report/ResultCheck.hpp"

namespace pullsched::rig {

/// The largest check file --check=@FILE reads; a check file is a few lines.
inline constexpr std::size_t kMaxCheckFileBytes = 64 * 1024;

/// The check options of the command line.
struct CheckOptions {
    std::string spec;           ///< `EXPR[,EXPR...]` or `@FILE`
    std::string busy = "warn";  ///< --check-busy
    std::string baselineDir;    ///< --check-baseline

    void declare(OptionTable& table);
    /// The conditions of `spec` (a file's when it is `@FILE`, read as readArgumentFile
    /// reads), validated against the figures `mode` produces (`refused`, `labels`: see
    /// parseChecks). Throws UsageError with one line.
    std::vector<Check> parse(std::string_view mode, const std::vector<FigureSource>& figures,
                             const std::vector<FigureRefusal>& refused = {},
                             const std::optional<std::vector<std::string>>& labels = {}) const;
    BusyPolicy busyPolicy() const;
    /// The stored result `F*baseline` conditions compare with: the newest run of `mode` in
    /// --check-baseline (an --out folder, a run's folder or a manifest; null when no
    /// condition is relative). Throws UsageError when a
    /// relative condition has no baseline, or a baseline no relative condition.
    nlohmann::json baseline(std::string_view mode, const std::vector<Check>& checks) const;
};

/// `EXPR[,EXPR...]`: each `KEY[SEL] OP VALUE[UNIT]` (OP < <= > >= == !=), checked against
/// the figures `mode` produces. Throws UsageError naming the condition; a figure in
/// `refused` with its reason; a threshold outside the figure's range (MetricCatalogue::range);
/// with `labels` (Mode::selectorLabels), a selector part that names none of them.
std::vector<Check> parseChecks(std::string_view spec, std::string_view mode,
                               const std::vector<FigureSource>& figures,
                               const std::vector<FigureRefusal>& refused = {},
                               const std::optional<std::vector<std::string>>& labels = {});

/// The conditions of a check file joined by commas: one per line, `#` comments, blank
/// lines, and optionally a `checks:` line with `- EXPR` items under it.
std::string checkFileConditions(std::string_view text);

}  // namespace pullsched::rig
