#pragma once
// Machinery shared by the load-test modes (methodology.md): a lateness recorder hooked
// into the scheduler as its Observer, and the driver that plays an open arrival
// timetable against a scheduler (posting ahead in small batches, since the scheduler is
// time-based) or runs a closed "users" load.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "pullsched/scheduler/Observer.hpp"
#include "pullsched/scheduler/Scheduler.hpp"
#include "load/ArrivalTimetable.hpp"
#include "measure/LatencyHistogram.hpp"
#include "analysis/LoadClassifier.hpp"
#include "measure/ProcessSampler.hpp"
#include "legacy/RigOptions.hpp"
#include "pullsched/testchain/ComputationalLoad.hpp"

namespace pullsched::rig {
class ReportWriter;
}

namespace pullsched::rig::loadtest {

/// Tag bit of jobs whose lateness counts (posted after the warm-up).
inline constexpr std::uint64_t kMeasuredTag = std::uint64_t{1} << 62;

/// Observer recording the start lateness (dispatch time − JobOptions::start) of every
/// job tagged kMeasuredTag into a histogram of the worker that ran it. Each worker has
/// its own pre-sized histogram behind its own (uncontended) mutex, so recording never
/// allocates and never shares a cache line; harvest() merges and resets them, which is
/// how the soak mode rotates per-interval histograms while jobs keep running.
class LatencyRecorder final : public pullsched::Observer {
  public:
    explicit LatencyRecorder(unsigned workers);
    void onJobStart(unsigned worker, const pullsched::JobEvent& e) override;

    /// Adds every worker's histogram to `into` and resets them.
    void harvest(LatencyHistogram& into);
    /// Jobs started so far (measured or not).
    std::uint64_t started() const noexcept;

  private:
    struct alignas(64) Slot {
        std::mutex mutex;
        LatencyHistogram histogram;
        std::atomic<std::uint64_t> started{0};
    };
    std::vector<std::unique_ptr<Slot>> slots_;
};

/// Deadline window of open-load jobs: --deadline-window, default 100 × --limit; 0 = none.
Duration deadlineWindow(const RigOptions& opt);

/// Thread CPU time of the calling thread (for the generator's own cost).
Duration threadCpuTime() noexcept;

struct OpenPlayConfig {
    Duration jobLoad{0};         ///< busy work per job
    Duration warmup{0};          ///< arrivals before this offset are not measured
    Duration deadlineWindow{0};  ///< deadline = intended + window; 0 = no deadline
    Duration postAhead = std::chrono::milliseconds{5};
    Duration pollPeriod = std::chrono::milliseconds{1};
};

/// Plays open (fixed arrival rate) load: job i is posted with JobOptions::start =
/// origin + base + offset(i), at most postAhead before that time. Lateness is measured
/// by the scheduler's observer (LatencyRecorder) from the intended start, so the
/// generator's own delays count against the system (no coordinated omission); jobs the
/// generator posted only after their intended start are counted as postedLate.
class OpenLoadDriver {
  public:
    using Tick = std::function<void(TimePoint now)>;

    OpenLoadDriver(pullsched::Scheduler& scheduler, const testchain::ComputationalLoad& load,
                   OpenPlayConfig config);

    /// Posts all arrivals of `tt` (shifted by base) and returns once the last one is
    /// due. `tick` (optional) is called after every batch.
    void play(const ArrivalTimetable& tt, Duration base, TimePoint origin, const Tick& tick = {});
    /// Waits until every posted job reached a final state, at most `limit`; true if so.
    bool drain(Duration limit, const Tick& tick = {});

    /// Due jobs not yet started (queue depth minus the jobs posted ahead), updated every poll.
    std::int64_t backlog() const noexcept { return backlog_.load(std::memory_order_relaxed); }
    std::uint64_t posted() const noexcept { return posted_; }
    std::uint64_t measured() const noexcept { return measured_; }
    std::uint64_t postedLate() const noexcept { return postedLate_; }
    /// CPU time the generator thread spent in play() and drain().
    Duration generatorCpu() const noexcept { return generatorCpu_; }

  private:
    void updateBacklog(std::uint64_t notYetDue) noexcept;

    pullsched::Scheduler& sched_;
    const testchain::ComputationalLoad& load_;
    OpenPlayConfig cfg_;
    std::atomic<std::int64_t> backlog_{0};
    std::uint64_t posted_ = 0, measured_ = 0, postedLate_ = 0;
    Duration generatorCpu_{0};
};

/// Everything one open or closed measurement produced.
struct LoadRunResult {
    std::string method;       ///< "open" or "closed"
    double offeredRate = 0;   ///< jobs/s of the timetable (closed: = achieved)
    double achievedRate = 0;  ///< completions / measured span
    std::uint64_t posted = 0, measured = 0, completed = 0, expired = 0, failed = 0;
    std::uint64_t postedLate = 0;
    LatencyHistogram lateness{};
    Duration span{0};  ///< measured span (after warm-up) the rate refers to
    Duration wall{0};  ///< whole run incl. warm-up and drain
    bool drained = true;
    double cpuPercent = 0;  ///< process CPU over the run, 100 = one core
    double generatorCpuPercent = 0;
    std::uint64_t rssMaxBytes = 0;
    std::uint64_t maxBacklog = 0;
    std::vector<ProcessSample> samples;  ///< queueDepth = backlog
};

/// One open run: timetable (constant or poisson) over opt.duration at `rate`, with
/// opt.warmup excluded and deadline = intended + deadlineWindow(opt).
LoadRunResult runOpenLoad(const RigOptions& opt, const testchain::ComputationalLoad& load,
                          double rate, unsigned workers);
/// One closed run: opt.users users, each posting its next job when the previous one is
/// done (after opt.think), for opt.duration; jobs posted in the first opt.warmup are not
/// measured. Latency is measured from the actual submission.
LoadRunResult runClosedLoad(const RigOptions& opt, const testchain::ComputationalLoad& load,
                            unsigned workers);

/// One held step of offered load (sweep, headroom): a fresh scheduler, `rate` for
/// `hold` (the first `warm` not measured), then a drain of at most `drainLimit`.
struct StepResult {
    StepMeasurement m;  ///< for the LoadClassifier
    LatencyHistogram lateness{};
    double cpuPercent = 0;       ///< process CPU over the hold, 100 = one core
    std::uint64_t rssBytes = 0;  ///< at the end of the hold
    Duration drainTime{0};
    std::uint64_t measured = 0;
    std::uint64_t postedLate = 0;
};
StepResult runRateStep(const RigOptions& opt, const testchain::ComputationalLoad& load, double rate,
                       unsigned workers, Duration hold, Duration warm, Duration drainLimit);

/// The timetable of an open run for these options.
ArrivalTimetable makeTimetable(const RigOptions& opt, double rate, Duration duration);

/// Percentiles and counts of a histogram as JSON (µs values).
nlohmann::json histogramJson(const LatencyHistogram& h);
nlohmann::json runJson(const LoadRunResult& r);

/// The --json output of a mode: `j` plus the list of files written, as one line on stdout.
void printJson(nlohmann::json& j, const ReportWriter& rw);

/// "p50 12.3µs p90 … max …".
std::string percentileLine(const LatencyHistogram& h);

/// Checks the options the load-test modes share; message on stderr and false if bad.
bool validateCommon(const RigOptions& opt, const char* mode);

}  // namespace pullsched::rig::loadtest
