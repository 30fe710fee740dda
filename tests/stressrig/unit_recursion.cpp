// Work that jobs create: the shapes' figures are right, the sizes parse or are refused
// with a reason, and every backend computes every shape right, run after run, on one and
// on two workers; a run told to abandon ends at once and says so. No timed assertions.
// A TSan build leaves out oneTBB and OpenMP (RigTestSupport.hpp says why).
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>

#include "RigTestSupport.hpp"
#include "backends/BackendRegistry.hpp"
#include "backends/Recursion.hpp"
#include "backends/RecursionRunner.hpp"

using namespace pullsched::rig;

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
    auto message = [](const char* text) {
        try {
            parseRecursion(text);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(message("fib"), "'fib': give the size, e.g. fib:25 or skynet:6");
    EXPECT_EQ(message("fib:2x"), "'fib:2x': the size must be a whole number");
    EXPECT_EQ(message("fib:"), "'fib:': the size must be a whole number");
    EXPECT_EQ(message("skynet:9"), "'skynet:9': at most 8");
    EXPECT_EQ(message("fib:41"), "'fib:41': at most 40");
}

TEST(RecursionRunners, EveryBackendComputesEveryShapeRunAfterRun) {
    const std::atomic<bool> abandon{false};
    for (const BackendInfo& b : BackendRegistry::all()) {
        ASSERT_TRUE(b.runsRecursion()) << b.name;
        if (rigtest::skipUnderThreadSanitizer(std::string(b.name))) continue;
        for (const unsigned workers : {1u, 2u}) {
            auto runner = BackendRegistry::recursionRunner(b.name);
            runner->prepare(workers);
            for (const RecursionShape shape :
                 {RecursionShape{RecursionKind::Fib, 0}, RecursionShape{RecursionKind::Fib, 15},
                  RecursionShape{RecursionKind::Skynet, 0},
                  RecursionShape{RecursionKind::Skynet, 3}}) {
                for (int run = 0; run < 3; ++run) {
                    const RecursionRun r = runner->run(shape, abandon);
                    EXPECT_EQ(r.result, expectedResult(shape))
                        << b.name << " " << workers << " workers " << recursionLabel(shape)
                        << " run " << run;
                    EXPECT_GT(r.wall.count(), 0) << b.name;
                }
            }
        }
    }
}

TEST(RecursionRunners, AnAbandonedRunSpawnsNothingAndSaysSo) {
    const std::atomic<bool> abandon{true};  // as if a stop came before the root's first call
    for (const BackendInfo& b : BackendRegistry::all()) {
        if (rigtest::skipUnderThreadSanitizer(std::string(b.name))) continue;
        auto runner = BackendRegistry::recursionRunner(b.name);
        runner->prepare(2);
        for (const RecursionShape shape :
             {RecursionShape{RecursionKind::Fib, 30}, RecursionShape{RecursionKind::Skynet, 7}}) {
            const RecursionRun r = runner->run(shape, abandon);
            EXPECT_TRUE(r.abandoned) << b.name << " " << recursionLabel(shape);
            EXPECT_EQ(r.result, 0u) << b.name << " " << recursionLabel(shape);
        }
    }
}

TEST(RecursionRunners, AnUnpreparedRunnerRefusesToRun) {
    const std::atomic<bool> abandon{false};
    for (const BackendInfo& b : BackendRegistry::all()) {
        auto runner = BackendRegistry::recursionRunner(b.name);
        EXPECT_THROW(runner->run({RecursionKind::Fib, 5}, abandon), std::logic_error) << b.name;
        EXPECT_THROW(runner->prepare(0), std::invalid_argument) << b.name;
    }
}
