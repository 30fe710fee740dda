// tools/bench/peers_table.py, the "Compared with" table, on hand-made result envelopes:
// backends in the registry's order, the best of a row in bold, a missing figure as
// "n/a" (never 0), METG "> bound" never bold, a METG the efficiency run contradicts or a
// noisy sweep marked, the load average of each run listed; the spawn run's ns per call
// and speed-up per shape and worker count; each run read from the newest run's folder
// (`latest`) when the rig wrote one, from the folder itself when the result is flat in it.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "RigTestSupport.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const fs::path kScript = fs::path(PULLSCHED_SOURCE_DIR) / "tools" / "bench" / "peers_table.py";

json environment(double load) {
    return {{"date", "2026-11-23T18:00:00Z"},
            {"machine", "vm"},
            {"cpu", "test cpu"},
            {"cores", 2},
            {"compiler", "gcc"},
            {"build_type", "Release"},
            {"version", "0.1.0"},
            {"commit", "abc"},
            {"load_average_start", load},
            {"load_average_end", load}};
}

void write(const fs::path& dir, const json& envelope) {
    fs::create_directories(dir);
    std::ofstream(dir / "granularity.json") << envelope.dump();
}

/// One graph, three backends (JSON objects come sorted, so "asio" first on purpose).
json efficiency() {
    json b;
    b["asio"] = {{"empty_ns_per_job", 150.0},
                 {"plan_and_run_ns_per_job", 150.0},
                 {"empty_busiest_thread_share", 1.0},
                 {"points", {{{"job_size_us", 1.0}, {"efficiency", 0.5}}}}};
    b["pullsched"] = {{"empty_ns_per_job", 120.0},
                      {"empty_batch_ns_per_job", 100.0},
                      {"plan_and_run_ns_per_job", 310.0},
                      {"empty_busiest_thread_share", 0.5625},
                      {"points", {{{"job_size_us", 1.0}, {"efficiency", 0.75}}}}};
    b["tbb"] = {{"empty_ns_per_job", nullptr},
                {"plan_and_run_ns_per_job", 290.0},
                {"points", {{{"job_size_us", 1.0}, {"efficiency", nullptr}}}}};
    json tie;  // every backend alike: nothing is best
    for (const char* name : {"asio", "pullsched", "tbb"})
        tie[name] = {{"empty_ns_per_job", 100.0},
                     {"points", {{{"job_size_us", 1.0}, {"efficiency", 0.5}}}}};
    return {{"mode", "granularity"},
            {"environment", environment(0.25)},
            {"result",
             {{"workers", 2},
              {"sizes_us", {1.0}},
              {"runs_total", 9},
              {"runs_verified", 9},
              {"backends",
               {{"asio", json::object()}, {"pullsched", json::object()}, {"tbb", json::object()}}},
              {"graphs",
               {{{"graph", "chain-100"}, {"backends", b}},
                {{"graph", "grid-4x4"}, {"backends", tie}}}}}}};
}

json metg() {
    json b;
    b["asio"] = {{"metg_kind", "above_largest"}, {"metg_us", nullptr}, {"metg_bound_us", 64.0}};
    b["pullsched"] = {{"metg_kind", "interpolated"}, {"metg_us", 2.5}, {"metg_bound_us", nullptr}};
    b["tbb"] = {{"metg_kind", "interpolated"},
                {"metg_us", 3.5},
                {"metg_bound_us", nullptr},
                {"non_monotonic", true},
                {"first_reached_us", 0.5}};
    json none;  // no backend reached the threshold: nothing is best
    for (const char* name : {"asio", "pullsched", "tbb"})
        none[name] = {
            {"metg_kind", "above_largest"}, {"metg_us", nullptr}, {"metg_bound_us", 64.0}};
    return {{"mode", "granularity"},
            {"environment", environment(1.5)},
            {"result",
             {{"runs_total", 4},
              {"runs_verified", 4},
              {"graphs",
               {{{"graph", "chain-100"}, {"backends", b}},
                {{"graph", "grid-4x4"}, {"backends", none}}}}}}};
}

