// The result envelope of every mode keeps every key it had: each case runs the binary on a
// tiny configuration and compares the envelope's key paths with a recorded baseline
// (tests/stressrig/mode_json_keys/<case>.txt, its first line names the commit). A key may be added,
// never lost. Key paths are flattened: `verdict.throughput_cause`, arrays as `[]`
// (`result.backends[].name`). The baselines hold the keys present in every one of three
// recordings (one beside CPU load), so keys that only some outcomes write are left out;
// keys below a field that is null or an empty array in this run count as kept (the field
// is there, its value missing, as the rig writes a value it could not measure).
//
// To record: PULLSCHED_RECORD_JSON_KEYS=DIR writes each case's current keys to DIR/<case>.txt;
// a baseline is the lines common to three such recordings (tools/ci/record-json-keys.sh).
//
// The same runs hold the CSV files and the envelope to the metric catalogue: a column named
// like a figure carries the catalogue's header for it (report/FigureLookalikes.hpp lists
// the few that hold another quantity), and every figure the mode declares for `--check` is
// found in the envelope where the mode says, under the catalogue's key.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "RigTestSupport.hpp"
#include "cli/CheckOptions.hpp"
#include "cli/OptionTable.hpp"
#include "modes/Mode.hpp"
#include "report/CsvTable.hpp"
#include "report/FigureLookalikes.hpp"
#include "report/MetricCatalogue.hpp"
#include "report/ResultCheck.hpp"

using nlohmann::json;
namespace fs = std::filesystem;
using namespace pullsched::rig;

