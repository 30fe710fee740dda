// Work that jobs create: the shapes' figures are right, the sizes parse or are refused
// with a reason, and every runner (each backend's, and pullsched's coroutine idiom)
// computes every shape right, run after run, on one and on two workers; a run told to
// abandon ends at once and says so; the coroutine idiom is a name of --mode=spawn only.
// The loop shapes: every runner runs every index exactly once, run after run. No timed
// assertions. A TSan build leaves out oneTBB and OpenMP (RigTestSupport.hpp says
// why).
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

#include "RigTestSupport.hpp"
#include "backends/BackendRegistry.hpp"
#include "backends/Recursion.hpp"
#include "backends/RecursionRunner.hpp"

using namespace pullsched::rig;

namespace {

/// What parseRecursion says of `text`: its std::invalid_argument, or "accepted".
std::string message(const char* text) {
    try {
        parseRecursion(text);
    } catch (const std::invalid_argument& e) {
        return std::string(e.what());
    }
    return std::string("accepted");
}

}  // namespace

TEST(Recursion, FiguresOfTheShapes) {
    EXPECT_EQ(expectedResult({RecursionKind::Fib, 0}), 0u);
    EXPECT_EQ(expectedResult({RecursionKind::Fib, 1}), 1u);
    EXPECT_EQ(expectedResult({RecursionKind::Fib, 20}), 6765u);
    EXPECT_EQ(callCount({RecursionKind::Fib, 0}), 1u);
    EXPECT_EQ(callCount({RecursionKind::Fib, 2}), 3u);  // fib(2) -> fib(1), fib(0)
    EXPECT_EQ(callCount({RecursionKind::Fib, 20}), 21891u);
    EXPECT_EQ(expectedResult({RecursionKind::Skynet, 1}), 45u);  // 0 + 1 + ... + 9
    EXPECT_EQ(expectedResult({RecursionKind::Skynet, 6}), 499999500000u);
    EXPECT_EQ(callCount({RecursionKind::Skynet, 0}), 1u);
    EXPECT_EQ(callCount({RecursionKind::Skynet, 2}), 111u);
    EXPECT_EQ(recursionLabel({RecursionKind::Skynet, 6}), "skynet-6");
}

TEST(Recursion, ParsesSizesAndSaysWhyNot) {
    const auto fib = parseRecursion("fib:25");
    ASSERT_TRUE(fib);
    EXPECT_EQ(fib->kind, RecursionKind::Fib);
    EXPECT_EQ(fib->size, 25u);
    const auto sky = parseRecursion("skynet:6");
    ASSERT_TRUE(sky);
    EXPECT_EQ(sky->kind, RecursionKind::Skynet);
    EXPECT_FALSE(parseRecursion("stencil_1d:8x100"));  // not a recursion: somebody else's
    EXPECT_EQ(message("fib"), "'fib': give the size, e.g. fib:25 or skynet:6");
    EXPECT_EQ(message("fib:2x"), "'fib:2x': the size must be a whole number");
    EXPECT_EQ(message("fib:"), "'fib:': the size must be a whole number");
    EXPECT_EQ(message("skynet:9"), "'skynet:9': at most 8");
    EXPECT_EQ(message("fib:41"), "'fib:41': at most 40");
}

