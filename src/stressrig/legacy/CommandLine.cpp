#include "legacy/CommandLine.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <boost/program_options.hpp>

#include "pullsched/scheduler/Scheduler.hpp"
#include "legacy/Modes.hpp"
#include "legacy/RigSetup.hpp"
#include "report/Units.hpp"
#include "pullsched/testchain/Presets.hpp"

namespace po = boost::program_options;

namespace pullsched::rig {

namespace {

constexpr unsigned kBreakingPointReps = 20;  // the reference's R

std::string trim(std::string s) {
    const auto b = s.find_first_not_of(" \t");
    const auto e = s.find_last_not_of(" \t");
    return b == std::string::npos ? std::string{} : s.substr(b, e - b + 1);
}

std::uint64_t parseU64(const std::string& option, const std::string& text) {
    std::string t = trim(text);
    int base = 10;
    std::string_view digits = t;
    if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
        base = 16;
        digits.remove_prefix(2);
    }
    std::uint64_t v = 0;
    auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, base);
    if (digits.empty() || ec != std::errc{} || p != digits.data() + digits.size())
        throw UsageError(
            fmt::format("invalid --{}='{}': expected a non-negative integer", option, text));
    return v;
}

unsigned parseUnsigned(const std::string& option, const std::string& text, unsigned min,
                       unsigned max) {
    const std::uint64_t v = parseU64(option, text);
    if (v < min || v > max)
        throw UsageError(fmt::format("invalid --{}={}: must be {}..{}", option, text, min, max));
    return static_cast<unsigned>(v);
}

double parseDouble(const std::string& option, const std::string& text) {
    const std::string t = trim(text);
    double v = 0;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (t.empty() || ec != std::errc{} || p != t.data() + t.size() || !std::isfinite(v))
        throw UsageError(fmt::format("invalid --{}='{}': expected a number", option, text));
    return v;
}

Duration parseDur(const std::string& option, const std::string& text) {
    try {
        return Units::parseDuration(text);
    } catch (const std::exception& e) {
        throw UsageError(fmt::format("invalid --{}='{}': {}", option, text, e.what()));
    }
}

std::vector<unsigned> parseWorkers(const std::string& text) {
    std::vector<unsigned> w;
    std::stringstream ss(text);
    for (std::string item; std::getline(ss, item, ',');)
        w.push_back(parseUnsigned("workers", item, 1, 1024));
    if (w.empty() || text.back() == ',')
        throw UsageError(fmt::format("invalid --workers='{}': expected a list like 1,2,4,8", text));
    return w;
}

