#include "CommandLine.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/UsageError.hpp"
#include "format/TextWrap.hpp"
#include "load/StopRequest.hpp"
#include "load/TaskBenchPatterns.hpp"
#include "measure/Environment.hpp"
#include "pullsched/testchain/Presets.hpp"

namespace pullsched::rig {

namespace {

constexpr const char* kDefaultMode = "run";

/// Takes `--mode=X` / `--mode X` out of args; kDefaultMode when absent (then `given` is
/// false).
std::string takeMode(std::vector<std::string>& args, bool& given) {
    std::string mode;
    bool found = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string value;
        std::size_t n = 0;
        if (args[i].rfind("--mode=", 0) == 0) {
            value = args[i].substr(7);
            n = 1;
        } else if (args[i] == "--mode") {
            if (i + 1 >= args.size())
                throw UsageError("invalid --mode: needs a value (--mode=MODE)");
            value = args[i + 1];
            n = 2;
        } else {
            continue;
        }
        if (found) throw UsageError("--mode given more than once");
        found = true;
        mode = value;
        args.erase(args.begin() + static_cast<std::ptrdiff_t>(i),
                   args.begin() + static_cast<std::ptrdiff_t>(i + n));
        --i;
    }
    given = found;
    return found ? mode : kDefaultMode;
}

std::string modeList(const std::vector<std::unique_ptr<Mode>>& modes) {
    std::string s;
    for (const auto& m : modes)
        s += fmt::format("{}{}", s.empty() ? "" : ", ", m->name());
    return s;
}

/// "it is an option of --mode=open, closed" for an option other modes declare.
std::string whoAccepts(std::string_view option, std::string_view current) {
    std::string who;
    for (const auto& m : makeModes()) {
        OptionTable t;
        m->declare(t);
        if (t.declared(option)) who += fmt::format("{}{}", who.empty() ? "" : ", ", m->name());
    }
    if (who.empty()) return {};
    return fmt::format("--mode={} does not use it (it is an option of: {})", current, who);
}

/// The figures --check may name for `mode` as the given options set it up (which figures a
/// mode has can depend on them, e.g. on --backends): name, kind (which decides the units),
/// label; then those it refuses in this setup, with the reason.
std::string figureHelp(const Mode& mode) {
    const std::vector<FigureSource> figures = mode.figures();
    if (figures.empty()) return {};
    constexpr std::size_t kName = 24, kUnit = 15;  // columns of a figure's name and unit
    std::string s = fmt::format(
        "\nFigures --check may name for --mode={} with the options given (FIGURE[SEL] picks a\n"
        "backend, graph or level, e.g. metg[pullsched]; units: duration ns us ms s min h; rate\n"
        "/s k/s /ms Hz, bare = per second; ratio bare, x or %; percent %; count bare; memory KiB\n"
        "MiB GiB; memory growth KiB/h MiB/h GiB/h; a condition that fails exits 4):\n",
        mode.name());
    for (const FigureSource& f : figures) {
        const Metric* m = MetricCatalogue::find(f.metric);
        if (!m) continue;
        const std::string_view kind = MetricCatalogue::nameOf(m->dimension);
        const std::string text = fmt::format("{}{}", m->label,
                                             m->better == Better::Lower    ? ", lower is better"
                                             : m->better == Better::Higher ? ", higher is better"
                                                                           : "");
        s += helpLine(
            fmt::format("  {:<{}}{:<{}}", m->name, kName, kind.substr(kind.find(' ') + 1), kUnit),
            2 + kName + kUnit, text);
    }
    for (const FigureRefusal& r : mode.refusedFigures())
        s += helpLine(fmt::format("  {}", r.metric), 2 + kName,
                      fmt::format("refused here: {}", r.reason));
    return s;
}

}  // namespace

std::unique_ptr<CommandLine> parseCommandLine(const std::vector<std::string>& argsIn) {
    std::vector<std::string> args = argsIn;
    auto cl = std::make_unique<CommandLine>();
    for (const std::string& a : args) {
        if (a == "--help" || a == "-h") cl->action = CommandLine::Action::Help;
        if (a == "--version") cl->action = CommandLine::Action::Version;
    }
    const std::string modeName = takeMode(args, cl->modeGiven);
    for (auto& m : makeModes())
        if (m->name() == modeName) cl->mode = std::move(m);
    if (!cl->mode)
        throw UsageError(
            fmt::format("unknown --mode='{}'; valid: {}", modeName, modeList(makeModes())));
    cl->mode->declare(cl->table);
    cl->output.declare(cl->table);
    cl->checkOptions.declare(cl->table);
    if (cl->action == CommandLine::Action::Help) {
        // The options given shape the mode's figures (see figureHelp); a bad one does not
        // keep the help from being shown.
        std::vector<std::string> rest;
        for (const std::string& a : args)
            if (a != "--help" && a != "-h") rest.push_back(a);
        try {
            cl->table.parse(rest, [](std::string_view) { return std::string{}; });
        } catch (const UsageError&) {
        }
    }
    if (cl->action != CommandLine::Action::Run) return cl;
    cl->table.parse(args, [&](std::string_view o) { return whoAccepts(o, modeName); });
    cl->mode->validate(cl->table);
    cl->checks = cl->checkOptions.parse(modeName, cl->mode->figures(), cl->mode->refusedFigures(),
                                        cl->mode->selectorLabels());
    cl->checkBaseline = cl->checkOptions.baseline(modeName, cl->checks);
    return cl;
}

