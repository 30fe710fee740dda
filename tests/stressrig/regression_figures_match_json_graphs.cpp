// The numbers a result shows are the JSON's (issue 47, item 2), for the graph modes beside
// breaking-point: param-range, granularity, spawn and topology. The page's "Result figures",
// the text report's figures (the page's Report repeats it line for line), the verdict and
// what the pictures show (their data, the legends that carry a number, the verdict in their
// titles) are the JSON's values for the same keys. Tiny runs; no timing.
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "FiguresSupport.hpp"
#include "format/SignificantDigits.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace rigtest;
using pullsched::rig::CsvTable;
using pullsched::rig::formatSignificant;

namespace {

/// A number with 3 significant digits, as the fitted line and the verdicts print them.
std::string significant(const json& v) {
    return shownAs(v, [](double x) { return formatSignificant(x, 3); });
}

/// "1 worker", "2 workers".
std::string workersText(const json& n) {
    return fmt::format("{} worker{}", countText(n), n == 1 ? "" : "s");
}

/// A METG of granularity's JSON as every output prints it: "2.50µs", "≤ 1.00µs",
/// "> 4.00µs" or "n/a", marked "(noisy)" when the efficiency crossed the threshold twice.
std::string metgText(const json& b) {
    const std::string kind = b.at("metg_kind");
    std::string t = kind == "interpolated"           ? usText(b.at("metg_us"))
                    : kind == "at_or_below_smallest" ? "≤ " + usText(b.at("metg_bound_us"))
                    : kind == "above_largest"        ? "> " + usText(b.at("metg_bound_us"))
                                                     : "n/a";
    return b.at("non_monotonic") == true ? t + " (noisy)" : t;
}

}  // namespace

