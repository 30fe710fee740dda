#include "cli/CheckOptions.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "cli/ArgumentFile.hpp"
#include "cli/UnitParsing.hpp"
#include "cli/UsageError.hpp"
#include "report/HtmlPage.hpp"
#include "report/RunFolders.hpp"

namespace pullsched::rig {

namespace {

std::string withoutBlanks(std::string_view s) {
    std::string r;
    for (char c : s)
        if (c != ' ' && c != '\t' && c != '\r') r += c;
    return r;
}

/// Splits on commas outside `[...]` (a selector may not hold one, but the error is kinder).
std::vector<std::string> splitConditions(std::string_view spec) {
    std::vector<std::string> parts{""};
    int depth = 0;
    for (char c : spec) {
        if (c == '[') ++depth;
        if (c == ']' && depth > 0) --depth;
        if (c == ',' && depth == 0)
            parts.emplace_back();
        else
            parts.back() += c;
    }
    return parts;
}

std::string figureNames(const std::vector<FigureSource>& figures) {
    std::string s;
    for (const FigureSource& f : figures)
        s += fmt::format("{}{}", s.empty() ? "" : ", ", f.metric);
    return s.empty() ? "none" : s;
}

/// The operator at the first of `<>=!`, and where it starts and ends.
struct OpAt {
    CheckOp op;
    std::size_t begin, end;
};

std::optional<OpAt> findOp(std::string_view t) {
    // a selector may hold '=' (`highest_stable_rate[workers=2]`)
    const std::size_t close = t.find(']');
    const std::size_t at =
        t.find_first_of("<>=!", t.find('[') < close && close != t.npos ? close : 0);
    if (at == std::string_view::npos) return std::nullopt;
    const bool eq = at + 1 < t.size() && t[at + 1] == '=';
    switch (t[at]) {
        case '<':
            return OpAt{eq ? CheckOp::LessEqual : CheckOp::Less, at, at + (eq ? 2 : 1)};
        case '>':
            return OpAt{eq ? CheckOp::GreaterEqual : CheckOp::Greater, at, at + (eq ? 2 : 1)};
        case '=':
            if (eq) return OpAt{CheckOp::Equal, at, at + 2};
            return std::nullopt;
        default:
            if (eq) return OpAt{CheckOp::NotEqual, at, at + 2};
            return std::nullopt;
    }
}

/// `value[unit]` in the dimension's base unit; the error names what would do.
double thresholdOf(const Metric& m, const std::string& value, const std::string& bad) {
    double number = 0;
    const auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
    if (ec != std::errc{} || p == value.data() || !std::isfinite(number))
        throw UsageError(fmt::format("{}: '{}' is not a number", bad, echoed(value)));
    const std::string unit = value.substr(static_cast<std::size_t>(p - value.data()));
    auto wrongUnit = [&](std::string_view hint) {
        return UsageError(fmt::format(
            "{}: {} is {}; {} ({})", bad, m.name, MetricCatalogue::nameOf(m.dimension),
            unit.empty() ? "give a unit" : fmt::format("'{}' is not its unit", echoed(unit)),
            hint));
    };
    switch (m.dimension) {
        case Dimension::Duration:
            if (unit.empty()) throw wrongUnit(MetricCatalogue::unitsOf(m.dimension));
            try {
                // the unit's size times the number: 0 and fractions read as written
                return number * static_cast<double>(parseDuration("1" + unit).count()) / 1000;
            } catch (const UnitError&) {
                throw wrongUnit(MetricCatalogue::unitsOf(m.dimension));
            }
        case Dimension::Rate:
            if (unit.empty()) return number;
            try {
                return number * parseRate("1" + unit);
            } catch (const UnitError&) {
                throw wrongUnit(MetricCatalogue::unitsOf(m.dimension));
            }
        case Dimension::Ratio:
            if (unit.empty() || unit == "x") return number;
            if (unit == "%") return number / 100;
            throw wrongUnit(MetricCatalogue::unitsOf(m.dimension));
        case Dimension::Percent:
            if (unit == "%") return number;
            throw wrongUnit("write it in %, e.g. 80%");
        case Dimension::Count:
            if (unit.empty()) return number;
            throw wrongUnit(MetricCatalogue::unitsOf(m.dimension));
        case Dimension::Memory:
            if (unit == "KiB") return number / 1024;
            if (unit == "MiB") return number;
            if (unit == "GiB") return number * 1024;
            throw wrongUnit(MetricCatalogue::unitsOf(m.dimension));
        case Dimension::MemoryGrowth:
            if (unit == "KiB/h") return number / 1024;
            if (unit == "MiB/h") return number;
            if (unit == "GiB/h") return number * 1024;
            throw wrongUnit(MetricCatalogue::unitsOf(m.dimension));
    }
    throw wrongUnit("");
}

/// `F*baseline` → F; `baseline` → 1.
double baselineFactor(const std::string& value, const std::string& bad) {
    if (value == "baseline") return 1;
    const std::string factor = value.substr(0, value.size() - 8);
    double f = 0;
    const auto [p, ec] = std::from_chars(factor.data(), factor.data() + factor.size(), f);
    if (ec != std::errc{} || factor.size() < 2 || p != factor.data() + factor.size() - 1 ||
        factor.back() != '*' || !std::isfinite(f))
        throw UsageError(
            fmt::format("{}: a baseline threshold is F*baseline, e.g. "
                        "lateness_p99<=1.1*baseline",
                        bad));
    return f;
}

/// Refuses a selector that can pick nothing: a mode without labels has one value of each
/// figure, and every part must name one of the labels (or a label's value).
void checkSelector(const std::vector<std::string>& selector, std::string_view mode,
                   const std::vector<std::string>& labels, const std::string& bad) {
    if (selector.empty()) return;
    std::string written;
    for (const std::string& part : selector)
        written += (written.empty() ? "" : "/") + part;
    if (labels.empty())
        throw UsageError(
            fmt::format("{}: --mode={} has one value of each figure; leave out the selector [{}]",
                        bad, mode, echoed(written)));
    for (const std::string& part : selector) {
        if (std::any_of(labels.begin(), labels.end(),
                        [&](const std::string& l) { return selects(part, l); }))
            continue;
        std::string known;
        for (const std::string& l : labels)
            known += (known.empty() ? "" : ", ") + l;
        throw UsageError(
            fmt::format("{}: '{}' selects nothing: --mode={} tells its figures "
                        "apart by {}",
                        bad, echoed(part), mode, echoed(known, 200)));
    }
}

/// Refuses a threshold no value of the figure can meet (`runtime<=-1ms`): the check would
/// fail every run, after it.
void checkReachable(const Check& c, const std::string& bad) {
    const MetricRange r = MetricCatalogue::range(*c.metric);
    const double t = c.threshold;
    bool below = false, above = false;
    switch (c.op) {
        case CheckOp::Less:
            below = t <= r.least;
            break;
        case CheckOp::LessEqual:
            below = t < r.least;
            break;
        case CheckOp::Greater:
            above = t >= r.most;
            break;
        case CheckOp::GreaterEqual:
            above = t > r.most;
            break;
        case CheckOp::Equal:
            below = t < r.least;
            above = t > r.most;
            break;
        case CheckOp::NotEqual:
            break;
    }
    if (!below && !above) return;
    const double bound = below ? r.least : r.most;
    throw UsageError(
        fmt::format("{}: {} is never {} {}, so the condition cannot hold", bad, c.metric->name,
                    below ? "below" : "above",
                    c.inPercent ? fmt::format("{:g} %", 100 * bound) : fmt::format("{:g}", bound)));
}

/// `name[a/b]` → name and {a, b}.
std::pair<std::string, std::vector<std::string>> nameAndSelector(const std::string& lhs,
                                                                 const std::string& bad) {
    const std::size_t open = lhs.find('[');
    if (open == std::string::npos) return {lhs, {}};
    if (lhs.back() != ']' || open + 2 > lhs.size() - 1)
        throw UsageError(
            fmt::format("{}: a selector is [NAME] after the figure, e.g. "
                        "metg[pullsched]",
                        bad));
    std::vector<std::string> selector;
    std::stringstream ss(lhs.substr(open + 1, lhs.size() - open - 2));
    for (std::string part; std::getline(ss, part, '/');)
        if (!part.empty()) selector.push_back(part);
    return {lhs.substr(0, open), selector};
}

Check parseCondition(const std::string& text, std::string_view mode,
                     const std::vector<FigureSource>& figures,
                     const std::vector<FigureRefusal>& refused,
                     const std::optional<std::vector<std::string>>& labels) {
    const std::string bad = fmt::format("invalid --check '{}'", echoed(text));
    const std::optional<OpAt> op = findOp(text);
    if (!op || op->begin == 0 || op->end == text.size())
        throw UsageError(
            fmt::format("{}: expected FIGURE OP VALUE with OP one of < <= > >= == "
                        "!= (e.g. lateness_p99<=50us)",
                        bad));
    const auto [name, selector] = nameAndSelector(text.substr(0, op->begin), bad);
    const Metric* metric = MetricCatalogue::find(name);
    if (!metric)
        throw UsageError(fmt::format("{}: unknown figure '{}'; --mode={} has: {}", bad,
                                     echoed(name), mode, figureNames(figures)));
    const auto source = std::find_if(figures.begin(), figures.end(), [&](const FigureSource& f) {
        return f.metric == metric->name;
    });
    if (source == figures.end()) {
        const auto why = std::find_if(refused.begin(), refused.end(), [&](const FigureRefusal& r) {
            return r.metric == metric->name;
        });
        if (why != refused.end()) throw UsageError(fmt::format("{}: {}", bad, why->reason));
        throw UsageError(fmt::format("{}: --mode={} does not produce {}; it has: {}", bad, mode,
                                     metric->name, figureNames(figures)));
    }
    if (labels) checkSelector(selector, mode, *labels, bad);
    Check c;
    c.text = text;
    c.metric = metric;
    c.path = std::string(source->path.empty() ? metric->key : source->path);
    c.selector = selector;
    c.op = op->op;
    const std::string value = text.substr(op->end);
    if (value.size() >= 8 && value.substr(value.size() - 8) == "baseline") {
        c.relative = true;
        c.threshold = baselineFactor(value, bad);
    } else {
        c.threshold = thresholdOf(*metric, value, bad);
        c.inPercent = metric->dimension == Dimension::Ratio && value.ends_with('%');
        checkReachable(c, bad);
    }
    return c;
}

}  // namespace

std::vector<Check> parseChecks(std::string_view spec, std::string_view mode,
                               const std::vector<FigureSource>& figures,
                               const std::vector<FigureRefusal>& refused,
                               const std::optional<std::vector<std::string>>& labels) {
    std::vector<Check> checks;
    for (const std::string& part : splitConditions(spec)) {
        const std::string text = withoutBlanks(part);
        if (text.empty())
            throw UsageError(fmt::format(
                "invalid --check '{}': an empty condition (a comma too many?)", echoed(spec)));
        checks.push_back(parseCondition(text, mode, figures, refused, labels));
    }
    return checks;
}

std::string checkFileConditions(std::string_view text) {
    std::string joined;
    std::stringstream ss{std::string(text)};
    for (std::string line; std::getline(ss, line);) {
        // blanks mean nothing in a condition: `- lateness_p99 <= 50us` is one item
        line = withoutBlanks(line.substr(0, line.find('#')));
        if (line.empty() || line == "checks:") continue;
        if (line.front() == '-') line = line.substr(1);
        if (line.size() >= 2 && (line.front() == '\'' || line.front() == '"') &&
            line.back() == line.front())
            line = line.substr(1, line.size() - 2);
        joined += (joined.empty() ? "" : ",") + line;
    }
    return joined;
}

void CheckOptions::declare(OptionTable& table) {
    table.group("Checks (exit 4 when one fails)")
        .text("check", spec, "EXPR[,EXPR...]",
              "fail the run unless every condition holds: FIGURE[SEL] OP VALUE[UNIT], OP one "
              "of < <= > >= == !=, e.g. lateness_p99<=50us,efficiency>=0.9; @FILE reads one "
              "per line (or a 'checks:' list)")
        .text("check-baseline", baselineDir, "DIR",
              "the stored result a FIGURE OP F*baseline condition compares with: the newest "
              "run of this mode in DIR (an --out folder or a run's folder), or a <name>.json "
              "(per backend, graph or level)")
        .choice("check-busy", busy, {"warn", "fail", "pass"},
                "when the machine was busy: warn = outcomes stand, noted in the table; fail = "
                "the checks fail; pass = failed checks do not fail the run");
}

std::vector<Check> CheckOptions::parse(
    std::string_view mode, const std::vector<FigureSource>& figures,
    const std::vector<FigureRefusal>& refused,
    const std::optional<std::vector<std::string>>& labels) const {
    if (spec.empty()) return {};
    std::string conditions = spec;
    if (spec.front() == '@') {
        const std::filesystem::path file = spec.substr(1);
        if (file.empty()) throw UsageError("invalid --check=@: no file name after '@'");
        const std::string what = fmt::format("invalid --check=@{}", echoed(file.string()));
        conditions =
            checkFileConditions(readArgumentFile(file, what, "a check file", kMaxCheckFileBytes));
        if (conditions.empty()) throw UsageError(what + ": the file has no condition");
    }
    return parseChecks(conditions, mode, figures, refused, labels);
}

nlohmann::json CheckOptions::baseline(std::string_view mode,
                                      const std::vector<Check>& checks) const {
    const auto relative =
        std::find_if(checks.begin(), checks.end(), [](const Check& c) { return c.relative; });
    if (relative == checks.end()) {
        if (!baselineDir.empty())
            throw UsageError(
                fmt::format("--check-baseline={} is only read by conditions like "
                            "lateness_p99<=1.1*baseline",
                            baselineDir));
        return nullptr;
    }
    if (baselineDir.empty())
        throw UsageError(
            fmt::format("invalid --check '{}': needs --check-baseline=DIR, a "
                        "folder with a stored result of --mode={}",
                        relative->text, mode));
    const std::filesystem::path where = baselineDir;
    std::vector<std::filesystem::path> manifests;
    std::error_code ec;
    if (std::filesystem::is_regular_file(where, ec)) {
        manifests.push_back(where);
    } else {
        // an --out folder's runs newest first, or the result in a run's folder
        for (const FolderEntry& e : runsIn(where))
            if (e.mode == mode) manifests.push_back(where / e.folder / (e.name + ".json"));
    }
    for (const std::filesystem::path& file : manifests) {
        std::ifstream in(file);
        const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
        if (j.is_object() && j.value("mode", std::string()) == mode && j.contains("result"))
            return j.at("result");
    }
    throw UsageError(fmt::format("invalid --check-baseline={}: no result of --mode={} in it",
                                 baselineDir, mode));
}

BusyPolicy CheckOptions::busyPolicy() const {
    if (busy == "fail") return BusyPolicy::Fail;
    if (busy == "pass") return BusyPolicy::Pass;
    return BusyPolicy::Warn;
}

}  // namespace pullsched::rig
