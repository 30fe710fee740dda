#include "legacy/LoadTestCore.hpp"

#include "legacy/ReportWriter.hpp"

#include <time.h>

#include <algorithm>
#include <iostream>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "report/Units.hpp"

namespace pullsched::rig::loadtest {

using namespace std::chrono_literals;

// ------------------------------------------------------------------ LatencyRecorder

LatencyRecorder::LatencyRecorder(unsigned workers) {
    slots_.reserve(workers);
    for (unsigned i = 0; i < workers; ++i)
        slots_.push_back(std::make_unique<Slot>());
}

void LatencyRecorder::onJobStart(unsigned worker, const pullsched::JobEvent& e) {
    if (worker >= slots_.size()) return;
    Slot& s = *slots_[worker];
    s.started.fetch_add(1, std::memory_order_relaxed);
    if (!(e.tag & kMeasuredTag) || e.scheduledStart == pullsched::kAsap) return;
    const auto late = std::chrono::duration_cast<Duration>(e.now - e.scheduledStart);
    std::lock_guard lock(s.mutex);
    s.histogram.record(late);
}

void LatencyRecorder::harvest(LatencyHistogram& into) {
    for (auto& s : slots_) {
        std::lock_guard lock(s->mutex);
        into.merge(s->histogram);
        s->histogram.reset();
    }
}

std::uint64_t LatencyRecorder::started() const noexcept {
    std::uint64_t n = 0;
    for (auto& s : slots_)
        n += s->started.load(std::memory_order_relaxed);
    return n;
}

// ------------------------------------------------------------------ helpers

Duration deadlineWindow(const RigOptions& opt) {
    return 100 * opt.limit;
}

Duration threadCpuTime() noexcept {
    timespec ts{};
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return Duration{0};
    return std::chrono::seconds{ts.tv_sec} + Duration{ts.tv_nsec};
}

ArrivalTimetable makeTimetable(const RigOptions& opt, double rate, Duration duration) {
    if (opt.arrival == "poisson") return ArrivalTimetable::poisson(rate, duration, opt.sampleSeed);
    return ArrivalTimetable::constant(rate, duration);
}

bool validateCommon(const RigOptions& opt, const char* mode) {
    auto bad = [&](const std::string& msg) {
        std::cerr << "stressrig: --mode=" << mode << ": " << msg << "\n";
        return false;
    };
    if (opt.workers.empty()) return bad("--workers is empty");
    for (unsigned w : opt.workers)
        if (w == 0 || w > 1024) return bad(fmt::format("--workers={} is out of range 1..1024", w));
    if (opt.load <= Duration{0}) return bad("--load must be positive");
    if (opt.load > 10s) return bad("--load above 10s is not a sensible job size");
    if (opt.arrival != "constant" && opt.arrival != "poisson")
        return bad(fmt::format("--arrival={} (expected constant or poisson)", opt.arrival));
    if (opt.loadKind != "cpu" && opt.loadKind != "memory")
        return bad(fmt::format("--load-kind={} (expected cpu or memory)", opt.loadKind));
    if (opt.limit <= Duration{0}) return bad("--limit must be positive");
    if (opt.deadlineWindow && *opt.deadlineWindow < Duration{0})
        return bad("--deadline-window must not be negative");
    if (opt.think < Duration{0}) return bad("--think must not be negative");
    return true;
}

// ------------------------------------------------------------------ OpenLoadDriver

OpenLoadDriver::OpenLoadDriver(pullsched::Scheduler& scheduler,
                               const testchain::ComputationalLoad& load, OpenPlayConfig config)
    : sched_(scheduler), load_(load), cfg_(config) {}

void OpenLoadDriver::updateBacklog(std::uint64_t notYetDue) noexcept {
    const auto depth = static_cast<std::int64_t>(sched_.queueDepth());
    backlog_.store(std::max<std::int64_t>(0, depth - static_cast<std::int64_t>(notYetDue)),
                   std::memory_order_relaxed);
}

void OpenLoadDriver::play(const ArrivalTimetable& tt, Duration base, TimePoint origin,
                          const Tick& tick) {
    const Duration cpu0 = threadCpuTime();
    const auto& offsets = tt.offsets();
    const std::size_t n = offsets.size();
    const Duration jobLoad = cfg_.jobLoad;
    const testchain::ComputationalLoad* load = &load_;
    std::size_t next = 0, due = 0;
    while (true) {
        const TimePoint now = sched_.now();
        const TimePoint horizon = now + cfg_.postAhead;
        for (; next < n; ++next) {
            const Duration at = base + offsets[next];
            const TimePoint start = origin + at;
            if (start > horizon) break;
            const bool measured = at >= cfg_.warmup;
            pullsched::JobOptions o;
            o.start = start;
            o.deadline = cfg_.deadlineWindow > Duration{0} ? start + cfg_.deadlineWindow
                                                           : pullsched::kNoDeadline;
            o.tag = (measured ? kMeasuredTag : 0) | (posted_ & 0xFFFFFFFFFFull);
            if (start < now) ++postedLate_;
            sched_.postDetached([load, jobLoad] { load->invoke(jobLoad); }, o);
            ++posted_;
            if (measured) ++measured_;
        }
        while (due < next && origin + base + offsets[due] <= now)
            ++due;
        updateBacklog(next - due);
        if (tick) tick(now);
        if (next == n && due == n) break;
        // Sleep until the next batch is worth posting, at most one poll period.
        TimePoint wakeAt = now + cfg_.pollPeriod;
        if (next < n)
            wakeAt = std::min(wakeAt, origin + base + offsets[next] - cfg_.postAhead / 2);
        else
            wakeAt = std::min(wakeAt, origin + base + offsets[n - 1]);
        if (wakeAt > now) std::this_thread::sleep_for(wakeAt - now);
    }
    generatorCpu_ += threadCpuTime() - cpu0;
}

bool OpenLoadDriver::drain(Duration limit, const Tick& tick) {
    const Duration cpu0 = threadCpuTime();
    const auto until = pullsched::SteadyClock::now() + limit;
    bool done = false;
    while (true) {
        updateBacklog(0);
        if (tick) tick(sched_.now());
        if (done) break;
        const auto now = pullsched::SteadyClock::now();
        if (now >= until) break;
        done = sched_.drainFor(std::min<Duration>(cfg_.pollPeriod * 5, until - now));
    }
    generatorCpu_ += threadCpuTime() - cpu0;
    return done;
}

// ------------------------------------------------------------------ runs

namespace {

Duration samplerInterval(Duration run) {
    return std::clamp<Duration>(run / 100, Duration{10ms}, Duration{1s});
}

void finishResources(LoadRunResult& r, const ProcessSnapshot& s0, const ProcessSnapshot& s1,
                     ProcessSampler& sampler) {
    sampler.stop();
    r.samples = sampler.samples();
    r.cpuPercent = ProcessSampler::cpuPercent(s0, s1);
    r.wall = std::chrono::duration_cast<Duration>(s1.wall - s0.wall);
    for (const auto& s : r.samples) {
        r.rssMaxBytes = std::max(r.rssMaxBytes, s.rssBytes);
        if (s.queueDepth > 0)
            r.maxBacklog = std::max(r.maxBacklog, static_cast<std::uint64_t>(s.queueDepth));
    }
}

}  // namespace

LoadRunResult runOpenLoad(const RigOptions& opt, const testchain::ComputationalLoad& load,
                          double rate, unsigned workers) {
    LoadRunResult r;
    r.method = "open";
    const ArrivalTimetable tt = makeTimetable(opt, rate, opt.duration);
    r.offeredRate = rate;

    LatencyRecorder recorder(workers);
    pullsched::SchedulerConfig cfg;
    cfg.workers = workers;
    cfg.observer = &recorder;
    cfg.initialJobCapacity = 1 << 14;
    pullsched::Scheduler sched(cfg);

    OpenPlayConfig pc;
    pc.jobLoad = opt.load;
    pc.warmup = std::min(opt.warmup, opt.duration);
    pc.deadlineWindow = deadlineWindow(opt);
    OpenLoadDriver driver(sched, load, pc);

    ProcessSampler sampler(samplerInterval(opt.duration), [&driver] { return driver.backlog(); });
    const auto s0 = ProcessSampler::snapshot();
    sampler.start();
    const TimePoint origin = sched.now() + 2ms;
    std::optional<std::uint64_t> completedAtWarmup;
    if (pc.warmup == Duration{0}) completedAtWarmup = 0;
    driver.play(tt, Duration{0}, origin, [&](TimePoint now) {
        if (!completedAtWarmup && now >= origin + pc.warmup)
            completedAtWarmup = sched.stats().completed;
    });
    const TimePoint endOfTable = origin + opt.duration;
    if (sched.now() < endOfTable) std::this_thread::sleep_until(endOfTable);
    const auto atEnd = sched.stats();
    r.drained = driver.drain(std::max<Duration>(pc.deadlineWindow * 2, 2s));
    const auto s1 = ProcessSampler::snapshot();
    finishResources(r, s0, s1, sampler);

    const auto st = sched.stats();
    r.posted = driver.posted();
    r.measured = driver.measured();
    r.postedLate = driver.postedLate();
    r.completed = st.completed;
    r.expired = st.expired;
    r.failed = st.failed;
    r.span = opt.duration - pc.warmup;
    const double spanS = std::chrono::duration<double>(r.span).count();
    r.achievedRate =
        spanS > 0 ? static_cast<double>(atEnd.completed - completedAtWarmup.value_or(0)) / spanS
                  : 0;
    recorder.harvest(r.lateness);
    r.generatorCpuPercent = 100.0 * std::chrono::duration<double>(driver.generatorCpu()).count() /
                            std::max(1e-9, std::chrono::duration<double>(r.wall).count());
    return r;
}

namespace {

/// Closed users: each job posts its user's next one when it is done.
struct ClosedState {
    pullsched::Scheduler* sched = nullptr;
    const testchain::ComputationalLoad* load = nullptr;
    Duration jobLoad{0};
    Duration think{0};
    TimePoint measureFrom{}, stopAt{};
    struct alignas(64) User {
        std::uint64_t posted = 0, measured = 0;
    };
    std::vector<User> users;