TEST(FiguresMatchJson, ParamRange) {
    const Shown s = runShown("param-range",
                             "--mode=param-range --pattern=burst --from=10 --to=40 --points=4 "
                             "--load=50us --workers=2",
                             "param-range-burst");
    const json& j = s.envelope.at("result");
    EXPECT_EQ(expectPageFiguresAreTheJsons(s), 2u);  // time per job, correlation
    const json& b = j.at("backends").at("pullsched");
    EXPECT_EQ(trimmed(textLine(s, "pullsched (")),
              fmt::format("pullsched ({} start times): {} of {} points",
                          b.at("start_times").get<std::string>(),
                          countText(b.at("points_measured")), countText(j.at("points_planned"))));
    // a row per point: load size, result time, concurrency, avg jobtime, avg impeded
    const std::vector<std::string> rows =
        textLinesAfter(s, "load size  result time", {"Model:", "pullsched"});
    const json& points = j.at("points");
    EXPECT_EQ(points, b.at("points"));  // the top level repeats the first backend's
    ASSERT_EQ(rows.size(), points.size()) << s.r.out;
    for (std::size_t k = 0; k < points.size(); ++k) {
        const json& p = points[k];
        EXPECT_EQ(words(rows[k]),
                  (std::vector<std::string>{
                      countText(p.at("load_size_jobs")), msText(p.at("result_time_ms")),
                      fixedText(p.at("concurrency"), 3), usText(p.at("avg_jobtime_us")),
                      usText(p.at("avg_impeded_us"))}))
            << "point " << k;
    }
    // the fitted line, its figures as the JSON's numbers give them
    ASSERT_TRUE(j.at("gradient_ms_per_job").is_number()) << j;
    const double socket = j.at("socket_ms");
    const std::string line =
        fmt::format("Model: {}·p {} {}", significant(j.at("gradient_ms_per_job")),
                    socket < 0 ? "-" : "+", significant(json(std::abs(socket))));
    const std::string model =
        fmt::format("{} corr={} Δmax={} σ={}", line, significant(j.at("correlation")),
                    significant(j.at("max_delta_ms")), significant(j.at("sigma_ms")));
    EXPECT_EQ(j.at("model"), model);
    const std::string concurrency = "∅concurrency: " + fixedText(j.at("mean_concurrency"), 2);
    EXPECT_EQ(trimmed(textLine(s, "Model:")), model + " " + concurrency);
    EXPECT_EQ(squeezed(textLine(s, "pullsched  Model:")),
              squeezed("pullsched " + model + " " + concurrency));
    EXPECT_NE(textLine(s, "(p in jobs")
                  .find(fmt::format("ideal gradient {} per job",
                                    msText(j.at("ideal_gradient_ms_per_job")))),
              std::string::npos);
    EXPECT_NE(textLine(s, "(p in jobs")
                  .find(fmt::format("measured {} per job)", msText(j.at("gradient_ms_per_job")))),
              std::string::npos);
    const std::string verdict = verdictShown(s);
    EXPECT_EQ(
        verdict.rfind(fmt::format("{} per job (ideal {}), offset {}, corr {}",
                                  msText(j.at("gradient_ms_per_job")),
                                  msText(j.at("ideal_gradient_ms_per_job")),
                                  msText(j.at("socket_ms")), significant(j.at("correlation"))),
                      0),
        0u)
        << verdict;
    // the pictures: the points, the fitted line and its legend
    EXPECT_EQ(expectPictureTitlesHoldTheVerdict(s), 2u);
    const std::string gp = slurp(s.run / "param-range-burst.gp");
    EXPECT_NE(gp.find(fmt::format("Model(p) = {} * p + {}\n", cellText(j.at("gradient_ms_per_job")),
                                  cellText(j.at("socket_ms")))),
              std::string::npos)
        << gp;
    EXPECT_NE(gp.find("title '" + line + "'"), std::string::npos) << gp;
    const CsvTable pic = pictureData(s, "param-range-burst.gp");
    const CsvTable sides = pictureData(s, "param-range-burst-backends.gp");
    ASSERT_EQ(pic.rowCount(), points.size());
    ASSERT_EQ(sides.rowCount(), points.size());
    for (std::size_t k = 0; k < points.size(); ++k) {
        const json& p = points[k];
        for (const auto& [col, key] :
             {std::pair<const char*, const char*>{"load size", "load_size_jobs"},
              {"result time", "result_time_ms"},
              {"concurrency", "concurrency"},
              {"avg jobtime", "avg_jobtime_us"},
              {"avg impeded", "avg_impeded_us"}})
            EXPECT_EQ(cellText(pic, k, col), cellText(p.at(key))) << col << " point " << k;
        EXPECT_EQ(cellText(sides, k, "pullsched result time"), cellText(p.at("result_time_ms")));
        EXPECT_EQ(cellText(sides, k, "pullsched model"),
                  cellText(json(socket + j.at("gradient_ms_per_job").get<double>() *
                                             p.at("load_size_jobs").get<double>())))
            << "point " << k;
    }
    fs::remove_all(s.dir);
}