std::string versionText() {
    const Environment env = Environment::capture();
    return fmt::format("stressrig (pullsched) {}, commit {}, {} build, {}\n", env.version,
                       env.commit, env.buildType, env.compiler);
}

namespace {

/// `--mode=X --help`: what X does and the options X reads, then where the rest is.
std::string modeHelpText(const CommandLine& cl) {
    const std::string title =
        fmt::format("stressrig --mode={}: {}", cl.mode->name(), cl.mode->summary());
    std::string s =
        fmt::format("{}\n\nOptions of --mode={}:", foldText(title, 0, 2), cl.mode->name());
    s += cl.table.help();
    s += figureHelp(*cl.mode);
    s += "\nGeneral help (every mode, patterns, rules, units, result files, exit codes):\n"
         "  stressrig --help\n";
    return s;
}

}  // namespace

std::string helpText(const CommandLine& cl) {
    if (cl.modeGiven) return modeHelpText(cl);
    std::string s;
    s += "stressrig - runs TestChainLoad graphs and load tests on the pullsched scheduler and "
         "measures it\n\n"
         "Usage: stressrig [--mode=MODE] [options]\n"
         "       stressrig --pattern=burst --workers=8        (one scheduled run, results in "
         "out/latest/)\n"
         "       stressrig --mode=MODE --help                 (the options of MODE)\n"
         "       stressrig compare DIR_A DIR_B                (two results of one mode, "
         "side by side)\n\n"
         "Modes (--mode, default run):\n";
    for (const auto& m : makeModes())
        s += helpLine(fmt::format("  {}", m->name()), 18, m->summary());
    s += "\nPatterns (--pattern):\n";
    for (const auto& p : testchain::presetList())
        s += helpLine(fmt::format("  {}", p.name), 14, p.description);
    s += fmt::format(
        "  Task Bench's dependence patterns as NAME:WxS (W points, S timesteps) or NAME:W\n"
        "  (steps from --nodes), with --radix and --imbalance (docs/granularity.md):\n"
        "    {}\n",
        foldText(fmt::format("{}", fmt::join(taskBenchPatternNames(), ", ")), 4, 4));
    s += "\nRules (--rules=SPEC, or --rules=@FILE with one rule per line, '#' comments):\n"
         "  SPEC = RULE:KEY=VAL[,KEY=VAL...] joined by ';' (each key at most once per rule)\n"
         "  RULE   seed | expand | reduce | prune | weight\n"
         "  KEY    p (probability 0..1) | min | max | shuffle[=S] | value (fixed)\n"
         "         | atStart | atJoin | atLink (value only at start / join / link nodes)\n"
         "  e.g.   --rules='expand:p=0.27,max=4;reduce:p=0.44,min=2,max=6;weight:p=0.66,max=3' "
         "--seed=55\n"
         "\nUnits: durations need a unit: ns, us (or µs), ms, s, min, h (e.g. --load=500us);\n"
         "  'm' is rejected as ambiguous. Rates: 1000, 2k/s, 50/ms, 600/min, 10kHz.\n"
         "\nResults: each run in a folder of its own, <out>/<name>-<UTC time>/ (-2, -3, ... "
         "added when\n"
         "  that exists; --out, default out/; base name --name or per mode), written together "
         "or not at all:\n"
         "  <name>.json  the result envelope: configuration, environment, verdict, result, "
         "files\n"
         "  <name>*.csv  measurements; '# key: value' lines carry the configuration; an empty\n"
         "               cell is a missing value\n"
         "  <name>*.gp   self-contained Gnuplot scripts, rendered to .png when gnuplot is "
         "installed\n"
         "  <name>*.dot  graphs (Graphviz), rendered to .svg when dot is installed\n"
         "  <name>.html  the result on one self-contained page: verdict, report, pictures "
         "(inlined), links to\n"
         "               every file; at most 2 MiB (a picture that does not fit is left out "
         "with a note);\n"
         "               index.html is the same page\n"
         "  In <out>: latest links the newest run's folder; index.html lists every run, newest "
         "first,\n"
         "  with its verdict. compare and --check-baseline read an --out folder's newest run, "
         "a run's\n"
         "  folder or a <name>.json.\n"
         "\nExit codes: 0 the measurement was made (overload, misses and drops are results);\n"
         "  1 a correctness failure of the scheduler (a job lost, run twice or failed, a hash "
         "mismatch);\n"
         "  2 bad input (nothing run, nothing written); 3 results could not be written (an\n"
         "  --out that cannot be written is found before the run: then nothing is run);\n"
         "  4 a --check condition failed (the result is written, with the check table);\n"
         "  130 / 143 interrupted by SIGINT / SIGTERM (what was measured is written, marked "
         "partial).\n";
    s += fmt::format(
        "  A stopped run leaves out the files that grow with the graph (per-job tables, their\n"
        "  pictures, the .dot) past {} rows or {} MiB, with a warning, and renders nothing.\n",
        StopRequest::kStoppedRunRows, StopRequest::kStoppedRunBytes >> 20);
    s += fmt::format("\nOptions of --mode={}:", cl.mode->name());
    s += cl.table.help();
    return s + figureHelp(*cl.mode);
}

}  // namespace pullsched::rig
