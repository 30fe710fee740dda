// Calibration math on synthetic numbers and the cache file round trip. No timed assertions:
// the machines running this are shared and noisy.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <vector>

#include "pullsched/testchain/Calibration.hpp"
#include "pullsched/testchain/CalibrationCache.hpp"
#include "pullsched/testchain/ComputationalLoad.hpp"

using namespace pullsched::testchain;
namespace fs = std::filesystem;

namespace {

/// Batches whose fastest trial is the given figure, the others slower (disturbed trials).
std::vector<double> batches(std::initializer_list<double> fastest, std::size_t batch = 5) {
    std::vector<double> out;
    for (double m : fastest)
        for (std::size_t i = 0; i < batch; ++i)  // the fourth trial is the fastest
            out.push_back(m - 3.0 * static_cast<double>((i + 2) % batch));
    return out;
}

/// A fresh directory per test, removed afterwards.
class TempDir {
  public:
    TempDir() {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        path_ = fs::path{::testing::TempDir()} /
                (std::string{"pullsched-cal-"} + info->name() + "-" + std::to_string(::getpid()));
        fs::remove_all(path_);
    }
    ~TempDir() { fs::remove_all(path_); }
    const fs::path& path() const { return path_; }

  private:
    fs::path path_;
};

/// Sets or unsets an environment variable for the scope of a test.
class EnvGuard {
  public:
    explicit EnvGuard(const char* name) : name_(name) {
        if (const char* v = std::getenv(name)) old_ = v;
    }
    ~EnvGuard() {
        if (old_)
            ::setenv(name_, old_->c_str(), 1);
        else
            ::unsetenv(name_);
    }
    void set(const char* v) { ::setenv(name_, v, 1); }
    void unset() { ::unsetenv(name_); }

  private:
    const char* name_;
    std::optional<std::string> old_;
};

}  // namespace

TEST(Calibration, ConvergesWhenTheFastestTrialsOfTwoBatchesAgree) {
    const auto s = batches({100, 104});  // 4 % apart
    const auto c = estimateConverged(s);
    ASSERT_TRUE(c);
    EXPECT_NEAR(c->speed, 102.0, 1e-9);
    EXPECT_NEAR(c->errorPercent, 4.0 / 102.0 * 100.0, 1e-9);
    EXPECT_EQ(c->samples, 10u);
    EXPECT_FALSE(c->fromCache);
}

TEST(Calibration, KeepsGoingWhileEstimatesDisagree) {
    EXPECT_FALSE(estimateConverged(batches({100, 120})));  // 20 % apart
    EXPECT_FALSE(estimateConverged(batches({100})));       // a single estimate proves nothing
    EXPECT_FALSE(estimateConverged(std::vector<double>{}));
    const auto c = estimateConverged(batches({100, 110, 111}));
    ASSERT_TRUE(c);
    EXPECT_NEAR(c->speed, 110.5, 1e-9);
    EXPECT_EQ(c->samples, 15u);
    // 5 % of the newer estimate is the limit
    EXPECT_TRUE(estimateConverged(batches({95, 100})));
    EXPECT_FALSE(estimateConverged(batches({94.9, 100})));
    // batch size is honoured
    EXPECT_TRUE(estimateConverged(batches({50, 51}, 3), 3));
}

TEST(Calibration, CalibrateWithSyntheticSamples) {
    const std::vector<double> feed = batches({200, 150, 149});
    std::size_t calls = 0;
    const Calibration c = calibrateWith([&] { return feed.at(calls++); });
    EXPECT_EQ(calls, 15u);
    EXPECT_EQ(c.samples, 15u);
    EXPECT_NEAR(c.speed, 149.5, 1e-9);
    EXPECT_NEAR(c.errorPercent, 1.0 / 149.5 * 100.0, 1e-9);
}

TEST(Calibration, GivesUpAfterMaxSamplesAndReportsTheError) {
    std::size_t calls = 0;
    const Calibration c =
        calibrateWith([&] { return (calls++ / 5) % 2 == 0 ? 100.0 : 200.0; }, 5, 0.05, 20);
    EXPECT_EQ(calls, 20u);
    EXPECT_NEAR(c.speed, 150.0, 1e-9);
    EXPECT_NEAR(c.errorPercent, 100.0 / 150.0 * 100.0, 1e-9);
}