po::options_description describe() {
    po::options_description all("Options", 120, 50);
    // clang-format off
    all.add_options()
        ("help,h", "this text")
        ("mode", po::value<std::string>()->value_name("MODE"), "what to run (see Modes; default run)")
        ("pattern", po::value<std::string>()->value_name("NAME"), "graph shape (see Patterns; default burst)")
        ("rules", po::value<std::string>()->value_name("SPEC"), "custom generator rules (see Rules) or @FILE; replaces --pattern")
        ("seed", po::value<std::string>()->value_name("N"), "graph seed = node 0's hash (decimal or 0x hex; default: the preset's)")
        ("nodes", po::value<std::string>()->value_name("N"), "graph size (default 64)")
        ("fan", po::value<std::string>()->value_name("F"), "maxFan 1..16 (default: the preset's, 16 for --rules)")
        ("workers", po::value<std::string>()->value_name("LIST"), "worker threads; a list 1,2,4,8 for sweeps (default 2)")
        ("load", po::value<std::string>()->value_name("DUR"), "job base time per unit weight, e.g. 500us (default 500us)")
        ("load-kind", po::value<std::string>()->value_name("KIND"), "cpu | memory (default cpu)")
        ("schedule", po::value<std::string>()->value_name("KIND"), "adapted (by --stress and --concurrency) | default (level l at l x --level)")
        ("level", po::value<std::string>()->value_name("DUR"), "level duration of the default schedule (implies --schedule=default; default 1ms)")
        ("stress", po::value<std::string>()->value_name("X"), "stress factor of the adapted schedule (default 1.0)")
        ("concurrency", po::value<std::string>()->value_name("C"), "concurrency the adapted schedule and the lower bound assume (default min(workers, cores))")
        ("life-window", po::value<std::string>()->value_name("DUR"), "deadline = scheduled start + this (default 30ms; 0s = no deadlines)")
        ("reps", po::value<std::string>()->value_name("R"), "repetitions (default 1; breaking-point: 20 per probe)")
        ("from", po::value<std::string>()->value_name("X"), "series start (default 10)")
        ("to", po::value<std::string>()->value_name("X"), "series end (default 100)")
        ("step", po::value<std::string>()->value_name("X"), "series step (mode dependent; default 0 = automatic)")
        ("points", po::value<std::string>()->value_name("N"), "param-range sample points (default 20)")
        ("sample-seed", po::value<std::string>()->value_name("N"), "seed of sample points and Poisson arrivals (default 42)")
        ("rate", po::value<std::string>()->value_name("RATE"), "offered rate, e.g. 2k/s (default 1000/s)")
        ("duration", po::value<std::string>()->value_name("DUR"), "test duration, e.g. 10min (default 5s)")
        ("warmup", po::value<std::string>()->value_name("DUR"), "warm-up before measuring (default 500ms)")
        ("hold", po::value<std::string>()->value_name("DUR"), "hold per sweep step (default 2s)")
        ("interval", po::value<std::string>()->value_name("DUR"), "soak sampling interval (default 10s)")
        ("limit", po::value<std::string>()->value_name("DUR"), "lateness limit for stable/burst/failure (default 1ms)")
        ("arrival", po::value<std::string>()->value_name("KIND"), "constant | poisson (default constant)")
        ("users", po::value<std::string>()->value_name("N"), "closed-load users (default 4)")
        ("max-copies", po::value<std::string>()->value_name("N"), "headroom: copies k = 1..N (default 0 = 2 x cores)")
        ("deadline-window", po::value<std::string>()->value_name("DUR"), "open load: deadline = intended start + this (default 100 x --limit)")
        ("think", po::value<std::string>()->value_name("DUR"), "closed load: pause between a user's jobs (default 0s)")
        ("fail-delta", po::value<std::string>()->value_name("DUR"), "breaking-point: a run fails if runtime - expected > this (default 2ms)")
        ("break-fail-fraction", po::value<std::string>()->value_name("F"), "breaking-point: broken if fail fraction > this (default 0.99) ...")
        ("fail-fraction", po::value<std::string>()->value_name("F"), "... or all of: fail fraction > this (default 0.55),")
        ("sdev-limit", po::value<std::string>()->value_name("DUR"), "    sdev of run times > this (default 2ms),")
        ("delta-limit", po::value<std::string>()->value_name("DUR"), "    mean delta > this (default 4ms)")
        ("scale-thresholds", po::bool_switch(), "scale the three ms thresholds by load / 500us")
        ("out", po::value<std::string>()->value_name("DIR"), "output directory (default out)")
        ("name", po::value<std::string>()->value_name("NAME"), "base name of the output files (default: per mode)")
        ("dot", po::value<std::string>()->value_name("FILE"), "write the graph as DOT to FILE (- = stdout)")
        ("trace-json", po::value<std::string>()->value_name("FILE"), "write the job timeline as Chrome trace JSON to FILE")
        ("trace-dump", po::value<std::string>()->value_name("FILE"), "write the scheduler's trace dump to FILE (needs -DPULLSCHED_TRACE=ON)")
        ("json", po::bool_switch(), "print one JSON object on stdout instead of the text report")
        ("quiet,q", po::bool_switch(), "no progress lines on stderr")
        ("no-render", po::bool_switch(), "do not run gnuplot / dot (the scripts are still written)");
    // clang-format on
    return all;
}

std::string readRulesFile(const std::string& spec) {
    if (spec.empty() || spec[0] != '@') return spec;
    const std::string file = spec.substr(1);
    std::ifstream in(file);
    if (!in) throw UsageError(fmt::format("invalid --rules=@{}: cannot read the file", file));
    std::string all, line;
    while (std::getline(in, line)) {
        const auto hash = line.find('#');
        if (hash != std::string::npos) line.erase(hash);
        line = trim(line);
        if (line.empty()) continue;
        if (!all.empty() && all.back() != ';') all += ';';
        all += line;
    }
    return all;
}

}  // namespace