    void submit(unsigned u) {
        const TimePoint now = sched->now();
        if (now >= stopAt) return;
        const bool m = now >= measureFrom;
        ++users[u].posted;
        if (m) ++users[u].measured;
        pullsched::JobOptions o;
        o.start = now + think;  // latency counts from the actual submission (after thinking)
        o.tag = (m ? kMeasuredTag : 0) | u;
        sched->postDetached(
            [this, u] {
                load->invoke(jobLoad);
                submit(u);
            },
            o);
    }
};

}  // namespace

LoadRunResult runClosedLoad(const RigOptions& opt, const testchain::ComputationalLoad& load,
                            unsigned workers) {
    LoadRunResult r;
    r.method = "closed";
    LatencyRecorder recorder(workers);
    pullsched::SchedulerConfig cfg;
    cfg.workers = workers;
    cfg.observer = &recorder;
    pullsched::Scheduler sched(cfg);

    ClosedState st;
    st.sched = &sched;
    st.load = &load;
    st.jobLoad = opt.load;
    st.think = opt.think;
    st.users.resize(std::max(1u, opt.users));

    ProcessSampler sampler(samplerInterval(opt.duration),
                           [&sched] { return static_cast<std::int64_t>(sched.queueDepth()); });
    const auto s0 = ProcessSampler::snapshot();
    sampler.start();
    const Duration warm = std::min(opt.warmup, opt.duration);
    const TimePoint origin = sched.now();
    st.measureFrom = origin + warm;
    st.stopAt = origin + opt.duration;
    for (unsigned u = 0; u < st.users.size(); ++u)
        st.submit(u);
    std::uint64_t completedAtWarmup = 0;
    if (warm > Duration{0}) {
        std::this_thread::sleep_until(st.measureFrom);
        completedAtWarmup = sched.stats().completed;
    }
    std::this_thread::sleep_until(st.stopAt);
    const std::uint64_t completedAtEnd = sched.stats().completed;
    sched.drain();
    const auto s1 = ProcessSampler::snapshot();
    finishResources(r, s0, s1, sampler);

    const auto stats = sched.stats();
    for (const auto& u : st.users) {
        r.posted += u.posted;
        r.measured += u.measured;
    }
    r.completed = stats.completed;
    r.expired = stats.expired;
    r.failed = stats.failed;
    r.span = opt.duration - warm;
    const double spanS = std::chrono::duration<double>(r.span).count();
    r.achievedRate =
        spanS > 0 ? static_cast<double>(completedAtEnd - completedAtWarmup) / spanS : 0;
    r.offeredRate = r.achievedRate;  // a closed load offers what the system lets it
    recorder.harvest(r.lateness);
    return r;
}

// ------------------------------------------------------------------ output

nlohmann::json histogramJson(const LatencyHistogram& h) {
    auto us = [](std::int64_t ns) { return static_cast<double>(ns) / 1e3; };
    return nlohmann::json{{"count", h.count()},
                          {"mean_us", h.mean() / 1e3},
                          {"p50_us", us(h.percentile(50))},
                          {"p90_us", us(h.percentile(90))},
                          {"p99_us", us(h.percentile(99))},
                          {"p99_9_us", us(h.percentile(99.9))},
                          {"max_us", us(h.max())}};
}

void printJson(nlohmann::json& j, const ReportWriter& rw) {
    j["files"] = nlohmann::json::array();
    for (const auto& f : rw.written())
        j["files"].push_back(f.string());
    std::cout << j.dump() << "\n";
}

nlohmann::json runJson(const LoadRunResult& r) {
    return nlohmann::json{{"method", r.method},
                          {"offered_rate", r.offeredRate},
                          {"achieved_rate", r.achievedRate},
                          {"posted", r.posted},
                          {"measured", r.measured},
                          {"completed", r.completed},
                          {"deadline_drops", r.expired},
                          {"failed", r.failed},
                          {"posted_late", r.postedLate},
                          {"drained", r.drained},
                          {"cpu_percent", r.cpuPercent},
                          {"generator_cpu_percent", r.generatorCpuPercent},
                          {"rss_max_bytes", r.rssMaxBytes},
                          {"max_backlog", r.maxBacklog},
                          {"lateness", histogramJson(r.lateness)}};
}

std::string percentileLine(const LatencyHistogram& h) {
    auto f = [](std::int64_t ns) { return Units::formatDuration(Duration{ns}); };
    return fmt::format("p50 {}  p90 {}  p99 {}  p99.9 {}  max {}  (mean {}, n={})",
                       f(h.percentile(50)), f(h.percentile(90)), f(h.percentile(99)),
                       f(h.percentile(99.9)), f(h.max()), f(static_cast<std::int64_t>(h.mean())),
                       h.count());
}

}  // namespace pullsched::rig::loadtest