TEST(FiguresMatchJson, Granularity) {
    const Shown s = runShown("granularity",
                             "--mode=granularity --graphs=isolated:16,chain:8 "
                             "--backends=pullsched,pool --sizes=2us,8us,32us --reps=3 --workers=2 "
                             "--overhead",
                             "granularity");
    const json& j = s.envelope.at("result");
    EXPECT_EQ(expectPageFiguresAreTheJsons(s), 1u);  // runs verified; METGs are per graph
    const std::vector<std::string> backends{"pullsched", "pool"};
    const std::string verified = fmt::format(
        "{} of {} runs verified", countText(j.at("runs_verified")), countText(j.at("runs_total")));
    const json& graphs = j.at("graphs");
    ASSERT_EQ(graphs.size(), 2u);
    // the METG table: a row per graph, a METG per backend
    const std::vector<std::string> metgRows = textLinesAfter(s, "graph ", {"isolated-16:"});
    ASSERT_EQ(metgRows.size(), graphs.size()) << s.r.out;
    std::vector<std::string> verdictParts;
    for (std::size_t g = 0; g < graphs.size(); ++g) {
        const json& gr = graphs[g];
        const std::string label = gr.at("graph");
        std::string row =
            fmt::format("{} {} {}", label, countText(gr.at("nodes")), countText(gr.at("levels")));
        for (const std::string& b : backends) {
            const json& gb = gr.at("backends").at(b);
            row += fmt::format(" {}", metgText(gb));
            EXPECT_EQ(j.at("metg_us").at(label).at(b), gb.at("metg_us"));
            EXPECT_EQ(j.at("backends").at(b).at("metg_us").at(label), gb.at("metg_us"));
        }
        EXPECT_EQ(squeezed(metgRows[g]), squeezed(row));
        // the graph's figures, its overhead lines and a row per job size
        EXPECT_EQ(trimmed(textLine(s, label + ":")),
                  fmt::format("{}: {} nodes, {} edges, work {:g} weight units, critical path {:g}",
                              label, countText(gr.at("nodes")), countText(gr.at("edges")),
                              gr.at("work_weight_units").get<double>(),
                              gr.at("critical_path_weight_units").get<double>()));
        const std::vector<std::string> lines =
            textLinesAfter(s, label + ":", {"isolated-16:", "chain-8:", verified});
        std::vector<std::string> empty, planned, shares;
        std::string head = "job size";
        for (const std::string& b : backends) {
            const json& gb = gr.at("backends").at(b);
            const auto ns = [](const json& v) { return fixedText(v, 0) + " ns"; };
            const auto share = [](const json& v) {
                return shownAs(v, [](double x) { return fmt::format("{:.0f} %", 100 * x); });
            };
            empty.push_back(b + " " + ns(gb.at("empty_ns_per_job")));
            planned.push_back(b + " " + ns(gb.at("plan_and_run_ns_per_job")));
            shares.push_back(fmt::format("{} {} / {}", b,
                                         share(gb.at("empty_busiest_thread_share")),
                                         share(gb.at("plan_and_run_busiest_thread_share"))));
            EXPECT_EQ(j.at("empty_ns_per_job").at(label).at(b), gb.at("empty_ns_per_job"));
            EXPECT_EQ(j.at("plan_and_run_ns_per_job").at(label).at(b),
                      gb.at("plan_and_run_ns_per_job"));
            head += " " + b + " makespan";
        }
        ASSERT_GE(lines.size(), 5u) << s.r.out;
        EXPECT_EQ(trimmed(lines[0]), fmt::format("empty jobs (dispatch overhead per job): {}",
                                                 fmt::join(empty, ", ")));
        EXPECT_EQ(trimmed(lines[1]),
                  fmt::format("empty jobs, graph built in the run (planning + dispatch): {}",
                              fmt::join(planned, ", ")));
        EXPECT_EQ(trimmed(lines[2]),
                  fmt::format("empty jobs run by the busiest thread (prebuilt / built in the "
                              "run): {}",
                              fmt::join(shares, ", ")));
        // pullsched's prebuilt graph as one batch, no gate (the pool has no such figure)
        const json& pb = gr.at("backends").at("pullsched");
        const double gate = pb.at("empty_ns_per_job"), batch = pb.at("empty_batch_ns_per_job");
        EXPECT_EQ(j.at("empty_batch_ns_per_job").at(label), json({{"pullsched", batch}}));
        EXPECT_EQ(trimmed(lines[3]),
                  fmt::format("empty jobs, prebuilt graph submitted as one batch (no gate): "
                              "pullsched {} ns (gate / batch {}, busiest thread {:.0f} %)",
                              fixedText(json(batch), 0), fixedText(json(gate / batch), 2),
                              100 * pb.at("empty_batch_busiest_thread_share").get<double>()));
        EXPECT_EQ(squeezed(lines[4]), head);
        const json& sizes = j.at("sizes_us");
        ASSERT_EQ(lines.size(), 5 + sizes.size() + 1) << s.r.out;  // the sizes, "sweep ended"
        for (std::size_t k = 0; k < sizes.size(); ++k) {
            std::string expected = usText(sizes[k]);
            for (const std::string& b : backends) {
                const json& p = gr.at("backends").at(b).at("points").at(k);
                EXPECT_EQ(p.at("job_size_us"), sizes[k]);
                expected +=
                    fmt::format(" {} %",
                                fixedText(json(100 * p.at("efficiency").get<double>()), 1)) +
                    " " + msText(p.at("makespan_median_ms"));
            }
            EXPECT_EQ(squeezed(lines[5 + k]), squeezed(expected)) << label << " size " << k;
        }
        std::string ended = "sweep ended:";
        for (const std::string& b : backends) {
            const json& gb = gr.at("backends").at(b);
            ended += " " + b + " " + gb.at("stopped").get<std::string>();
            if (gb.at("non_monotonic") == true)
                ended += fmt::format(" (noisy: first reached {:g} % at {})",
                                     j.at("threshold_percent").get<double>(),
                                     usText(gb.at("first_reached_us")));
            ended += ";";
        }
        ended.pop_back();
        EXPECT_EQ(trimmed(lines.back()), ended);
    }
    textLine(s, verified);
    // the verdict: each backend's METG per graph
    for (const std::string& b : backends) {
        std::vector<std::string> each;
        for (const json& gr : graphs)
            each.push_back(gr.at("graph").get<std::string>() + " " +
                           metgText(gr.at("backends").at(b)));
        verdictParts.push_back(fmt::format("{}: {}", b, fmt::join(each, ", ")));
    }
    EXPECT_EQ(verdictShown(s),
              fmt::format("METG({:g} %) {}", j.at("threshold_percent").get<double>(),
                          fmt::join(verdictParts, "; ")));
    // the picture: the efficiencies of the JSON, each line's legend its METG
    EXPECT_EQ(expectPictureTitlesHoldTheVerdict(s), 1u);
    const std::string gp = slurp(s.run / "granularity.gp");
    const CsvTable pic = pictureData(s, "granularity.gp");
    ASSERT_EQ(pic.rowCount(), j.at("sizes_us").size());
    for (const json& gr : graphs)
        for (const std::string& b : backends) {
            const json& gb = gr.at("backends").at(b);
            EXPECT_NE(gp.find(fmt::format("title '{}: METG {}'", b, metgText(gb))),
                      std::string::npos)
                << gr.at("graph") << " " << b;
            const std::string col = gr.at("graph").get<std::string>() + " " + b;
            for (std::size_t k = 0; k < pic.rowCount(); ++k)
                EXPECT_EQ(cellText(pic, k, col), cellText(gb.at("points").at(k).at("efficiency")))
                    << col << " size " << k;
        }
    fs::remove_all(s.dir);
}