TEST(Recursion, LoopShapesParseAndCountTheirIterations) {
    const auto loop = parseRecursion("loop:4096");
    ASSERT_TRUE(loop);
    EXPECT_EQ(loop->kind, RecursionKind::Loop);
    EXPECT_EQ(loop->size, 4096u);
    EXPECT_TRUE(isLoop(*loop));
    const auto spin = parseRecursion("loop1us:64");
    ASSERT_TRUE(spin);
    EXPECT_EQ(spin->kind, RecursionKind::Loop1us);
    EXPECT_FALSE(isLoop({RecursionKind::Fib, 20}));
    EXPECT_EQ(recursionLabel(*loop), "loop-4096");
    EXPECT_EQ(recursionLabel(*spin), "loop1us-64");
    EXPECT_EQ(callCount(*loop), 4096u);
    EXPECT_EQ(expectedResult(*loop), 4096u);  // every index exactly once
    EXPECT_EQ(kindName(RecursionKind::Loop1us), "loop1us");
    EXPECT_EQ(parseRecursion("loop:16777216")->size, kMaxLoop);
    EXPECT_EQ(message("loop"), "'loop': give the size, e.g. loop:4096 or loop1us:64");
    EXPECT_EQ(message("loop:0"), "'loop:0': at least 1 iteration");
    EXPECT_EQ(message("loop:-3"), "'loop:-3': the size must be a whole number");
    EXPECT_EQ(message("loop:16777217"), "'loop:16777217': at most 16777216");
    EXPECT_EQ(message("loop1us:1048577"), "'loop1us:1048577': at most 1048576");
    EXPECT_FALSE(parseRecursion("loops:4"));
}

// Every index once, in every run: the runner starts each run from zeroed counters and
// counts the indices that reached exactly 1. Sizes below, at and above the chunk count.
TEST(RecursionRunners, EveryBackendRunsEveryIndexOfALoopExactlyOnce) {
    const std::atomic<bool> abandon{false};
    for (const std::string& name : BackendRegistry::recursionNames()) {
        if (rigtest::skipUnderThreadSanitizer(name)) continue;
        for (const unsigned workers : {1u, 2u}) {
            auto runner = BackendRegistry::recursionRunner(name);
            EXPECT_FALSE(runner->loopIdiom().empty()) << name;
            runner->prepare(workers);
            runner->setMicrosecondUnits(3);  // a few steps: the spin, not its length
            for (const RecursionShape shape :
                 {RecursionShape{RecursionKind::Loop, 1}, RecursionShape{RecursionKind::Loop, 7},
                  RecursionShape{RecursionKind::Loop, 8}, RecursionShape{RecursionKind::Loop, 1001},
                  RecursionShape{RecursionKind::Loop1us, 37}}) {
                for (int run = 0; run < 3; ++run) {
                    const RecursionRun r = runner->run(shape, abandon);
                    EXPECT_FALSE(r.abandoned);
                    EXPECT_EQ(r.result, shape.size) << name << " " << workers << " workers "
                                                    << recursionLabel(shape) << " run " << run;
                }
            }
        }
    }
}

TEST(RecursionRunners, ALoopNeedsItsMicrosecondAndStartsNoneWhenAbandoned) {
    for (const std::string& name : BackendRegistry::recursionNames()) {
        if (rigtest::skipUnderThreadSanitizer(name)) continue;
        auto runner = BackendRegistry::recursionRunner(name);
        runner->prepare(2);
        const std::atomic<bool> go{false};
        EXPECT_THROW(runner->run({RecursionKind::Loop1us, 4}, go), std::logic_error) << name;
        const std::atomic<bool> abandon{true};
        const RecursionRun r = runner->run({RecursionKind::Loop, 1000}, abandon);
        EXPECT_TRUE(r.abandoned) << name;
        EXPECT_EQ(r.result, 0u) << name;
    }
}

TEST(RecursionRunners, EveryRunnerComputesEveryShapeRunAfterRun) {
    const std::atomic<bool> abandon{false};
    for (const BackendInfo& b : BackendRegistry::all())
        ASSERT_TRUE(b.runsRecursion()) << b.name;
    for (const std::string& name : BackendRegistry::recursionNames()) {
        if (rigtest::skipUnderThreadSanitizer(name)) continue;
        for (const unsigned workers : {1u, 2u}) {
            auto runner = BackendRegistry::recursionRunner(name);
            runner->prepare(workers);
            for (const RecursionShape shape :
                 {RecursionShape{RecursionKind::Fib, 0}, RecursionShape{RecursionKind::Fib, 15},
                  RecursionShape{RecursionKind::Skynet, 0},
                  RecursionShape{RecursionKind::Skynet, 3}}) {
                for (int run = 0; run < 3; ++run) {
                    const RecursionRun r = runner->run(shape, abandon);
                    EXPECT_EQ(r.result, expectedResult(shape))
                        << name << " " << workers << " workers " << recursionLabel(shape) << " run "
                        << run;
                    EXPECT_FALSE(r.abandoned) << name;
                    EXPECT_GT(r.wall.count(), 0) << name;
                }
            }
        }
    }
}

