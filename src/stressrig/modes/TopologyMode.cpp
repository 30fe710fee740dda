// --mode=topology: a graph's statistics, its DOT picture, and its scheduled work and
// lower bound; runs nothing.
#include <sstream>

#include <fmt/format.h>

#include "cli/ExecutionOptions.hpp"
#include "cli/GraphOptions.hpp"
#include "cli/UsageError.hpp"
#include "format/Units.hpp"
#include "load/StopRequest.hpp"
#include "modes/Mode.hpp"
#include "pullsched/testchain/DotWriter.hpp"
#include "pullsched/testchain/GraphStatistics.hpp"
#include "pullsched/testchain/RuleParser.hpp"
#include "report/TextFormat.hpp"

namespace pullsched::rig {

using namespace pullsched::testchain;

namespace {

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
        out.push_back(l);
    return out;
}

class TopologyMode final : public Mode {
  public:
    std::string_view name() const override { return "topology"; }
    bool measures() const override { return false; }  // it runs nothing
    std::vector<FigureSource> figures() const override {
        return {{"nodes"}, {"levels"}, {"edges"}, {"max_width"}, {"critical_path"}, {"work"}};
    }
    std::string_view summary() const override {
        return "a graph's statistics, DOT picture, work and lower bound; runs nothing";
    }
    void declare(OptionTable& t) override {
        graph_.declare(t);
        t.group("Scheduling figures");
        t.count("workers", workers_, 1, 1024, "P of the lower bound max(work / P, critical path)");
        t.duration("load", load_, 100ns, 10s, "time per unit weight of the work figures");
        t.flag("trace-json", traceJson_,
               "not accepted here: topology runs no jobs, so there is nothing to trace (use "
               "--mode=run --trace-json)");
    }
    void validate(const OptionTable& t) override {
        // Declared only to say why it is refused: the other modes' list would not.
        if (traceJson_)
            throw UsageError(
                "--trace-json does not apply to --mode=topology: it runs no jobs, so there is "
                "nothing to trace (--mode=run --trace-json traces the graph's jobs)");
        graph_.validate(t);
    }

    ModeResult run(RunContext& ctx) override {
        const TestChainGraph graph = graph_.graph(ctx.stop.predicate());
        const RuleSet rules = graph_.rulesFor();
        const WeightPolicy policy = rules.schedulingWeightPolicy();
        const bool unit = policy == WeightPolicy::UnitIfZero;

        ModeResult r;
        r.name = fmt::format("topology-{}-{}", graph_.label(), graph.size());
        r.text = graphLines(graph, rules);
        r.result = graphJson(graph, rules);
        r.verdict = fmt::format("graph {} with {} nodes, {} levels, hash {}", graph_.label(),
                                graph.size(), graph.levels(), hashText(graph));
        // Statistics and DOT take seconds on millions of nodes: a stop ends them, and the
        // result keeps the graph's own figures (a small graph's are done sooner than stopped).
        const StopPredicate stop = ctx.stop.predicateBeyond(graph.size());
        try {
            const GraphStatistics raw(graph, WeightPolicy::Raw, stop);
            const GraphStatistics sched(graph, policy, stop);
            statisticsLines(r.text, raw, sched, unit);
            statisticsJson(r.result, raw, sched, unit);
            std::ostringstream dot;
            DotWriter::write(dot, graph, stop);
            r.files.push_back({".dot", dot.str(), ResultFile::Kind::Dot});
        } catch (const Stopped&) {
            r.partial = true;
            r.verdict = "stopped: " + r.verdict;
            r.warnings.push_back(fmt::format(
                "{}the DOT graph not written: the run was stopped ({} nodes, more than the {} a "
                "stopped run writes)",
                r.result.contains("max_width") ? "" : "no statistics, and ", graph.size(),
                StopRequest::kStoppedRunRows));
        }
        return r;
    }

  private:
    static std::string hashText(const TestChainGraph& graph) {
        return fmt::format("0x{:016X}", graph.graphHash());
    }

    /// What the graph says of itself, without statistics.
    std::vector<std::string> graphLines(const TestChainGraph& graph, const RuleSet& rules) const {
        // A Task Bench shape is fixed by its name: it has no rules and no seed to show.
        const std::string origin =
            graph_.taskBenchPattern()
                ? fmt::format("Topology: pattern {} (a Task Bench shape), {} nodes", graph_.label(),
                              graph.size())
                : fmt::format("Topology: pattern {} ({}), {} nodes, maxFan {}, seed {}",
                              graph_.label(), RuleParser::toString(rules), graph.size(),
                              graph.maxFan(), graph.seed());
        return {origin, fmt::format("graph hash {}  levels {}  edges {}  seeds {}  exits {}",
                                    hashText(graph), graph.levels(), graph.edgeCount(),
                                    graph.count(NodeKind::Start), graph.count(NodeKind::Exit))};
    }