TEST(Calibration, OtherWorkOnTheCpuDoesNotLowerTheSpeed) {
    // 500 units/us when undisturbed; most trials lose part of their time to other work
    // (a mean of these batches would be ~330). Each batch has one trial within 1 %.
    const std::vector<double> factor{0.45, 0.7, 0.995, 0.5, 0.6, 0.8, 0.4, 0.99, 0.55, 0.65};
    std::size_t calls = 0;
    const Calibration c = calibrateWith([&] { return 500.0 * factor[calls++ % factor.size()]; });
    EXPECT_EQ(c.samples, 10u);
    EXPECT_NEAR(c.speed, 500.0 * (0.995 + 0.99) / 2.0, 1e-9);
}

TEST(Calibration, CacheCheck) {
    EXPECT_NEAR(relativeErrorPercent(100, 95), 5.0, 1e-12);
    EXPECT_NEAR(relativeErrorPercent(100, 110), 10.0, 1e-12);
    EXPECT_TRUE(std::isinf(relativeErrorPercent(0, 1)));
    EXPECT_EQ(checkCached(100, 104.9), CacheCheck::Confirmed);
    EXPECT_EQ(checkCached(100, 95.5), CacheCheck::Confirmed);
    // slower now: the machine is busier than when it was calibrated, keep the figure
    EXPECT_EQ(checkCached(100, 94.9), CacheCheck::RunsSlower);
    EXPECT_EQ(checkCached(100, 50), CacheCheck::RunsSlower);
    // faster: the cached figure was taken on a busy machine; less than half: not load
    EXPECT_EQ(checkCached(100, 106), CacheCheck::Stale);
    EXPECT_EQ(checkCached(100, 49.9), CacheCheck::Stale);
    EXPECT_EQ(checkCached(0, 0), CacheCheck::Stale);
    EXPECT_EQ(checkCached(100, std::numeric_limits<double>::quiet_NaN()), CacheCheck::Stale);
}

TEST(Calibration, RecheckKeepsACachedSpeedThatRunsSlowerNow) {
    auto feed = [](std::vector<double> v) {
        return [v, i = std::size_t{0}]() mutable { return v.at(i++); };
    };
    // the fastest of three decides: 98 confirms 100
    auto c = recheckCached(100, feed({60, 98, 70}));
    ASSERT_TRUE(c);
    EXPECT_TRUE(c->fromCache);
    EXPECT_EQ(c->speed, 100);
    EXPECT_NEAR(c->errorPercent, 2.0, 1e-9);
    EXPECT_EQ(c->slowerAtCheckPercent, 0.0);
    // 70 % now: kept, and said
    c = recheckCached(100, feed({60, 70, 65}));
    ASSERT_TRUE(c);
    EXPECT_EQ(c->speed, 100);
    EXPECT_NEAR(c->slowerAtCheckPercent, 30.0, 1e-9);
    // faster now, or not half as fast: calibrate afresh
    EXPECT_FALSE(recheckCached(100, feed({90, 120, 100})));
    EXPECT_FALSE(recheckCached(100, feed({40, 45, 30})));
}

TEST(CalibrationCache, RoundTrip) {
    TempDir dir;
    const CalibrationCache cache{dir.path() / "nested"};
    EXPECT_TRUE(cache.enabled());
    EXPECT_FALSE(cache.load("cpu A | gcc | cpu"));
    const double speed = 123.45678901234567;
    ASSERT_TRUE(cache.store("cpu A | gcc | cpu", speed));
    ASSERT_TRUE(cache.store("cpu B | gcc | cpu", 7.5));
    EXPECT_EQ(cache.load("cpu A | gcc | cpu"), speed);  // bit exact
    EXPECT_EQ(cache.load("cpu B | gcc | cpu"), 7.5);
    EXPECT_NE(cache.fileFor("cpu A | gcc | cpu"), cache.fileFor("cpu B | gcc | cpu"));
    ASSERT_TRUE(cache.store("cpu A | gcc | cpu", 99.0));  // overwrite
    EXPECT_EQ(cache.load("cpu A | gcc | cpu"), 99.0);
    EXPECT_TRUE(fs::exists(cache.fileFor("cpu A | gcc | cpu")));
}