TEST(FiguresMatchJson, Spawn) {
    // the ratios are taken against tbb where it runs
    const std::string other = skipUnderThreadSanitizer("tbb") ? "pool" : "tbb";
    const Shown s = runShown("spawn",
                             "--mode=spawn --shapes=fib:12,skynet:2 --workers=1,2 --reps=3 "
                             "--settle=1ms --backends=pullsched," +
                                 other,
                             "spawn");
    const json& j = s.envelope.at("result");
    expectPageFiguresAreTheJsons(s);  // its figures are in arrays: the Report shows them
    const bool withReference = other == j.at("reference");
    const json& shapes = j.at("shapes");
    ASSERT_EQ(shapes.size(), 2u);
    std::string verdict = "on " + workersText(j.at("workers").back()) + ":";
    for (const json& shape : shapes) {
        const std::string name = shape.at("name");
        EXPECT_EQ(trimmed(textLine(s, name + ":")),
                  fmt::format("{}: {} calls, result {}", name, countText(shape.at("calls")),
                              countText(shape.at("result"))));
        const std::vector<std::string> lines =
            textLinesAfter(s, name + ":", {"skynet-2:", "pullsched:"});
        std::vector<std::string> expected;
        const json* base = &shape.at("backends").at(0);
        for (const json& b : shape.at("backends"))
            if (b.at("name") == j.at("reference")) base = &b;
        const double baseNs = base->at("points").at(0).at("ns_per_call_median");
        for (const json& b : shape.at("backends")) {
            const json& points = b.at("points");
            for (std::size_t w = 0; w < points.size(); ++w) {
                const json& p = points[w];
                // the median, least and most of the measured runs, in ns per call
                std::vector<double> ns;
                for (const json& us : p.at("wall_us"))
                    ns.push_back(us.get<double>() * 1e3 / shape.at("calls").get<double>());
                std::sort(ns.begin(), ns.end());
                ASSERT_EQ(ns.size(), 3u);
                EXPECT_EQ(p.at("ns_per_call_min"), ns.front());
                EXPECT_EQ(p.at("ns_per_call_median"), ns[1]);
                EXPECT_EQ(p.at("ns_per_call_max"), ns.back());
                std::string line = fmt::format(
                    "{} {}: {} ns per call [{} .. {}], {} runs", b.at("name").get<std::string>(),
                    workersText(p.at("workers")), fixedText(p.at("ns_per_call_median"), 1),
                    fixedText(p.at("ns_per_call_min"), 1), fixedText(p.at("ns_per_call_max"), 1),
                    p.at("wall_us").size());
                if (withReference && b.at("name") != j.at("reference"))
                    line += fmt::format(", {} x {}", fixedText(p.at("vs_reference"), 2),
                                        j.at("reference").get<std::string>());
                if (w > 0)
                    line += fmt::format(", {} x the speed on {}", fixedText(p.at("speed_up"), 2),
                                        countText(j.at("workers").at(0)));
                expected.push_back(squeezed(line));
            }
        }
        std::vector<std::string> shown;
        for (const std::string& l : lines)
            shown.push_back(squeezed(l));
        EXPECT_EQ(shown, expected) << name;
        // the verdict: the first backend on the last worker count
        const json& lead = shape.at("backends").at(0).at("points").back();
        verdict += fmt::format("{} {} pullsched {} ns per call", verdict.back() == ':' ? "" : ";",
                               name, fixedText(lead.at("ns_per_call_median"), 1));
        if (withReference)
            verdict += fmt::format(" ({} x {})", fixedText(lead.at("vs_reference"), 2),
                                   j.at("reference").get<std::string>());
        verdict += fmt::format(", {} x the speed on {}", fixedText(lead.at("speed_up"), 2),
                               countText(j.at("workers").at(0)));
        // the picture: each backend's speed against the base's median on the first count
        const CsvTable pic = pictureData(s, "spawn-" + name + ".gp");
        ASSERT_EQ(pic.rowCount(), j.at("workers").size());
        for (const json& b : shape.at("backends"))
            for (std::size_t w = 0; w < pic.rowCount(); ++w)
                EXPECT_EQ(
                    cellText(pic, w, b.at("name").get<std::string>() + " speed"),
                    cellText(
                        json(baseNs / b.at("points").at(w).at("ns_per_call_median").get<double>())))
                    << name << " " << b.at("name") << " point " << w;
    }
    EXPECT_EQ(verdictShown(s), verdict);
    EXPECT_EQ(expectPictureTitlesHoldTheVerdict(s), 2u);
    fs::remove_all(s.dir);
}