    void statisticsLines(std::vector<std::string>& text, const GraphStatistics& raw,
                         const GraphStatistics& sched, bool unit) const {
        text.push_back("");
        std::ostringstream table;
        raw.print(table, load_);
        for (const std::string& l : lines(table.str()))  // work lines follow, by policy
            if (!l.starts_with("work ") && !l.starts_with("lower bound")) text.push_back(l);
        text.push_back("");
        text.push_back(fmt::format("Scheduled with load {} per unit weight{}:", durationText(load_),
                                   unit ? " (no weight rule: every node counts as weight 1)" : ""));
        text.push_back(fmt::format("  total work      {:>10}  ({} x {})",
                                   durationText(sched.work(load_)), sched.totalWeight(),
                                   durationText(load_)));
        text.push_back(fmt::format("  critical path   {:>10}  (weight {})",
                                   durationText(sched.criticalPath(load_)),
                                   sched.criticalPathWeight()));
        text.push_back(fmt::format("  max width       {:>10}", sched.maxWidth()));
        text.push_back(fmt::format("  lower bound P={} {:>9}  = max(work / P, critical path)",
                                   workers_, durationText(sched.lowerBound(workers_, load_))));
    }

    nlohmann::json graphJson(const TestChainGraph& graph, const RuleSet& rules) const {
        nlohmann::json j;
        j["pattern"] = graph_.label();
        j["rules"] = RuleParser::toString(rules);
        j["seed"] = graph.seed();
        j["hash"] = hashText(graph);
        j["nodes"] = graph.size();
        j["max_fan"] = graph.maxFan();
        j["levels"] = graph.levels();
        j["edges"] = graph.edgeCount();
        j["seeds"] = graph.count(NodeKind::Start);
        j["exits"] = graph.count(NodeKind::Exit);
        j["inner"] = graph.count(NodeKind::Inner);
        j["forks"] = graph.count(NodeKind::Fork);
        j["joins"] = graph.count(NodeKind::Join);
        j["links"] = graph.count(NodeKind::Link);
        j["knots"] = graph.count(NodeKind::Knot);
        j["weight_sum"] = graph.weightSum();
        j["level_widths"] = graph.levelWidths();
        return j;
    }

    void statisticsJson(nlohmann::json& j, const GraphStatistics& raw, const GraphStatistics& sched,
                        bool unit) const {
        j["max_width"] = raw.maxWidth();
        j["segments"] = raw.segments();
        j["segment_height_mean"] = raw.averageSegmentHeight();
        j["segment_height_max"] = raw.maxSubLevel() + 1;
        j["statistics"] = statisticsTableJson(raw);
        j["critical_path_weight"] = raw.criticalPathWeight();
        j["scheduled_weight_sum"] = sched.totalWeight();
        j["scheduled_critical_path_weight"] = sched.criticalPathWeight();
        j["unit_weights"] = unit;
        j["work_ms"] = toMs(sched.work(load_));
        j["critical_path_ms"] = toMs(sched.criticalPath(load_));
        j["lower_bound_ms"] = toMs(sched.lowerBound(workers_, load_));
    }

    /// The statistics table of the text, a row per category (`node`, `seed`, ... `wght`),
    /// each column under a key of its own.
    static nlohmann::json statisticsTableJson(const GraphStatistics& raw) {
        nlohmann::json rows = nlohmann::json::object();
        for (std::size_t c = 0; c < GraphStatistics::kCategories; ++c) {
            const GraphStatistics::Indicator& i =
                raw.indicator(static_cast<GraphStatistics::Category>(c));
            rows[std::string(GraphStatistics::kCategoryNames[c])] = {
                {"count", i.cnt},
                {"fraction", i.frac},
                {"per_segment", i.pS},
                {"per_level", i.pL},
                {"per_level_width", i.pLW},
                {"gravity_level", i.gL},
                {"gravity_level_width", i.gLW},
                {"gravity_sub_level", i.gSL},
                {"gravity_sub_level_width", i.gSLW}};
        }
        return rows;
    }

    GraphOptions graph_;
    unsigned workers_ = 2;
    Duration load_ = std::chrono::microseconds{500};
    bool traceJson_ = false;  ///< only to refuse --trace-json with a reason
};

}  // namespace

std::unique_ptr<Mode> makeTopologyMode() {
    return std::make_unique<TopologyMode>();
}

}  // namespace pullsched::rig
