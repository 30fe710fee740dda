// --stages through the binary: the result has the stages, every interval's offered and
// achieved rate and a recovery verdict (open, open on several backends, soak); bad stages
// exit 2 with one line before anything runs. No timed assertions: counts that follow from
// the timetable, fields, files, exit codes.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "RigTestSupport.hpp"
#include "cli/StagesOption.hpp"
#include "load/ArrivalTimetable.hpp"

using nlohmann::json;
using pullsched::Duration;
using pullsched::rig::ArrivalTimetable;
using pullsched::rig::parseStages;
using pullsched::rig::RateProfile;
using namespace std::chrono_literals;

namespace {

/// Every interval of `intervals` (ends every `step`) offers the profile's mean rate over it.
void expectOfferedFollowsTheProfile(const json& intervals, const RateProfile& p, Duration step) {
    ASSERT_EQ(intervals.size(), static_cast<std::size_t>(p.duration() / step));
    for (std::size_t k = 0; k < intervals.size(); ++k) {
        const Duration from = step * static_cast<Duration::rep>(k);
        EXPECT_NEAR(intervals[k].at("offered_per_s").get<double>(), p.meanRate(from, from + step),
                    1e-6)
            << k;
        EXPECT_TRUE(intervals[k].contains("achieved_per_s") ||
                    intervals[k].contains("throughput_per_s"))
            << k;
    }
}

void expectRecoveryVerdict(const json& recovery, double spikeEnd) {
    EXPECT_TRUE(recovery.at("assessed").get<bool>());
    EXPECT_DOUBLE_EQ(recovery.at("spike_end_s").get<double>(), spikeEnd);
    for (const char* k : {"recovered", "drain_s", "under_limit_s", "backlog_at_spike_end",
                          "peak_backlog_after_spike"})
        EXPECT_TRUE(recovery.contains(k)) << k;
}

}  // namespace

TEST(OpenStages, ResultHasStagesIntervalsAndRecovery) {
    const std::string spec = "1s:0->500/s,1s:500/s,0.5s:2k/s,1s:500/s";
    const RateProfile p = parseStages(spec);
    // --limit=1s: a deadline window of 100 s, so every arrival runs
    const auto dir = rigtest::scratch("stages", "open");
    const rigtest::JsonRun run =
        rigtest::rigJson("--mode=open --load=20us --limit=1s --stages='" + spec + "'", dir);
    const json& res = run.j.at("result");
    EXPECT_EQ(res.at("jobs_posted").get<std::size_t>(),
              ArrivalTimetable::staged(p, 0s, p.duration()).size());
    ASSERT_EQ(res.at("stages").size(), 4u);
    EXPECT_EQ(res.at("stages")[2].at("from_per_s").get<double>(), 2000.0);
    EXPECT_EQ(res.at("stages")[0].at("duration_s").get<double>(), 1.0);
    expectOfferedFollowsTheProfile(res.at("intervals"), p, 100ms);
    expectRecoveryVerdict(res.at("recovery"), 2.5);
    EXPECT_NE(run.j.at("verdict").get<std::string>().find("recover"), std::string::npos);
    EXPECT_EQ(run.j.at("configuration").at("stages").get<std::string>(), spec);
}

TEST(OpenStages, EveryBackendPlaysTheSameProfile) {
    const std::string spec = "300ms:0->1k,200ms:3k,300ms:1k";
    const RateProfile p = parseStages(spec);
    const rigtest::JsonRun run = rigtest::rigJsonIn(
        "stages", "backends",
        "--mode=open --load=20us --warmup=0s --backends=pullsched,pool --stages='" + spec + "'");
    const json& res = run.j.at("result");
    ASSERT_EQ(res.at("stages").size(), 3u);
    const std::size_t arrivals = ArrivalTimetable::staged(p, 0s, p.duration()).size();
    for (const char* b : {"pullsched", "pool"}) {
        const json& r = res.at("backends").at(b);
        EXPECT_EQ(r.at("jobs_posted").get<std::size_t>(), arrivals) << b;
        expectOfferedFollowsTheProfile(r.at("intervals"), p, 100ms);
        expectRecoveryVerdict(r.at("recovery"), 0.5);
    }
}

TEST(OpenStages, SoakTakesStagesToo) {
    const std::string spec = "300ms:200->1k,200ms:2k,300ms:1k";
    const RateProfile p = parseStages(spec);
    const rigtest::JsonRun run = rigtest::rigJsonIn(
        "stages", "soak",
        "--mode=soak --interval=100ms --load=20us --limit=1s --warmup=0s --stages='" + spec + "'");
    const json& res = run.j.at("result");
    EXPECT_EQ(res.at("jobs_posted").get<std::size_t>(),
              ArrivalTimetable::staged(p, 0s, p.duration()).size());
    expectOfferedFollowsTheProfile(res.at("intervals"), p, 100ms);
    expectRecoveryVerdict(res.at("recovery"), 0.5);
}

TEST(OpenStages, BadStagesExitTwoWithOneLineBeforeAnythingRuns) {
    const auto dir = rigtest::scratch("stages", "bad");
    const std::pair<std::string, std::string> cases[] = {
        {"--mode=open --stages=1s:1k,", "stage 2 is empty"},
        {"--mode=open --stages=", "needs a value"},
        {"--mode=open --stages=0s:1k", "longer than 0"},
        {"--mode=open --stages=1s:-1", "must not be negative"},
        {"--mode=open --stages=1s:1k/fortnight", "unknown suffix"},
        {"--mode=open --stages=1q:1k", "unknown unit"},
        {"--mode=open --stages=1s:1k --rate=5", "--stages and --rate"},
        {"--mode=soak --stages=1s:1k --duration=2s", "--stages and --duration"},
        {"--mode=open --stages=@no-such-file", "cannot read the file"},
        {"--mode=headroom --stages=1s:1k", "does not apply to --mode=headroom"},
        // a load as long as --duration allows, of one job at least: a shorter one measured
        // one job over 1 ns ("achieved 1000M/s")
        {"--mode=open --warmup=0s --stages=1ns:1k/s",
         "invalid --stages='1ns:1k/s': the stages last 1ns in all; a load lasts 10.0ms..24h 00min"},
        {"--mode=open --warmup=0s --stages=1us:1k/s,20ms:0",
         "invalid --stages='1us:1k/s,20ms:0': the stages offer 0.001 jobs in all"},
    };
    for (const auto& [args, message] : cases) {
        const rigtest::Result r = rigtest::rig(args + " --out=out", dir);
        EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
        EXPECT_NE(r.err.find(message), std::string::npos) << args << "\n" << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << "\n" << r.err;
        EXPECT_FALSE(std::filesystem::exists(dir / "out")) << args;
    }
}

TEST(OpenStages, StagesFileWithComments) {
    const auto dir = rigtest::scratch("stages", "file");
    {
        std::ofstream f(dir / "stages.txt");
        f << "# ramp, then hold\n200ms: 0 -> 1k/s\n\n200ms:1k/s  # hold\n";
    }
    const rigtest::JsonRun run =
        rigtest::rigJson("--mode=open --load=20us --warmup=0s --stages=@stages.txt", dir);
    const json& res = run.j.at("result");
    ASSERT_EQ(res.at("stages").size(), 2u);
    EXPECT_EQ(res.at("stages")[1].at("to_per_s").get<double>(), 1000.0);
    EXPECT_EQ(res.at("intervals").size(), 4u);
}