void validateOptions(const RigOptions& opt) {
    bool known = false;
    std::string modes;
    for (const ModeInfo& m : modeTable()) {
        known = known || m.name == opt.mode;
        modes += fmt::format("{}{}", modes.empty() ? "" : ", ", m.name);
    }
    if (!known) throw UsageError(fmt::format("unknown --mode='{}'; valid: {}", opt.mode, modes));
    (void)rulesFor(opt, opt.pattern);  // pattern, rules and fan
    if (!opt.rules.empty()) {
        // a bogus --pattern next to --rules is still an error
        RigOptions o = opt;
        o.rules.clear();
        (void)rulesFor(o, opt.pattern);
    }
    if (opt.nodes < 2)
        throw UsageError(fmt::format("invalid --nodes={}: must be at least 2", opt.nodes));
    if (opt.nodes > 10'000'000)
        throw UsageError(fmt::format("invalid --nodes={}: too large", opt.nodes));
    if (opt.workers.empty()) throw UsageError("invalid --workers: empty list");
    for (unsigned w : opt.workers)
        if (w < 1 || w > 1024)
            throw UsageError(fmt::format("invalid --workers={}: must be 1..1024", w));
    if (opt.load <= Duration::zero()) throw UsageError("invalid --load: must be positive");
    if (opt.level < Duration::zero()) throw UsageError("invalid --level: must not be negative");
    if (!(opt.stress > 0) || !std::isfinite(opt.stress))
        throw UsageError(fmt::format("invalid --stress={}: must be positive", opt.stress));
    if (opt.reps < 1) throw UsageError("invalid --reps=0: must be at least 1");
    if (opt.loadKind != "cpu" && opt.loadKind != "memory")
        throw UsageError(fmt::format("invalid --load-kind='{}': cpu or memory", opt.loadKind));
    if (opt.schedule != "adapted" && opt.schedule != "default")
        throw UsageError(fmt::format("invalid --schedule='{}': adapted or default", opt.schedule));
    if (opt.arrival != "constant" && opt.arrival != "poisson")
        throw UsageError(fmt::format("invalid --arrival='{}': constant or poisson", opt.arrival));
    if (opt.from > opt.to)
        throw UsageError(fmt::format("invalid range --from={} --to={}: from must not exceed to",
                                     opt.from, opt.to));
    if (opt.lifeWindow < Duration::zero())
        throw UsageError("invalid --life-window: must not be negative");
    if (opt.step < 0) throw UsageError("invalid --step: must not be negative");
    if (!(opt.rate > 0)) throw UsageError("invalid --rate: must be positive");
    for (double f : {opt.breakFailFraction, opt.failFraction})
        if (f < 0 || f > 1)
            throw UsageError(fmt::format("invalid fail fraction {}: must be 0..1", f));
    if (opt.traceDump && !Scheduler::traceCompiledIn())
        throw UsageError(
            "--trace-dump needs a build with trace points: configure with -DPULLSCHED_TRACE=ON "
            "(this build has none, so nothing was written)");
    if (opt.dot && opt.dot->empty()) throw UsageError("invalid --dot: empty file name");
    if (opt.dot && *opt.dot == "-" && opt.mode != "topology" && opt.mode != "run")
        throw UsageError(
            fmt::format("--dot=- (DOT on stdout) is for --mode=topology; give --dot=FILE"));
    if (opt.dot && *opt.dot == "-" && opt.mode == "run")
        throw UsageError(
            "--dot=- (DOT on stdout) is for --mode=topology; --mode=run writes <out>/<name>.dot, "
            "or give --dot=FILE");
}

ParsedCommandLine parseCommandLine(int argc, const char* const argv[]) {
    std::vector<std::string> args;
    for (int i = 1; i < argc; ++i)
        args.emplace_back(argv[i]);
    return parseCommandLine(args);
}