/// --mode=spawn: one shape, 1 and 2 workers; tbb's 2-worker run missing; with `coro`,
/// pullsched's coroutine idiom too (after pullsched, as the rig lists it).
json spawn(bool coro = false) {
    auto point = [](unsigned w, json ns, json speedUp) {
        return json{{"workers", w},
                    {"runs", 3},
                    {"verified", 3},
                    {"ns_per_call_median", ns},
                    {"speed_up", speedUp}};
    };
    json shape = {
        {"name", "fib-25"},
        {"backends",
         {{{"name", "pullsched"}, {"points", {point(1, 60.0, 1.0), point(2, 36.0, 1.667)}}},
          {{"name", "tbb"}, {"points", {point(1, 110.0, 1.0), point(2, nullptr, nullptr)}}},
          {{"name", "asio"}, {"points", {point(1, 150.0, 1.0), point(2, 450.0, 0.333)}}}}}};
    const json tasks = {{"name", "pullsched-coro"},
                        {"points", {point(1, 90.0, 1.0), point(2, 54.0, 1.667)}}};
    if (coro) shape["backends"].insert(shape["backends"].begin() + 1, tasks);
    return {{"mode", "spawn"},
            {"environment", environment(0.75)},
            {"result", {{"workers", {1, 2}}, {"shapes", {shape}}}}};
}

}  // namespace

TEST(PeersTable, SpawnRowsPerShapeAndWorkerCount) {
    if (!rigtest::haveTool("python3")) GTEST_SKIP() << "python3 not installed";
    rigtest::TempDir dir("peers");
    write(dir.path / "efficiency", efficiency());
    write(dir.path / "spawn", spawn());
    const rigtest::CommandRun r =
        rigtest::runCommand("python3 '" + kScript.string() + "' '" + dir.path.string() + "'");
    ASSERT_EQ(r.status, 0) << r.output;
    const std::string& o = r.output;
    const std::size_t work = o.find("**Work that jobs create**");
    ASSERT_NE(work, std::string::npos) << o;
    EXPECT_NE(o.find("| fib-25, 1 worker | **60** | 110 | 150 |", work), std::string::npos) << o;
    EXPECT_NE(o.find("| fib-25, 2 workers | **36** | n/a | 450 |", work), std::string::npos) << o;
    const std::size_t speed = o.find("**Speed-up** of that work from 1 worker");
    ASSERT_NE(speed, std::string::npos) << o;
    EXPECT_NE(o.find("| fib-25, 2 workers | **1.67** | n/a | 0.33 |", speed), std::string::npos)
        << o;
    EXPECT_NE(o.find("- spawn: load average 0.75 → 0.75"), std::string::npos) << o;
    EXPECT_NE(o.find("- spawn: 18 of 18 runs verified"), std::string::npos) << o;
}

// pullsched-coro has a table of its own beside pullsched's continuations and oneTBB, with
// the ratios of the medians; the backends' tables keep their columns; a run without it
// (written before it existed) has no such table.
TEST(PeersTable, SpawnCoroutinesBesideContinuations) {
    if (!rigtest::haveTool("python3")) GTEST_SKIP() << "python3 not installed";
    for (const bool coro : {true, false}) {
        rigtest::TempDir dir("peers");
        write(dir.path / "efficiency", efficiency());
        write(dir.path / "spawn", spawn(coro));
        const rigtest::CommandRun r =
            rigtest::runCommand("python3 '" + kScript.string() + "' '" + dir.path.string() + "'");
        ASSERT_EQ(r.status, 0) << r.output;
        const std::string& o = r.output;
        EXPECT_NE(o.find("| fib-25, 1 worker | **60** | 110 | 150 |"), std::string::npos) << o;
        const std::size_t table = o.find("**pullsched's coroutines**");
        EXPECT_EQ(table != std::string::npos, coro) << o;
        if (!coro) continue;
        EXPECT_NE(o.find("| | continuations | coroutines | coroutines / continuations | tbb | "
                         "coroutines / tbb |",
                         table),
                  std::string::npos)
            << o;
        EXPECT_NE(o.find("| fib-25, 1 worker | 60 | 90 | 1.50 | 110 | 0.82 |", table),
                  std::string::npos)
            << o;
        EXPECT_NE(o.find("| fib-25, 2 workers | 36 | 54 | 1.50 | n/a | n/a |", table),
                  std::string::npos)
            << o;
        EXPECT_NE(o.find("- spawn: 24 of 24 runs verified"), std::string::npos) << o;
    }
}

