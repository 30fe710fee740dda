// --mode=compare (also `stressrig compare DIR_A DIR_B`): two results of the same mode on
// the same graph, side by side, with a judgement of each difference. Repeated
// measurements (per-rep values) are judged by the two-sided Mann-Whitney U test; a value
// measured once per result allows no judgement, and the table says so.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include <fmt/format.h>

#include "analysis/ResultComparison.hpp"
#include "cli/UsageError.hpp"
#include "format/SignificantDigits.hpp"
#include "modes/Mode.hpp"
#include "report/ChangeColour.hpp"
#include "report/HtmlPage.hpp"
#include "report/MetricCatalogue.hpp"
#include "report/MissingValues.hpp"
#include "report/RunFolders.hpp"

namespace fs = std::filesystem;

namespace pullsched::rig {

namespace {

/// A result read back from its folder: the manifest and where its files are.
struct StoredResult {
    fs::path directory;
    std::string name;
    nlohmann::json envelope;

    std::string mode() const { return envelope.value("mode", std::string()); }
    const nlohmann::json& result() const { return envelope.at("result"); }
    bool lists(const std::string& file) const {
        for (const auto& f : envelope.at("files"))
            if (f.is_string() && f.get<std::string>() == file) return true;
        return false;
    }
};

bool isManifest(const nlohmann::json& j) {
    return j.is_object() && j.contains("mode") && j["mode"].is_string() && j.contains("files") &&
           j["files"].is_array() && j.contains("result") && j["result"].is_object();
}

StoredResult readManifest(const fs::path& file) {
    std::ifstream in(file);
    if (!in) throw UsageError(fmt::format("cannot read the manifest '{}'", file.string()));
    const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_discarded() || !isManifest(j))
        throw UsageError(fmt::format(
            "'{}' is not a stressrig result manifest (unreadable JSON, or no mode, files and "
            "result)",
            file.string()));
    return {file.parent_path(), file.stem().string(), j};
}

/// The result manifests (not comparisons) in a folder, by base name.
std::set<std::string> manifestNames(const fs::path& dir) {
    std::set<std::string> names;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        if (!e.is_regular_file() || e.path().extension() != ".json") continue;
        std::ifstream in(e.path());
        const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
        if (!j.is_discarded() && isManifest(j) && j["mode"] != "compare")
            names.insert(e.path().stem().string());
    }
    return names;
}

std::string joined(const std::set<std::string>& names) {
    std::string s;
    for (const std::string& n : names)
        s += (s.empty() ? "" : ", ") + n;
    return s;
}

/// The folder of `where` to compare from: `where` when it holds results (a run's folder),
/// else its newest run (an --out folder) other than a comparison, named `wanted` if given.
fs::path comparedFolder(const fs::path& where, const std::string& wanted) {
    if (!manifestNames(where).empty()) return where;
    for (const FolderEntry& e : runsIn(where))
        if (!e.folder.empty() && e.mode != "compare" && (wanted.empty() || e.name == wanted))
            return where / e.folder;
    return where;
}

/// Picks the two results: a manifest path is taken as is; a folder is a run's folder or an
/// --out folder (then its newest run); in a folder, the result named by --result, else the
/// only one, else the only name both folders share.
std::pair<StoredResult, StoredResult> locate(const std::string& a, const std::string& b,
                                             const std::string& wanted) {
    std::set<std::string> names[2];
    fs::path where[2] = {a, b};
    for (int i = 0; i < 2; ++i) {
        std::error_code ec;
        if (!fs::exists(where[i], ec))
            throw UsageError(
                fmt::format("'{}' does not exist (an --out folder, a run's folder or a "
                            "<name>.json)",
                            where[i].string()));
        if (fs::is_directory(where[i], ec)) {
            where[i] = comparedFolder(where[i], wanted);
            names[i] = manifestNames(where[i]);
            if (names[i].empty())
                throw UsageError(fmt::format(
                    "no readable result manifest (<name>.json) in '{}' nor in a run's folder in "
                    "it{}",
                    where[i].string(), wanted.empty() ? "" : " named " + wanted));
        }
    }
    std::string common = wanted;
    if (common.empty() && !names[0].empty() && !names[1].empty()) {
        std::set<std::string> both;
        for (const std::string& n : names[0])
            if (names[1].count(n)) both.insert(n);
        if (names[0].size() == 1 && names[1].size() == 1) {
            // one result each: compare them even if their names differ
        } else if (both.size() == 1) {
            common = *both.begin();
        } else {
            throw UsageError(fmt::format(
                "the folders hold several results ({} | {}): choose one with --result=NAME or "
                "give the <name>.json files",
                joined(names[0]), joined(names[1])));
        }
    }
    auto pick = [&](int i) {
        if (names[i].empty()) return readManifest(where[i]);  // a manifest file
        const std::string n = !common.empty() ? common : *names[i].begin();
        if (!names[i].count(n))
            throw UsageError(fmt::format("no result '{}' in '{}' (it holds: {})", n,
                                         where[i].string(), joined(names[i])));
        return readManifest(where[i] / (n + ".json"));
    };
    return {pick(0), pick(1)};
}