ParsedCommandLine parseCommandLine(const std::vector<std::string>& args) {
    po::variables_map vm;
    try {
        po::options_description desc = describe();
        desc.add_options()("stray-arguments", po::value<std::vector<std::string>>());
        po::positional_options_description stray;
        stray.add("stray-arguments", -1);
        po::store(po::command_line_parser(args)
                      .options(desc)
                      .positional(stray)
                      .style(po::command_line_style::default_style &
                             ~po::command_line_style::allow_guessing)
                      .run(),
                  vm);
        po::notify(vm);
    } catch (const po::error& e) {
        throw UsageError(fmt::format("{} (see --help)", e.what()));
    }
    if (vm.count("stray-arguments"))
        throw UsageError(
            fmt::format("unexpected argument '{}': options are --name=value (see --help)",
                        vm["stray-arguments"].as<std::vector<std::string>>().front()));
    ParsedCommandLine r;
    if (vm.count("help")) {
        r.help = true;
        return r;
    }
    RigOptions& o = r.options;
    auto str = [&](const char* k) -> const std::string* {
        return vm.count(k) ? &vm[k].as<std::string>() : nullptr;
    };
    if (auto* s = str("mode")) o.mode = trim(*s);
    if (auto* s = str("pattern")) o.pattern = trim(*s);
    if (auto* s = str("rules")) {
        o.rules = readRulesFile(trim(*s));
        if (o.rules.empty()) throw UsageError("invalid --rules: empty rule spec");
    }
    if (auto* s = str("seed")) o.seed = parseU64("seed", *s);
    if (auto* s = str("nodes")) {
        o.nodes = parseU64("nodes", *s);
        o.nodesGiven = true;
    }
    if (auto* s = str("fan")) o.fan = parseUnsigned("fan", *s, 1, 16);
    if (auto* s = str("workers")) o.workers = parseWorkers(*s);
    if (auto* s = str("load")) {
        o.load = parseDur("load", *s);
        o.loadGiven = true;
    }
    if (auto* s = str("load-kind")) o.loadKind = trim(*s);
    if (auto* s = str("schedule")) o.schedule = trim(*s);
    if (auto* s = str("level")) {
        o.level = parseDur("level", *s);
        if (!str("schedule")) o.schedule = "default";
    }
    if (auto* s = str("stress")) o.stress = parseDouble("stress", *s);
    if (auto* s = str("concurrency")) o.concurrency = parseUnsigned("concurrency", *s, 1, 1024);
    if (auto* s = str("life-window")) o.lifeWindow = parseDur("life-window", *s);
    if (auto* s = str("reps")) {
        o.reps = parseUnsigned("reps", *s, 1, 1'000'000);
    } else if (o.mode == "breaking-point") {
        o.reps = kBreakingPointReps;
    }
    if (auto* s = str("from")) o.from = parseDouble("from", *s);
    if (auto* s = str("to")) o.to = parseDouble("to", *s);
    if (auto* s = str("step")) o.step = parseDouble("step", *s);
    if (auto* s = str("points")) o.points = parseUnsigned("points", *s, 2, 100'000);
    if (auto* s = str("sample-seed")) o.sampleSeed = parseU64("sample-seed", *s);
    if (auto* s = str("rate")) {
        o.rateGiven = true;
        try {
            o.rate = Units::parseRate(*s);
        } catch (const std::exception& e) {
            throw UsageError(fmt::format("invalid --rate='{}': {}", *s, e.what()));
        }
    }
    if (auto* s = str("duration")) o.duration = parseDur("duration", *s);
    if (auto* s = str("warmup")) o.warmup = parseDur("warmup", *s);
    if (auto* s = str("hold")) o.hold = parseDur("hold", *s);
    if (auto* s = str("interval")) o.interval = parseDur("interval", *s);
    if (auto* s = str("limit")) o.limit = parseDur("limit", *s);
    if (auto* s = str("arrival")) o.arrival = trim(*s);
    if (auto* s = str("users")) o.users = parseUnsigned("users", *s, 1, 100'000);
    if (auto* s = str("max-copies")) o.maxCopies = parseUnsigned("max-copies", *s, 0, 10'000);
    if (auto* s = str("deadline-window")) o.deadlineWindow = parseDur("deadline-window", *s);
    if (auto* s = str("think")) o.think = parseDur("think", *s);
    if (auto* s = str("fail-delta")) o.failDelta = parseDur("fail-delta", *s);
    if (auto* s = str("break-fail-fraction"))
        o.breakFailFraction = parseDouble("break-fail-fraction", *s);
    if (auto* s = str("fail-fraction")) o.failFraction = parseDouble("fail-fraction", *s);
    if (auto* s = str("sdev-limit")) o.sdevLimit = parseDur("sdev-limit", *s);
    if (auto* s = str("delta-limit")) o.deltaLimit = parseDur("delta-limit", *s);
    o.scaleThresholds = vm["scale-thresholds"].as<bool>();
    if (auto* s = str("out")) {
        if (trim(*s).empty()) throw UsageError("invalid --out: empty directory name");
        o.out = *s;
    }
    if (auto* s = str("name")) {
        if (s->empty() || s->find('/') != std::string::npos)
            throw UsageError(fmt::format("invalid --name='{}': a plain file name stem", *s));
        o.name = *s;
    }
    if (auto* s = str("dot")) o.dot = std::filesystem::path(*s);
    if (auto* s = str("trace-json")) o.traceJson = std::filesystem::path(*s);
    if (auto* s = str("trace-dump")) o.traceDump = std::filesystem::path(*s);
    o.json = vm["json"].as<bool>();
    o.quiet = vm["quiet"].as<bool>();
    o.render = !vm["no-render"].as<bool>();
    validateOptions(o);
    return r;
}

std::string helpText() {
    std::ostringstream os;
    os << "stressrig - runs TestChainLoad graphs on the pullsched scheduler and measures it\n\n"
          "Usage: stressrig [--mode=MODE] [--pattern=NAME | --rules=SPEC] [options]\n"
          "       stressrig --pattern=burst --workers=8        (one scheduled run, results in "
          "out/)\n\n"
          "Modes (--mode):\n";
    for (const ModeInfo& m : modeTable())
        os << fmt::format("  {:<16}{}\n", m.name, m.summary);
    os << "\nPatterns (--pattern):\n" << testchain::presetHelp();
    os << "\nRules (--rules=SPEC, or --rules=@FILE with one rule per line, '#' comments):\n"
          "  SPEC = RULE:KEY=VAL[,KEY=VAL...] joined by ';'\n"
          "  RULE   seed | expand | reduce | prune | weight\n"
          "  KEY    p (probability 0..1) | min | max | shuffle[=S] (bare: 55) | value (fixed)\n"
          "         | atStart | atJoin | atLink (value only at start / join / link nodes)\n"
          "  e.g.   --rules='expand:p=0.27,max=4;reduce:p=0.44,min=2,max=6;weight:p=0.66,max=3' "
          "--seed=55\n"
          "  (that is the burst preset). Rules start from a plain chain with maxFan --fan (16).\n"
          "\nUnits: durations need a unit: ns, us (or µs), ms, s, min, h  (e.g. --load=500us,\n"
          "  --duration=10min); 'm' is rejected as ambiguous. Rates: 1000, 2k/s, 50/ms, 600/min, "
          "10kHz.\n"
          "  Lists: --workers=1,2,4,8.\n"
          "\nOutput files (in --out, default out/; base name --name or per mode):\n"
          "  <name>.csv   measurements, with '# key: value' lines carrying the configuration\n"
          "  <name>.gp    self-contained Gnuplot script (data inlined), rendered to <name>.png\n"
          "               when gnuplot is installed; otherwise: cd out && gnuplot <name>.gp\n"
          "  <name>.dot   the graph (Graphviz), rendered to <name>.svg when dot is installed\n"
          "  --trace-json=FILE  job timeline for ui.perfetto.dev / chrome://tracing\n"
          "  --trace-dump=FILE  scheduler trace points (builds with -DPULLSCHED_TRACE=ON)\n"
          "  topology writes nothing but --dot; with --json every mode prints one JSON object.\n"
          "\nExit codes: 0 success; 1 a run failed (hash mismatch, failed or expired jobs, "
          "error);\n"
          "  2 bad input (unknown option, invalid value, unknown mode/pattern, malformed "
          "rules).\n\n";
    os << describe();
    return os.str();
}

}  // namespace pullsched::rig