namespace pullsched::rig::loadtest {

StepResult runRateStep(const RigOptions& opt, const testchain::ComputationalLoad& load, double rate,
                       unsigned workers, Duration hold, Duration warm, Duration drainLimit) {
    StepResult r;
    const ArrivalTimetable tt = makeTimetable(opt, rate, hold);
    LatencyRecorder recorder(workers);
    pullsched::SchedulerConfig cfg;
    cfg.workers = workers;
    cfg.observer = &recorder;
    cfg.initialJobCapacity = 1 << 14;
    pullsched::Scheduler sched(cfg);
    OpenPlayConfig pc;
    pc.jobLoad = opt.load;
    pc.warmup = warm;
    pc.deadlineWindow = deadlineWindow(opt);
    OpenLoadDriver driver(sched, load, pc);

    const TimePoint origin = sched.now() + std::chrono::milliseconds{2};
    std::optional<std::uint64_t> completedAtWarm;
    std::optional<ProcessSnapshot> s0;
    if (warm <= Duration{0}) {
        completedAtWarm = 0;
        s0 = ProcessSampler::snapshot();
    }
    driver.play(tt, Duration{0}, origin, [&](TimePoint now) {
        if (!completedAtWarm && now >= origin + warm) {
            completedAtWarm = sched.stats().completed;
            s0 = ProcessSampler::snapshot();
            r.m.backlogStart = static_cast<double>(driver.backlog());
        }
    });
    if (sched.now() < origin + hold) std::this_thread::sleep_until(origin + hold);
    if (!completedAtWarm) {  // a hold shorter than one poll: measure from here
        completedAtWarm = sched.stats().completed;
        s0 = ProcessSampler::snapshot();
    }
    const std::uint64_t completedAtEnd = sched.stats().completed;
    const auto s1 = ProcessSampler::snapshot();
    driver.drain(Duration{0});  // refreshes the backlog reading only
    r.m.backlogEnd = static_cast<double>(driver.backlog());
    const auto d0 = pullsched::SteadyClock::now();
    const bool drained = driver.drain(drainLimit);
    r.drainTime = pullsched::SteadyClock::now() - d0;
    r.m.drained = drained;
    r.m.backlogAfterDrain = static_cast<double>(driver.backlog());

    const auto st = sched.stats();
    const double spanS = std::chrono::duration<double>(s1.wall - s0->wall).count();
    r.m.offeredRate = rate;
    r.m.achievedRate =
        spanS > 0 ? static_cast<double>(completedAtEnd - *completedAtWarm) / spanS : 0;
    r.m.jobs = tt.size();
    r.m.drops = st.expired;
    r.m.failures = st.failed;
    r.cpuPercent = ProcessSampler::cpuPercent(*s0, s1);
    r.rssBytes = s1.rssBytes;
    r.measured = driver.measured();
    r.postedLate = driver.postedLate();
    recorder.harvest(r.lateness);
    r.m.latenessP99 = Duration{r.lateness.percentile(99)};
    return r;
}

}  // namespace pullsched::rig::loadtest