/// Count keys results had before the one vocabulary of the metric catalogue (`jobs_posted`,
/// `jobs_expired`, ...): their figures would not meet the new ones, so such a result is
/// refused rather than compared key by key with nothing in common.
constexpr const char* kRetiredKeys[] = {"jobs_total",     "jobs_doubled", "deadline_misses",
                                        "deadline_drops", "missed_jobs",  "repeated_jobs",
                                        "posted",         "submitted"};

/// The first retired key found in `j` (objects, and the first element of an array), or "".
std::string retiredKeyIn(const nlohmann::json& j) {
    if (j.is_array()) return j.empty() ? std::string() : retiredKeyIn(j.front());
    if (!j.is_object()) return {};
    for (const auto& [key, value] : j.items()) {
        for (const char* retired : kRetiredKeys)
            if (key == retired) return key;
        if (std::string found = retiredKeyIn(value); !found.empty()) return found;
    }
    return {};
}

void refuseOldVocabulary(const StoredResult& s) {
    if (const std::string key = retiredKeyIn(s.result()); !key.empty())
        throw UsageError(fmt::format(
            "'{}' was written by an older stressrig (its result has '{}', a count name since "
            "replaced by the jobs_* names, and CSV headers of another convention); compare "
            "reads results of this version only: run both again",
            (s.directory / (s.name + ".json")).string(), key));
}

/// Result keys that name the graph: results on different graphs are not comparable.
constexpr const char* kGraphKeys[] = {"pattern", "rules", "nodes", "seed"};

void checkComparable(const StoredResult& a, const StoredResult& b) {
    if (a.mode() != b.mode())
        throw UsageError(fmt::format(
            "different modes: '{}' is --mode={}, '{}' is --mode={}; only results of one mode "
            "compare",
            a.name, a.mode(), b.name, b.mode()));
    if (a.mode() == "compare") throw UsageError("comparisons cannot be compared again");
    refuseOldVocabulary(a);
    refuseOldVocabulary(b);
    for (const char* k : kGraphKeys) {
        const nlohmann::json& ra = a.result();
        const nlohmann::json& rb = b.result();
        const nlohmann::json va = ra.contains(k) ? ra.at(k) : nlohmann::json(nullptr);
        const nlohmann::json vb = rb.contains(k) ? rb.at(k) : nlohmann::json(nullptr);
        if (va != vb)
            throw UsageError(fmt::format("different graphs: {} {} in '{}' but {} in '{}'", k,
                                         valueText(va), a.name, valueText(vb), b.name));
    }
}

/// Per-repetition tables of a mode: which CSV holds one row per repetition, which of its
/// columns are measurements, and (when repetitions were made at several settings) the
/// column of the setting: only repetitions at a setting both results have are compared.
struct RepeatedSource {
    const char* mode;
    const char* suffix;
    std::vector<std::string> columns;
    const char* groupBy = nullptr;
    const char* unit = "rep";  ///< what one row is
};

const std::vector<RepeatedSource>& repeatedSources() {
    // the figures' columns as the run and breaking-point modes write them
    const auto figure = [](std::string_view name) { return MetricCatalogue::csvHeader(name); };
    static const std::vector<RepeatedSource> sources{
        {"run",
         "-reps",
         {figure("runtime"), "delta ms", figure("efficiency"), "avg concurrency",
          figure("lateness_p50"), figure("lateness_p99")}},
        {"breaking-point", "-runs", {figure("runtime"), "delta ms"}, "stress", "run"},
    };
    return sources;
}

/// A figure of the comparison: 4 significant digits in fixed notation, alike in a column
/// (28000 and 4829, never 2.8e+04 beside 4829).
std::string num(double v) {
    return textOr(v, [](double x) { return formatSignificant(x, 4); });
}