TEST(FiguresMatchJson, Topology) {
    const Shown s =
        runShown("topology", "--mode=topology --pattern=burst --nodes=16", "topology-burst-16");
    const json& j = s.envelope.at("result");
    EXPECT_EQ(expectPageFiguresAreTheJsons(s), 6u);
    EXPECT_EQ(trimmed(textLine(s, "Topology:")),
              fmt::format("Topology: pattern burst ({}), {} nodes, maxFan {}, seed {}",
                          j.at("rules").get<std::string>(), countText(j.at("nodes")),
                          countText(j.at("max_fan")), countText(j.at("seed"))));
    EXPECT_EQ(
        trimmed(textLine(s, "graph hash")),
        fmt::format("graph hash {}  levels {}  edges {}  seeds {}  exits {}",
                    j.at("hash").get<std::string>(), countText(j.at("levels")),
                    countText(j.at("edges")), countText(j.at("seeds")), countText(j.at("exits"))));
    // the statistics table: a row per category, every column the JSON's
    const std::vector<std::string> rows = textLinesAfter(s, "cnt    frac", {"LEVL"});
    const json& stats = j.at("statistics");
    ASSERT_EQ(rows.size(), stats.size()) << s.r.out;
    for (const std::string& row : rows) {
        const std::vector<std::string> w = words(row);
        ASSERT_EQ(w.size(), 10u) << row;
        ASSERT_TRUE(stats.contains(w[0])) << row;
        const json& c = stats.at(w[0]);
        EXPECT_EQ(
            w, (std::vector<std::string>{
                   w[0], fmt::format("{}", c.at("count").get<double>()),
                   fixedText(c.at("fraction"), 3), fixedText(c.at("per_segment"), 2),
                   fixedText(c.at("per_level"), 2), fixedText(c.at("per_level_width"), 2),
                   fixedText(c.at("gravity_level"), 2), fixedText(c.at("gravity_level_width"), 2),
                   fixedText(c.at("gravity_sub_level"), 2),
                   fixedText(c.at("gravity_sub_level_width"), 2)}))
            << row;
    }
    // the categories' counts are the graph's own
    for (const auto& [category, key] : {std::pair<const char*, const char*>{"node", "nodes"},
                                        {"seed", "seeds"},
                                        {"exit", "exits"},
                                        {"innr", "inner"},
                                        {"fork", "forks"},
                                        {"join", "joins"},
                                        {"link", "links"},
                                        {"knot", "knots"},
                                        {"wght", "weight_sum"}})
        EXPECT_EQ(stats.at(category).at("count").get<double>(), j.at(key).get<double>())
            << category;
    EXPECT_EQ(squeezed(textLine(s, "LEVL")),
              fmt::format("LEVL {} max width {}", countText(j.at("levels")),
                          countText(j.at("max_width"))));
    EXPECT_EQ(squeezed(textLine(s, "SEGS")),
              fmt::format("SEGS {} h = ∅{} / max.{}", countText(j.at("segments")),
                          fixedText(j.at("segment_height_mean"), 1),
                          countText(j.at("segment_height_max"))));
    // the scheduled figures
    EXPECT_NE(textLine(s, "total work")
                  .find(fmt::format("{}  ({} x ", msText(j.at("work_ms")),
                                    countText(j.at("scheduled_weight_sum")))),
              std::string::npos);
    EXPECT_EQ(squeezed(textLine(s, "critical path")),
              fmt::format("critical path {} (weight {})", msText(j.at("critical_path_ms")),
                          countText(j.at("scheduled_critical_path_weight"))));
    EXPECT_EQ(squeezed(textLine(s, "max width")), "max width " + countText(j.at("max_width")));
    EXPECT_NE(textLine(s, "lower bound P=").find(" " + msText(j.at("lower_bound_ms")) + "  = max("),
              std::string::npos);
    EXPECT_EQ(verdictShown(s),
              fmt::format("graph burst with {} nodes, {} levels, hash {}", countText(j.at("nodes")),
                          countText(j.at("levels")), j.at("hash").get<std::string>()));
    fs::remove_all(s.dir);
}