namespace {

/// The loop run (--mode=spawn --shapes=loop:N,loop1us:N --workers=2): openmp's 1 µs point
/// missing, a recursion among the shapes left out.
json loopRun() {
    auto backend = [](const char* name, json ns) {
        return json{{"name", name},
                    {"points",
                     {{{"workers", 2}, {"runs", 4}, {"verified", 4}, {"ns_per_call_median", ns}}}}};
    };
    json empty = {
        {"name", "loop-4096"},
        {"kind", "loop"},
        {"size", 4096},
        {"backends", {backend("pullsched", 2.25), backend("tbb", 1.5), backend("asio", 12.5)}}};
    json spin = {{"name", "loop1us-65536"},
                 {"kind", "loop1us"},
                 {"size", 65536},
                 {"backends",
                  {backend("pullsched", 512.4), backend("tbb", 530.0), backend("asio", nullptr)}}};
    json fib = {{"name", "fib-5"}, {"kind", "fib"}, {"size", 5}, {"backends", json::array()}};
    return {{"mode", "spawn"},
            {"environment", environment(0.5)},
            {"result", {{"workers", {2}}, {"shapes", {empty, spin, fib}}}}};
}

}  // namespace

TEST(PeersTable, ParallelLoopSectionNanosecondsPerIteration) {
    if (!rigtest::haveTool("python3")) GTEST_SKIP() << "python3 not installed";
    rigtest::TempDir dir("peers");
    write(dir.path / "efficiency", efficiency());
    write(dir.path / "loop", loopRun());
    const rigtest::CommandRun r =
        rigtest::runCommand("python3 '" + kScript.string() + "' '" + dir.path.string() + "'");
    ASSERT_EQ(r.status, 0) << r.output;
    const std::string& o = r.output;
    const std::size_t loop = o.find("**Parallel loop (ns per iteration)**");
    ASSERT_NE(loop, std::string::npos) << o;
    EXPECT_NE(o.find("| 4 096 empty iterations | 2.25 | **1.5** | 12.5 |", loop), std::string::npos)
        << o;
    EXPECT_NE(o.find("| 65 536 iterations of 1 µs | **512** | 530 | n/a |", loop),
              std::string::npos)
        << o;
    EXPECT_EQ(o.find("fib-5", loop), std::string::npos) << o;
    EXPECT_NE(o.find("- loop: load average 0.50 → 0.50"), std::string::npos) << o;
    EXPECT_NE(o.find("- loop: 24 of 24 runs verified (every index exactly once)"),
              std::string::npos)
        << o;
}