std::string signedPercent(double v) {
    return textOr(v, [](double x) { return fmt::format("{:+.1f} %", x); });
}

/// The values of a column of a result's CSV by setting (one group, key 0, without
/// `groupBy`); empty when the file or the column is absent.
std::map<double, std::vector<double>> columnOf(const StoredResult& s, const std::string& suffix,
                                               const std::string& column, const char* groupBy) {
    const std::string file = s.name + suffix + ".csv";
    if (!s.lists(file)) return {};
    CsvTable t;
    try {
        t = CsvTable::readFile(s.directory / file);
    } catch (const std::exception& e) {
        throw UsageError(
            fmt::format("cannot read '{}': {}", (s.directory / file).string(), e.what()));
    }
    // the file is there but not the column: written under another header convention
    for (const std::string& wanted : {column, std::string(groupBy ? groupBy : "")})
        if (!wanted.empty() && !t.hasColumn(wanted))
            throw UsageError(fmt::format(
                "'{}' has no column '{}': written by an older stressrig, whose CSV headers "
                "differ; compare reads results of this version only: run both again",
                (s.directory / file).string(), wanted));
    std::map<double, std::vector<double>> groups;
    for (std::size_t i = 0; i < t.rowCount(); ++i)
        groups[groupBy ? t.number(i, groupBy) : 0.0].push_back(t.number(i, column));
    return groups;
}

class CompareMode final : public Mode {
  public:
    std::string_view name() const override { return "compare"; }
    bool measures() const override { return false; }  // it reads two stored results
    std::vector<FigureSource> figures() const override {
        return {{"beyond_noise"}, {"within_noise"}};
    }
    std::string_view summary() const override {
        return "compares two results of one mode (stressrig compare DIR_A DIR_B): table, "
               "picture, noise judgement";
    }
    void declare(OptionTable& t) override {
        t.group("Compare");
        t.text("baseline", baseline_, "DIR",
               "the result to compare against (A): an --out folder (its newest run), a run's "
               "folder or its <name>.json");
        t.text("candidate", candidate_, "DIR",
               "the result compared with it (B): an --out folder (its newest run), a run's "
               "folder or its <name>.json");
        t.text("result", result_, "NAME",
               "which result when a folder holds several (its <NAME>.json); in an --out "
               "folder, the newest run of that name");
        t.number("alpha", alpha_, 0.0001, 0.5,
                 "significance level of the Mann-Whitney U test on repeated measurements");
    }
    void validate(const OptionTable&) override {
        if (baseline_.empty() || candidate_.empty())
            throw UsageError(
                "compare needs two results: stressrig compare DIR_A DIR_B (or --mode=compare "
                "--baseline=DIR_A --candidate=DIR_B)");
    }
    ModeResult run(RunContext& ctx) override;

  private:
    std::vector<std::string> textLines(const StoredResult& a, const StoredResult& b,
                                       const std::vector<MetricRow>& rows,
                                       const ComparisonTally& tally,
                                       const std::vector<std::string>& configDiffs) const;
    std::string verdict(const std::string& mode, const std::vector<MetricRow>& rows,
                        const ComparisonTally& tally) const;
    nlohmann::json resultJson(const StoredResult& a, const StoredResult& b,
                              const std::vector<MetricRow>& rows, const ComparisonTally& tally,
                              const std::vector<std::string>& configDiffs) const;
    CsvTable resultTable(const StoredResult& a, const StoredResult& b,
                         const std::vector<MetricRow>& rows) const;
    GnuplotScript changePlot(const CsvTable& chart, const StoredResult& a, const StoredResult& b,
                             const std::string& mode) const;

    std::string baseline_;
    std::string candidate_;
    std::string result_;
    double alpha_ = 0.05;
};

/// The backends a result ran, in --backends order ("pullsched" for a result without the key).
std::vector<std::string> backendsOf(const StoredResult& s) {
    const nlohmann::json c = s.envelope.value("configuration", nlohmann::json::object());
    const std::string list = c.contains("backends") && c["backends"].is_string()
                                 ? c["backends"].get<std::string>()
                                 : std::string("pullsched");
    std::vector<std::string> out;
    std::size_t from = 0;
    for (std::size_t at = list.find(',');; at = list.find(',', from)) {
        out.push_back(list.substr(from, at == std::string::npos ? std::string::npos : at - from));
        if (at == std::string::npos) break;
        from = at + 1;
    }
    return out;
}