TEST(CalibrationCache, RejectsForeignOrBrokenFiles) {
    TempDir dir;
    const CalibrationCache cache{dir.path()};
    ASSERT_TRUE(cache.store("key", 10.0));
    {
        std::ofstream out{cache.fileFor("key"), std::ios::trunc};
        out << "key=other\nspeed=10\n";
    }
    EXPECT_FALSE(cache.load("key"));
    {
        std::ofstream out{cache.fileFor("key"), std::ios::trunc};
        out << "key=key\nspeed=fast\n";
    }
    EXPECT_FALSE(cache.load("key"));
    {
        std::ofstream out{cache.fileFor("key"), std::ios::trunc};
        out << "key=key\nspeed=-3\n";
    }
    EXPECT_FALSE(cache.load("key"));
}

TEST(CalibrationCache, DisabledCacheDoesNothing) {
    const CalibrationCache cache{std::nullopt};
    EXPECT_FALSE(cache.enabled());
    EXPECT_FALSE(cache.store("key", 1.0));
    EXPECT_FALSE(cache.load("key"));
}

TEST(CalibrationCache, DefaultDirectoryFromEnvironment) {
    EnvGuard xdg{"XDG_CACHE_HOME"};
    EnvGuard home{"HOME"};
    xdg.set("/tmp/xdg");
    home.set("/home/someone");
    EXPECT_EQ(CalibrationCache::defaultDirectory(), fs::path{"/tmp/xdg/pullsched"});
    xdg.unset();
    EXPECT_EQ(CalibrationCache::defaultDirectory(), fs::path{"/home/someone/.cache/pullsched"});
    xdg.set("");
    EXPECT_EQ(CalibrationCache::defaultDirectory(), fs::path{"/home/someone/.cache/pullsched"});
    home.unset();
    xdg.unset();
    EXPECT_FALSE(CalibrationCache::defaultDirectory());
    EXPECT_FALSE(CalibrationCache::fromEnvironment().enabled());
}

TEST(ComputationalLoad, UnitsFollowTheCalibratedSpeed) {
    ComputationalLoad load;
    EXPECT_FALSE(load.isCalibrated());
    EXPECT_THROW(load.invoke(std::chrono::microseconds{1}), std::logic_error);
    load.setCalibration({.speed = 2.5});
    EXPECT_TRUE(load.isCalibrated());
    EXPECT_EQ(load.unitsFor(std::chrono::milliseconds{2}), 5000u);
    EXPECT_EQ(load.unitsFor(std::chrono::nanoseconds{0}), 0u);
    EXPECT_EQ(load.unitsFor(std::chrono::nanoseconds{1}), 1u);  // never silently nothing
    load.invoke(0, std::chrono::milliseconds{1});               // weight 0: no work
    load.invoke(2, std::chrono::microseconds{1});               // 5 steps, just runs

    ComputationalLoad mem{ComputationalLoad::Mode::Memory, 16};
    mem.setCalibration({.speed = 1.0});
    mem.invoke(3, std::chrono::microseconds{10});
    EXPECT_THROW(ComputationalLoad(ComputationalLoad::Mode::Memory, 0), std::invalid_argument);
}

TEST(ComputationalLoad, CacheKeyNamesMachineBuildAndMode) {
    const ComputationalLoad cpu;
    const ComputationalLoad mem{ComputationalLoad::Mode::Memory, 500};
    const std::string k = cpu.cacheKey();
    EXPECT_NE(k.find(ComputationalLoad::cpuModel()), std::string::npos);
    EXPECT_NE(k.find(ComputationalLoad::buildId()), std::string::npos);
    EXPECT_NE(k.find("cpu"), std::string::npos);
    EXPECT_NE(mem.cacheKey().find("memory | sizeBase 500"), std::string::npos);
    EXPECT_NE(k, mem.cacheKey());
    EXPECT_FALSE(ComputationalLoad::cpuModel().empty());
}

TEST(ComputationalLoad, WrongCachedSpeedIsReplaced) {
    TempDir dir;
    const CalibrationCache cache{dir.path()};
    ComputationalLoad load;
    // no machine does one step per 10^6 µs: the re-check must reject it
    ASSERT_TRUE(cache.store(load.cacheKey(), 1e-6));
    const Calibration& c = load.calibrate(cache);
    EXPECT_FALSE(c.fromCache);
    EXPECT_GT(c.speed, 1e-3);
    EXPECT_GE(c.samples, 10u);
    EXPECT_EQ(cache.load(load.cacheKey()), c.speed);
}