TEST(PeersTable, RowsPerGraphBestInBoldMissingAsNa) {
    if (!rigtest::haveTool("python3")) GTEST_SKIP() << "python3 not installed";
    rigtest::TempDir dir("peers");
    write(dir.path / "efficiency", efficiency());
    write(dir.path / "metg", metg());
    const rigtest::CommandRun r =
        rigtest::runCommand("python3 '" + kScript.string() + "' '" + dir.path.string() + "'");
    ASSERT_EQ(r.status, 0) << r.output;
    const std::string& o = r.output;
    // the registry's order, not the JSON's
    EXPECT_NE(o.find("| | pullsched | tbb | asio |"), std::string::npos) << o;
    EXPECT_NE(o.find("| chain-100 | **120** | n/a | 150 |"), std::string::npos) << o;
    // planning + dispatch: its own table, after the execution-only one
    const std::size_t planning = o.find("**Planning + dispatch**");
    ASSERT_NE(planning, std::string::npos) << o;
    EXPECT_LT(o.find("**Dispatch overhead**"), planning) << o;
    // between them, pullsched's prebuilt graph behind its gate and as one batch, per graph
    const std::size_t gate = o.find("**Graph behind a timed gate / same graph as a submitted");
    ASSERT_NE(gate, std::string::npos) << o;
    EXPECT_LT(o.find("**Dispatch overhead**"), gate) << o;
    EXPECT_LT(gate, planning) << o;
    EXPECT_NE(o.find("| pullsched | behind the gate | as a batch | gate / batch |", gate),
              std::string::npos)
        << o;
    EXPECT_NE(o.find("| chain-100 | 120 | 100 | 1.20 |", gate), std::string::npos) << o;
    EXPECT_NE(o.find("| grid-4x4 | 100 | n/a | n/a |", gate), std::string::npos) << o;
    EXPECT_NE(o.find("| chain-100 | 310 | 290 | **150** |", planning), std::string::npos) << o;
    EXPECT_NE(o.find("| grid-4x4 | n/a | n/a | n/a |", planning), std::string::npos) << o;
    // which share of the empty jobs the busiest thread ran: a fact, nothing in bold
    const std::size_t share = o.find("**Busiest thread's share**");
    ASSERT_NE(share, std::string::npos) << o;
    EXPECT_LT(planning, share) << o;
    EXPECT_NE(o.find("| chain-100 | 56 % | n/a | 100 % |", share), std::string::npos) << o;
    EXPECT_NE(o.find("| grid-4x4 | n/a | n/a | n/a |", share), std::string::npos) << o;
    EXPECT_NE(o.find("| chain-100 at 1 µs | **75 %** | n/a | 50 % |"), std::string::npos) << o;
    // "> 64 µs" is not an order: the best reached METG is bold; a METG above a size at
    // which the efficiency run reached 50 % is marked (the two runs disagree), and so is
    // a sweep that crossed 50 % more than once
    EXPECT_NE(
        o.find("| chain-100 | **2.5 µs († 1 µs)** | 3.5 µs (noisy: first reached at 500 ns) | "
               "> 64 µs († 1 µs) |"),
        std::string::npos)
        << o;
    EXPECT_NE(o.find("| grid-4x4 | > 64 µs († 1 µs) | > 64 µs († 1 µs) | > 64 µs († 1 µs) |"),
              std::string::npos)
        << o;
    EXPECT_NE(o.find("read at its last crossing"), std::string::npos) << "the rule is stated";
    EXPECT_NE(o.find("| grid-4x4 | 100 | 100 | 100 |"), std::string::npos) << o;
    EXPECT_NE(o.find("| grid-4x4 at 1 µs | 50 % | 50 % | 50 % |"), std::string::npos) << o;
    EXPECT_NE(o.find("- efficiency: load average 0.25 → 0.25"), std::string::npos) << o;
    EXPECT_NE(o.find("- metg: load average 1.50 → 1.50"), std::string::npos) << o;
    EXPECT_NE(o.find("efficiency: 9 of 9 runs verified; metg: 4 of 4 runs verified"),
              std::string::npos)
        << o;
    EXPECT_EQ(o.find(" 0 |"), std::string::npos) << "a missing value printed as 0:\n" << o;
}

TEST(PeersTable, ReadsTheRunLatestNamesNotAnOlderOne) {
    if (!rigtest::haveTool("python3")) GTEST_SKIP() << "python3 not installed";
    rigtest::TempDir dir("peers");
    write(dir.path / "efficiency", efficiency());  // flat, as data/results/peers stores them
    json older = spawn();
    older["environment"] = environment(9.5);
    write(dir.path / "spawn" / "spawn-20261128T000000Z", older);
    write(dir.path / "spawn" / "spawn-20261129T031502Z", spawn());
    fs::create_directory_symlink("spawn-20261129T031502Z", dir.path / "spawn" / "latest");
    const rigtest::CommandRun r =
        rigtest::runCommand("python3 '" + kScript.string() + "' '" + dir.path.string() + "'");
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("- spawn: load average 0.75 → 0.75"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("9.50"), std::string::npos) << "the older run: " << r.output;
    EXPECT_NE(r.output.find("- efficiency: load average"), std::string::npos) << r.output;
}

TEST(PeersTable, NoResultsIsAnError) {
    if (!rigtest::haveTool("python3")) GTEST_SKIP() << "python3 not installed";
    rigtest::TempDir dir("peers");
    const rigtest::CommandRun r =
        rigtest::runCommand("python3 '" + kScript.string() + "' '" + dir.path.string() + "'");
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_NE(r.output.find("no rig results under"), std::string::npos) << r.output;
}