/// The file suffix of `backend`'s per-rep table: the first of a result's backends has the
/// plain names, the others `-<backend>` before the table's suffix.
std::string backendSuffix(const StoredResult& s, const std::string& backend) {
    const std::vector<std::string> all = backendsOf(s);
    return !all.empty() && all.front() == backend ? std::string() : "-" + backend;
}

/// The repeated measurements both results hold (per-rep CSV files of their mode), one row
/// per backend both ran, column and setting; a setting only one result tried is left out.
std::vector<MetricRow> repeatedRows(const StoredResult& a, const StoredResult& b, double alpha) {
    std::vector<std::string> shared;
    const std::vector<std::string> inB = backendsOf(b);
    for (const std::string& backend : backendsOf(a))
        if (std::find(inB.begin(), inB.end(), backend) != inB.end()) shared.push_back(backend);
    std::vector<MetricRow> rows;
    for (const RepeatedSource& src : repeatedSources()) {
        if (a.mode() != src.mode) continue;
        for (const std::string& backend : shared)
            for (const std::string& column : src.columns) {
                const std::string named = shared.size() > 1 ? backend + ": " : std::string();
                const auto ga =
                    columnOf(a, backendSuffix(a, backend) + src.suffix, column, src.groupBy);
                const auto gb =
                    columnOf(b, backendSuffix(b, backend) + src.suffix, column, src.groupBy);
                for (const auto& [setting, va] : ga) {
                    const auto vb = gb.find(setting);
                    if (vb == gb.end()) continue;  // a setting only one result tried
                    const std::string metric =
                        src.groupBy ? fmt::format("{}{} at {} {:.4g} (per {})", named, column,
                                                  src.groupBy, setting, src.unit)
                                    : fmt::format("{}{} (per {})", named, column, src.unit);
                    MetricRow row = repeatedRow(metric, va, vb->second, alpha);
                    if (row.nA == 0 && row.nB == 0) continue;  // not measured in either
                    rows.push_back(std::move(row));
                }
            }
    }
    return rows;
}

/// "<dir>/<name>.json (<date>, commit <commit>)".
std::string describe(const StoredResult& s) {
    const nlohmann::json& env = s.envelope.value("environment", nlohmann::json::object());
    return fmt::format("{} ({}, commit {})", (s.directory / (s.name + ".json")).string(),
                       env.value("date", std::string("date unknown")),
                       env.value("commit", std::string("unknown")));
}

nlohmann::json configurationOf(const StoredResult& s) {
    return s.envelope.value("configuration", nlohmann::json::object());
}

/// The changes in percent of the differing rows, for the bar chart: row number, metric,
/// change, class (the ChangeClass as a number: better, worse, changed, within the noise,
/// no judgement), each in the direction in which its metric is better.
CsvTable changeChart(const std::vector<MetricRow>& rows) {
    CsvTable chart({"row"});
    chart.addColumn("metric", CsvTable::Kind::Text);
    chart.addColumn("change %");
    chart.addColumn("class");
    for (const MetricRow& r : rows) {
        const double change = r.changePercent();
        if (!r.differs() || !std::isfinite(change)) continue;
        const ChangeClass cls = changeClassOf(r.judgement, change, betterDirectionOf(r.metric));
        chart.addRow({double(chart.rowCount() + 1), r.metric, change, double(cls)});
    }
    return chart;
}

ModeResult CompareMode::run(RunContext&) {
    // measure: read both results back
    const auto [a, b] = locate(baseline_, candidate_, result_);
    checkComparable(a, b);
    std::vector<MetricRow> rows = repeatedRows(a, b, alpha_);
    for (MetricRow& r : singleRows(a.result(), b.result()))
        rows.push_back(std::move(r));
    // analyse
    const ComparisonTally tally = tallyRows(rows);
    const std::vector<std::string> configDiffs =
        configurationDifferences(configurationOf(a), configurationOf(b));
    // present
    ModeResult res;
    res.name = "compare-" + b.name;
    res.text = textLines(a, b, rows, tally, configDiffs);
    res.verdict = verdict(a.mode(), rows, tally);
    if (a.envelope.value("partial", false) || b.envelope.value("partial", false))
        res.warnings.push_back(
            "a compared result is partial (interrupted): its figures cover "
            "only what was measured before the stop");
    if (!configDiffs.empty())
        res.warnings.push_back(
            fmt::format("the configurations differ in {} option{}: a difference may come "
                        "from them",
                        configDiffs.size(), configDiffs.size() == 1 ? "" : "s"));
    res.result = resultJson(a, b, rows, tally, configDiffs);
    const CsvTable chart = changeChart(rows);
    if (chart.rowCount() > 0) res.plots.push_back({"", changePlot(chart, a, b, a.mode())});
    res.tables.push_back({"", resultTable(a, b, rows)});
    return res;
}