namespace {

struct KeyCase {
    std::string name;
    std::vector<std::string> before;  // runs that write what the case reads (compare)
    std::string args;
};

// Names the case in GoogleTest's messages instead of a byte dump.
void PrintTo(const KeyCase& c, std::ostream* os) {
    *os << c.name;
}

// Small graphs and short durations: the whole file takes seconds, not minutes.
const std::string kRun = "--mode=run --pattern=burst --nodes=16 --load=20us --workers=2 --reps=2";
const std::string kAll = " --backends=all";
const std::string kBp = "--mode=breaking-point --nodes=8 --reps=2 --load=100us --workers=2";
const std::string kPr =
    "--mode=param-range --pattern=isolated --from=4 --to=12 --points=3 --load=100us --workers=2";
const std::string kOpen =
    "--mode=open --rate=500 --duration=200ms --warmup=50ms --load=50us --workers=2";
const std::string kGran =
    "--mode=granularity --graphs=isolated:32 --min-size=1us --max-size=4us --step=2 --reps=2 "
    "--workers=2";

const std::string kSpawn = "--mode=spawn --shapes=fib:10,skynet:2 --reps=2";
const std::string kClosed = "--mode=closed --users=2 --duration=300ms --warmup=100ms --load=100us";
const std::string kSweep =
    "--mode=sweep --workers=1,2 --from=200/s --to=400/s --step=200/s --hold=150ms "
    "--warmup=20ms --load=100us";
const std::string kSoak =
    "--mode=soak --rate=500 --duration=800ms --interval=100ms --load=100us --warmup=0s";
const std::string kHeadroom =
    "--mode=headroom --max-copies=2 --copy-work=20ms --workers=1 --load=200us --hold=100ms "
    "--warmup=10ms";

const std::vector<KeyCase>& keyCases() {
    static const std::vector<KeyCase> cases{
        {"run", {}, kRun},
        {"run-backends-all", {}, kRun + kAll},
        {"topology", {}, "--mode=topology --pattern=burst --nodes=16"},
        {"breaking-point", {}, kBp},
        {"breaking-point-backends-all", {}, kBp + kAll},
        {"param-range", {}, kPr},
        {"param-range-backends-all", {}, kPr + kAll},
        {"open", {}, kOpen},
        {"open-backends-all", {}, kOpen + kAll},
        {"closed", {}, kClosed},
        {"closed-backends-all", {}, kClosed + kAll},
        {"sweep", {}, kSweep},
        {"sweep-backends-all", {}, kSweep + kAll},
        {"pipeclean", {}, "--mode=pipeclean"},
        {"pipeclean-backends-all", {}, "--mode=pipeclean" + kAll},
        {"soak", {}, kSoak},
        {"soak-backends-all", {}, kSoak + kAll},
        {"headroom", {}, kHeadroom},
        {"headroom-backends-all", {}, kHeadroom + kAll},
        {"spawn", {}, kSpawn},
        {"spawn-backends-all", {}, kSpawn + kAll},
        {"granularity", {}, kGran},
        {"granularity-backends-all", {}, kGran + kAll},
        {"compare", {kRun + " --out=a", kRun + " --out=b"}, "compare a b"},
        {"compare-backends-all",
         {kRun + kAll + " --out=a", kRun + kAll + " --out=b"},
         "compare a b"},
    };
    return cases;
}

/// Every key path of `j` below `prefix`: an object's members by name, an array's elements
/// under `[]` (their keys merged), scalars and nulls end a path. `empty` gets the paths
/// whose value is null or an empty array: a missing value there (a probe that did not
/// happen on a busy machine) still keeps its field, so the keys below it are not lost.
void collectKeys(const json& j, const std::string& prefix, std::set<std::string>& keys,
                 std::set<std::string>& empty) {
    if ((j.is_null() || (j.is_array() && j.empty())) && !prefix.empty()) empty.insert(prefix);
    if (j.is_object()) {
        for (const auto& [key, value] : j.items()) {
            const std::string path = prefix.empty() ? key : prefix + "." + key;
            keys.insert(path);
            collectKeys(value, path, keys, empty);
        }
    } else if (j.is_array()) {
        for (const auto& element : j)
            collectKeys(element, prefix + "[]", keys, empty);
    }
}

/// `key` is below a path whose value is null or an empty array.
bool belowEmpty(const std::string& key, const std::set<std::string>& empty) {
    for (std::size_t cut = key.find_first_of(".["); cut != std::string::npos;
         cut = key.find_first_of(".[", cut + 1))
        if (empty.contains(key.substr(0, cut))) return true;
    return false;
}

std::set<std::string> readKeys(const fs::path& file) {
    std::ifstream in(file);
    std::set<std::string> keys;
    for (std::string line; std::getline(in, line);)
        if (!line.empty() && line.front() != '#') keys.insert(line);
    return keys;
}

/// `args` as this build can run them: a TSan build leaves oneTBB and OpenMP out (see
/// rigtest::skipUnderThreadSanitizer), so "all" names the other backends there.
std::string runnable(std::string args) {
    const std::string all = "--backends=all";
    if (const auto at = args.find(all);
        at != std::string::npos && rigtest::skipUnderThreadSanitizer("tbb"))
        args.replace(at, all.size(), "--backends=pullsched,asio,pool");
    return args;
}

/// Whether `key` belongs to a backend this build leaves out (a path segment names it).
bool leftOut(const std::string& key) {
    for (const std::string backend : {"tbb", "openmp"})
        if (rigtest::skipUnderThreadSanitizer(backend) &&
            (key.find("." + backend + ".") != std::string::npos || key.ends_with("." + backend)))
            return true;
    return false;
}

class ModeJsonKeys : public testing::TestWithParam<KeyCase> {};

TEST_P(ModeJsonKeys, EnvelopeKeepsEveryBaselineKey) {
    const KeyCase& c = GetParam();
    const fs::path dir = rigtest::scratch("json-keys", c.name);
    for (const auto& args : c.before) {
        const auto r = rigtest::rig(runnable(args) + " --no-render --quiet", dir);
        ASSERT_EQ(r.code, 0) << args << "\n" << r.err;
    }
    const auto r =
        rigtest::rig(runnable(c.args) + " --no-render --quiet --out=keys --name=keys", dir);
    ASSERT_EQ(r.code, 0) << c.args << "\n" << r.err;
    std::set<std::string> current, empty;
    collectKeys(rigtest::fileEnvelope(rigtest::latestRun(dir / "keys") / "keys.json"), "", current,
                empty);
    ASSERT_FALSE(current.empty()) << c.args;

    if (const char* record = std::getenv("PULLSCHED_RECORD_JSON_KEYS")) {
        std::ofstream out(fs::path(record) / (c.name + ".txt"));
        for (const auto& key : current)
            out << key << "\n";
    }

    const fs::path baselineFile = fs::path(PULLSCHED_SOURCE_DIR) / "tests" / "stressrig" /
                                  "mode_json_keys" / (c.name + ".txt");
    const std::set<std::string> baseline = readKeys(baselineFile);
    ASSERT_FALSE(baseline.empty()) << "no baseline in " << baselineFile;
    std::string missing;
    for (const auto& key : baseline)
        if (!current.contains(key) && !belowEmpty(key, empty) && !leftOut(key))
            missing += "\n  " + key;
    EXPECT_TRUE(missing.empty()) << "stressrig " << c.args << ": the envelope lost" << missing;
    fs::remove_all(dir);
}

/// A header or a figure's name as words without their unit: `lateness_p99_us`,
/// `p99 lateness us` and `p99 lateness [µs]` become `lateness p99` and `p99 lateness`.
std::string wordsOf(std::string_view text) {
    std::string s;
    for (char c : text)
        s += c == '_' ? ' ' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (std::string_view unit :
         {"mib per h", "mib/h", "per s", "/s", "us", "µs", "ms", "mib", "percent", "%"})
        for (const std::string& written : {" " + std::string(unit), " [" + std::string(unit) + "]",
                                           " (" + std::string(unit) + ")"})
            if (s.ends_with(written)) return s.substr(0, s.size() - written.size());
    return s;
}

/// The figure a CSV header is named after (by its check name, key, CSV words or label),
/// nullptr if none.
const Metric* figureNamedBy(std::string_view header) {
    const std::string words = wordsOf(header);
    for (const Metric& m : MetricCatalogue::all())
        for (std::string_view name : {m.name, m.key, m.csvWords, m.label})
            if (!name.empty() && wordsOf(name) == words) return &m;
    return nullptr;
}

bool lookalike(std::string_view header) {
    return std::any_of(kFigureLookalikes.begin(), kFigureLookalikes.end(),
                       [&](const FigureLookalike& l) { return l.header == header; });
}

/// What a CSV file's figure columns break: a header that is not the catalogue's (its words
/// and unit, the one convention of every table). Empty when every figure column is right.
std::string figureHeaderProblems(const CsvTable& t) {
    std::string problems;
    for (const CsvTable::Column& c : t.columns()) {
        const Metric* m = figureNamedBy(c.name);
        if (m == nullptr || lookalike(c.name)) continue;
        if (const std::string header = MetricCatalogue::csvHeader(*m); header != c.name)
            problems += "\n  '" + c.name + "' names " + std::string(m->name) +
                        " but is not its catalogue header '" + header + "'";
    }
    return problems;
}

/// A condition every value of the figure meets, in a unit its dimension takes.
std::string alwaysTrue(const Metric& m) {
    static constexpr std::pair<Dimension, const char*> kUnits[] = {
        {Dimension::Duration, "us"},
        {Dimension::Percent, "%"},
        {Dimension::Memory, "MiB"},
        {Dimension::MemoryGrowth, "MiB/h"}};
    std::string unit;
    for (const auto& [d, u] : kUnits)
        if (d == m.dimension) unit = u;
    return std::string(m.name) + "!=-1" + unit;
}

/// The mode a case runs (`--mode=NAME`, or the first word: `compare a b`) with the case's
/// options parsed, as the rig has it when it reads --check: what it declares may depend
/// on them (run with --backends=all).
std::unique_ptr<Mode> modeOf(const std::string& args) {
    std::vector<std::string> options;
    std::string name;
    bool positional = false;
    for (std::size_t at = 0; at < args.size();) {
        const std::size_t end = std::min(args.find(' ', at), args.size());
        const std::string word = args.substr(at, end - at);
        if (word.starts_with("--mode="))
            name = word.substr(7);
        else if (word.starts_with("--"))
            options.push_back(word);
        else if (name.empty())
            name = word;
        else
            positional = true;
        at = end + 1;
    }
    for (auto& m : makeModes())
        if (m->name() == name) {
            OptionTable table;
            m->declare(table);
            table.parse(options);
            // `compare a b` names its results by position, which validate() wants as
            // options; what compare declares does not depend on them
            if (!positional) m->validate(table);
            return std::move(m);
        }
    return nullptr;
}

TEST_P(ModeJsonKeys, CsvHeadersAndFiguresComeFromTheCatalogue) {
    const KeyCase& c = GetParam();
    const fs::path dir = rigtest::scratch("csv-figures", c.name);
    for (const auto& args : c.before) {
        const auto r = rigtest::rig(runnable(args) + " --no-render --quiet", dir);
        ASSERT_EQ(r.code, 0) << args << "\n" << r.err;
    }
    const auto r = rigtest::rig(runnable(c.args) + " --no-render --quiet --out=f --name=f", dir);
    ASSERT_EQ(r.code, 0) << c.args << "\n" << r.err;

    for (const auto& entry : fs::directory_iterator(dir / "f")) {
        if (entry.path().extension() != ".csv") continue;
        const std::string problems = figureHeaderProblems(CsvTable::readFile(entry.path()));
        EXPECT_TRUE(problems.empty()) << entry.path().filename() << ":" << problems;
    }

    const std::unique_ptr<Mode> mode = modeOf(runnable(c.args));
    ASSERT_NE(mode, nullptr) << c.args;
    const json result =
        rigtest::fileEnvelope(rigtest::latestRun(dir / "f") / "f.json").at("result");
    for (const FigureSource& f : mode->figures()) {
        const Metric* m = MetricCatalogue::find(f.metric);
        ASSERT_NE(m, nullptr) << f.metric;
        const std::string path(f.path.empty() ? m->key : f.path);
        // a figure is stored under its key (or nested key); a ratio of two stored
        // counts (`a/b`) is derived from them
        const bool underKey =
            path.find('/') != std::string::npos ||
            ("." + path + ".").find("." + std::string(m->key) + ".") != std::string::npos ||
            (!m->nestedKey.empty() && path.ends_with(m->nestedKey));
        EXPECT_TRUE(underKey) << c.name << ": " << m->name << " at " << path
                              << " is not under its catalogue key " << m->key;
        const CheckReport report =
            evaluateChecks(parseChecks(alwaysTrue(*m), std::string(mode->name()), mode->figures()),
                           result, "", BusyPolicy::Warn);
        for (const CheckRow& row : report.rows)
            EXPECT_NE(row.valueText, "not in the result")
                << c.name << ": " << m->name << " at " << path;
    }
    fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(EveryMode, ModeJsonKeys, testing::ValuesIn(keyCases()),
                         [](const testing::TestParamInfo<KeyCase>& info) {
                             std::string name = info.param.name;
                             for (char& ch : name)
                                 if (ch == '-') ch = '_';
                             return name;
                         });

}  // namespace
