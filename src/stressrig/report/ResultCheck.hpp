#pragma once
// `--check` conditions on a result's figures, evaluated after the run: the rows of the
// check table (condition, where, value, outcome), for the text report, the envelope's
// `checks` and the page. Parsing the conditions is cli/CheckOptions.hpp.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/MetricCatalogue.hpp"

namespace pullsched::rig {

/// Where a mode's result holds a figure of the catalogue. `path` is dot-separated inside
/// `result` (empty: the figure's JSON key); `*` stands for every key of an object (its name
/// tells the instances apart), `name[field]` for every element of an array (told apart by
/// `field=value`), and `a/b` is the ratio of two such paths. A result with `backends`
/// holds the figure per backend: each backend's object is searched first, the top level
/// only when no backend has it.
struct FigureSource {
    std::string_view metric;
    std::string_view path = {};
};

/// A figure of the catalogue a mode does not produce as configured, where the plain refusal
/// would leave the user without a way on: a `--check` of it is refused with `reason`
/// (which says what to name instead).
struct FigureRefusal {
    std::string_view metric;
    std::string_view reason;
};

enum class CheckOp { Less, LessEqual, Greater, GreaterEqual, Equal, NotEqual };

/// What a busy machine does to the checks (--check-busy).
enum class BusyPolicy {
    Fail,  ///< the checks fail: a result from a busy machine proves nothing
    Warn,  ///< the outcomes stand as measured, and the table says the machine was busy
    Pass,  ///< failed checks are reported but do not fail the run
};

/// One parsed condition: `metric[selector] op threshold`.
struct Check {
    std::string text;  ///< as written, blanks removed
    const Metric* metric = nullptr;
    std::string path;                   ///< the mode's path to the figure
    std::vector<std::string> selector;  ///< `metg[pullsched]` → {"pullsched"}
    CheckOp op = CheckOp::LessEqual;
    double threshold = 0;  ///< in the dimension's base unit; the factor when relative
    /// `FIGURE OP F*baseline`: the threshold is F times the same figure (same backend,
    /// graph or level) of a stored result of the same mode (--baseline=DIR).
    bool relative = false;
    /// A ratio's threshold written in % (`drop_rate<50%`): its values print in % too.
    bool inPercent = false;
};

/// One value a check was held against.
struct CheckRow {
    enum class Outcome { Pass, Fail, Missing };
    std::string condition;
    std::string where;  ///< the instance, e.g. "pullsched" or "isolated-32/tbb"; may be ""
    std::optional<double> value;     ///< in the JSON's unit; nullopt when not measured
    std::optional<double> baseline;  ///< a relative check's baseline value (JSON unit)
    std::string valueText;           ///< with its unit, "n/a" when not measured
    Outcome outcome = Outcome::Missing;
};

/// Every check held against a result.
struct CheckReport {
    std::vector<CheckRow> rows;
    std::string busyNote;  ///< why the machine counts as busy; empty when it was not
    BusyPolicy policy = BusyPolicy::Warn;

    /// Rows that failed or had no value.
    std::size_t failures() const;
    /// Whether the run fails its checks (exit 4), after the busy policy.
    bool failed() const;
    /// The envelope's `checks`: { passed, busy, busy_policy, busy_note, conditions: [...] }.
    nlohmann::json json() const;
    /// The table for the text report, one line each.
    std::vector<std::string> lines() const;
};

/// Holds every check against `result`; `busyNote` non-empty when the machine was busy;
/// `baseline` is the stored result relative checks compare with (null when none).
CheckReport evaluateChecks(const std::vector<Check>& checks, const nlohmann::json& result,
                           std::string busyNote, BusyPolicy policy,
                           const nlohmann::json& baseline = nullptr);

/// Whether a selector part names `label` (`workers=2`) or its value (`2`, `pullsched`).
bool selects(std::string_view part, std::string_view label);

/// "fail", "warn", "pass".
std::string_view busyPolicyName(BusyPolicy p);
/// "pass", "FAIL", "FAIL (n/a)" (a figure not measured fails its check).
std::string_view outcomeName(CheckRow::Outcome o);

}  // namespace pullsched::rig