std::vector<std::string> CompareMode::textLines(const StoredResult& a, const StoredResult& b,
                                                const std::vector<MetricRow>& rows,
                                                const ComparisonTally& tally,
                                                const std::vector<std::string>& configDiffs) const {
    std::vector<std::string> text;
    text.push_back(fmt::format("stressrig compare: --mode={} results", a.mode()));
    text.push_back("  A  " + describe(a));
    text.push_back("  B  " + describe(b));
    text.push_back(configDiffs.empty()
                       ? std::string("  configuration: the same")
                       : fmt::format("  configuration differs: {}", fmt::join(configDiffs, "; ")));
    text.push_back(fmt::format(
        "  repeated measurements: two-sided Mann-Whitney U test, alpha {}; values measured "
        "once: no judgement possible",
        alpha_));
    text.push_back(fmt::format("  {:<34} {:>11} {:>11} {:>9} {:>9}  {}", "metric", "A", "B",
                               "change", "p", "judgement"));
    for (const MetricRow& r : rows) {
        if (!r.differs()) continue;
        text.push_back(fmt::format("  {:<34} {:>11} {:>11} {:>9} {:>9}  {}", r.metric,
                                   r.kind == "repeated" ? num(r.a) + "~" : num(r.a),
                                   r.kind == "repeated" ? num(r.b) + "~" : num(r.b),
                                   signedPercent(r.changePercent()), num(r.pValue),
                                   r.judgementText));
    }
    text.push_back(fmt::format(
        "  (~ = median of the reps; {} further values are the same in both or missing in both; "
        "all rows in the CSV)",
        tally.same));
    const std::size_t tested = tally.beyond + tally.within;
    if (tested > 1)
        text.push_back(fmt::format(
            "  note: {} tests at alpha {}: about {:.1f} of them are expected beyond the noise by "
            "chance alone even when nothing changed",
            tested, alpha_, tested * alpha_));
    return text;
}

std::string CompareMode::verdict(const std::string& mode, const std::vector<MetricRow>& rows,
                                 const ComparisonTally& tally) const {
    std::string verdict;
    if (tally.beyond > 0) {
        std::string which;
        for (const MetricRow& r : rows)
            if (r.judgement == Judgement::Beyond)
                which += fmt::format("{}{} {}", which.empty() ? "" : ", ", r.metric,
                                     signedPercent(r.changePercent()));
        verdict = fmt::format(
            "B differs from A beyond the noise in {} of {} repeated "
            "measurements: {}",
            tally.beyond, tally.beyond + tally.within, which);
    } else if (tally.within > 0) {
        verdict =
            fmt::format("no repeated measurement differs beyond the noise ({} tested at alpha {})",
                        tally.within, alpha_);
    } else {
        verdict =
            "no repeated measurements to test: differences of single values cannot be "
            "judged";
        // both modes with per-repetition tables take --reps
        for (const RepeatedSource& src : repeatedSources())
            if (mode == src.mode)
                verdict += fmt::format(" (give both runs --reps=5 or more for a judgement per {})",
                                       src.unit);
    }
    return verdict +
           fmt::format("; {} single values differ (no judgement possible)", tally.differing);
}

nlohmann::json CompareMode::resultJson(const StoredResult& a, const StoredResult& b,
                                       const std::vector<MetricRow>& rows,
                                       const ComparisonTally& tally,
                                       const std::vector<std::string>& configDiffs) const {
    nlohmann::json metrics = nlohmann::json::array();
    for (const MetricRow& r : rows)
        metrics.push_back({{"metric", r.metric},
                           {"kind", r.kind},
                           {"n_a", r.nA},
                           {"n_b", r.nB},
                           {"a", jsonNumber(r.a)},
                           {"b", jsonNumber(r.b)},
                           {"difference", jsonNumber(r.difference())},
                           {"change_percent", jsonNumber(r.changePercent())},
                           {"p_value", jsonNumber(r.pValue)},
                           {"judgement", r.judgementText}});
    nlohmann::json j;
    j["compared_mode"] = a.mode();
    j["baseline"] = {{"directory", a.directory.string()}, {"name", a.name}};
    j["candidate"] = {{"directory", b.directory.string()}, {"name", b.name}};
    j["alpha"] = alpha_;
    j["beyond_noise"] = tally.beyond;
    j["within_noise"] = tally.within;
    j["single_values_differing"] = tally.differing;
    j["configuration_differences"] = configDiffs;
    j["metrics"] = metrics;
    return j;
}