TEST(RecursionRunners, AnAbandonedRunSpawnsNothingAndSaysSo) {
    const std::atomic<bool> abandon{true};  // as if a stop came before the root's first call
    for (const std::string& name : BackendRegistry::recursionNames()) {
        if (rigtest::skipUnderThreadSanitizer(name)) continue;
        auto runner = BackendRegistry::recursionRunner(name);
        runner->prepare(2);
        for (const RecursionShape shape :
             {RecursionShape{RecursionKind::Fib, 30}, RecursionShape{RecursionKind::Skynet, 7}}) {
            const RecursionRun r = runner->run(shape, abandon);
            EXPECT_TRUE(r.abandoned) << name << " " << recursionLabel(shape);
            EXPECT_EQ(r.result, 0u) << name << " " << recursionLabel(shape);
        }
    }
}

TEST(RecursionRunners, AnUnpreparedRunnerRefusesToRun) {
    const std::atomic<bool> abandon{false};
    for (const std::string& name : BackendRegistry::recursionNames()) {
        auto runner = BackendRegistry::recursionRunner(name);
        EXPECT_THROW(runner->run({RecursionKind::Fib, 5}, abandon), std::logic_error) << name;
        EXPECT_THROW(runner->run({RecursionKind::Loop, 5}, abandon), std::logic_error) << name;
        EXPECT_THROW(runner->prepare(0), std::invalid_argument) << name;
    }
}

// pullsched's coroutine idiom runs on pullsched beside its continuation idiom, in
// --mode=spawn only: "all" there takes it in, right after pullsched; no other mode's
// list knows the name.
TEST(RecursionRunners, TheCoroutineIdiomIsASpawnNameOnly) {
    const std::vector<std::string> names = BackendRegistry::recursionNames();
    std::vector<std::string> want = BackendRegistry::names();
    want.insert(want.begin() + 1, "pullsched-coro");
    EXPECT_EQ(names, want);
    EXPECT_EQ(BackendRegistry::parseRecursionList("all"), names);
    EXPECT_EQ(BackendRegistry::parseRecursionList("tbb,pullsched-coro"),
              (std::vector<std::string>{"tbb", "pullsched-coro"}));
    EXPECT_EQ(BackendRegistry::parseList("all"), BackendRegistry::names());
    auto message = [](auto&& f) {
        try {
            f();
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(message([] { BackendRegistry::parseList("pullsched,pullsched-coro"); }),
              "unknown backend 'pullsched-coro' (known: pullsched, tbb, openmp, asio, pool, or "
              "all)");
    EXPECT_EQ(message([] { BackendRegistry::parseRecursionList("pullsched-co"); }),
              "unknown backend 'pullsched-co' (known: pullsched, pullsched-coro, tbb, openmp, "
              "asio, pool, or all)");
    EXPECT_THROW(BackendRegistry::find("pullsched-coro"), std::invalid_argument);
    EXPECT_THROW(BackendRegistry::graphRunner("pullsched-coro"), std::invalid_argument);
    EXPECT_THROW(BackendRegistry::streamRunner("pullsched-coro"), std::invalid_argument);
    const auto coro = BackendRegistry::recursionRunner("pullsched-coro");
    const auto cont = BackendRegistry::recursionRunner("pullsched");
    EXPECT_EQ(&coro->info(), &BackendRegistry::find("pullsched"));
    EXPECT_NE(std::string(coro->idiom()).find("Task (C++20 coroutine)"), std::string::npos)
        << coro->idiom();
    EXPECT_NE(std::string(cont->idiom()).find("postDetached"), std::string::npos) << cont->idiom();
}