CsvTable CompareMode::resultTable(const StoredResult& a, const StoredResult& b,
                                  const std::vector<MetricRow>& rows) const {
    CsvTable table;
    table.addColumn("metric", CsvTable::Kind::Text);
    table.addColumn("kind", CsvTable::Kind::Text);
    for (const char* c : {"n A", "n B", "A", "B", "difference", "change %", "p value"})
        table.addColumn(c);
    table.addColumn("judgement", CsvTable::Kind::Text);
    for (const MetricRow& r : rows)
        table.addRow({r.metric, r.kind, double(r.nA), double(r.nB), r.a, r.b, r.difference(),
                      r.changePercent(), r.pValue, r.judgementText});
    table.setComment("baseline (A)", (a.directory / (a.name + ".json")).string());
    table.setComment("candidate (B)", (b.directory / (b.name + ".json")).string());
    table.setComment("A, B", "medians for repeated measurements; change % = (B - A) / |A|");
    table.setComment("test", fmt::format("two-sided Mann-Whitney U, alpha {}", alpha_));
    return table;
}

/// How many change classes the chart holds: one legend line each, below the x label.
std::size_t classesIn(const CsvTable& chart) {
    std::set<double> classes;
    for (std::size_t i = 0; i < chart.rowCount(); ++i)
        classes.insert(chart.number(i, "class"));
    return classes.size();
}

/// One bar series per change class present, coloured by it; the classes beyond the
/// noise name the test's level.
std::string changeBars(const CsvTable& chart, double alpha) {
    std::string bars;
    for (const ChangeClass cls : {ChangeClass::Better, ChangeClass::Worse, ChangeClass::Changed,
                                  ChangeClass::WithinNoise, ChangeClass::NoJudgement}) {
        const auto k = static_cast<double>(cls);
        bool present = false;
        for (std::size_t i = 0; i < chart.rowCount(); ++i)
            present = present || chart.number(i, "class") == k;
        if (!present) continue;
        const bool beyond =
            cls == ChangeClass::Better || cls == ChangeClass::Worse || cls == ChangeClass::Changed;
        const std::string legend =
            std::string(changeLegend(cls)) + (beyond ? fmt::format(" (p < {})", alpha) : "");
        bars += fmt::format(
            ", \\\n     $RunData using (bar(column(3), {}) / 2):1:(abs(column(3)) / 2):(0.35) "
            "with boxxyerror lc rgb '{}' title {}",
            k, changeColour(cls), GnuplotScript::quoteGp(legend));
    }
    return bars;
}

GnuplotScript CompareMode::changePlot(const CsvTable& chart, const StoredResult& a,
                                      const StoredResult& b, const std::string& mode) const {
    PlotOptions po;
    po.title = fmt::format("--mode={}: B = {} against A = {}", mode,
                           (b.directory / b.name).string(), (a.directory / a.name).string());
    po.width = 1200;
    // the title is centred over the bars, right of the 40-character label margin
    po.titleWrap = 110;
    po.height = std::max(500, 120 + 22 * static_cast<int>(chart.rowCount()));
    const std::string commands = fmt::format(
        "set title {}\n"
        "set xlabel 'change of B against A (%), medians for repeated measurements'\n"
        "set yrange [{}:0.4]\n"
        "set ytics nomirror\nunset y2tics\nset grid xtics\nset xzeroaxis lt -1\n"
        "set style fill solid 0.7 border -1\n"
        "set bmargin {}\nset key at screen 0.5, 0.01 center bottom vertical\n"
        "set lmargin 40\n"
        "bar(c, k) = (column(4) == k ? c : NaN)\n"
        "plot $RunData using (0):1:ytic(2) with dots lc rgb 'white' notitle{}\n",
        GnuplotScript::kTitle, chart.rowCount() + 0.6, 4 + classesIn(chart),
        changeBars(chart, alpha_));
    return GnuplotScript::custom(chart, commands, po);
}
}  // namespace

std::unique_ptr<Mode> makeCompareMode() {
    return std::make_unique<CompareMode>();
}

}  // namespace pullsched::rig
