#include "backends/IntervalHarvester.hpp"

#include <algorithm>
#include <thread>

#include "analysis/LatenessMisses.hpp"
#include "analysis/PercentileSupport.hpp"

namespace pullsched::rig {

IntervalHarvester::IntervalHarvester(const IntervalPlan& plan, StreamPlayer& player,
                                     LatencyRecorder& recorder, pullsched::TimePoint origin,
                                     std::vector<IntervalRow>& rows, LatencyHistogram& lateness,
                                     OnInterval onInterval)
    : plan_(plan),
      player_(player),
      recorder_(recorder),
      rows_(rows),
      lateness_(lateness),
      onInterval_(std::move(onInterval)),
      origin_(origin),
      prevSnap_(ProcessSampler::snapshot()),
      prevTicks_(MachineCpuTicks::read()),
      prev_(counts()) {}

IntervalHarvester::Counts IntervalHarvester::counts() const noexcept {
    return {player_.completed(), player_.runner().expired(), player_.posted()};
}

pullsched::TimePoint IntervalHarvester::nextEnd() const {
    return saturatingAdd(origin_, plan_.interval * static_cast<Duration::rep>(harvested_ + 1));
}

void IntervalHarvester::operator()(pullsched::TimePoint now) {
    if (done() || now < nextEnd()) return;
    recorder_.harvest(hist_);
    const auto snap = ProcessSampler::snapshot();
    const auto ticks = MachineCpuTicks::read();
    const Counts c = counts();
    const IntervalRow r = row(snap, ticks, c);
    lateness_.merge(hist_);
    rows_.push_back(r);
    hist_.reset();
    prevSnap_ = snap;
    prevTicks_ = ticks;
    prev_ = c;
    ++harvested_;
    if (onInterval_) onInterval_(r, harvested_, plan_.intervals());
}

bool IntervalHarvester::closeRemaining(const StopRequest* stop) {
    while (!done()) {
        const auto due = nextEnd();
        const auto now = pullsched::SteadyClock::now();
        if (now < due && stop) {
            if (stop->sleepFor(due - now)) return true;
        } else if (now < due) {
            std::this_thread::sleep_for(due - now);
        }
        player_.refreshBacklog();
        (*this)(pullsched::SteadyClock::now());
    }
    return false;
}

IntervalRow IntervalHarvester::row(const ProcessSnapshot& snap, const MachineCpuTicks& ticks,
                                   const Counts& now) const {
    const double secs = std::chrono::duration<double>(snap.wall - prevSnap_.wall).count();
    const auto us = [&](double p) {
        return percentileSupported(p, hist_.count())
                   ? static_cast<double>(hist_.percentile(p)) / 1e3
                   : kMissing;
    };
    const Duration from = plan_.interval * static_cast<Duration::rep>(harvested_);
    const Duration to = std::min(plan_.duration, from + plan_.interval);
    IntervalRow r;
    r.i.tSeconds = std::chrono::duration<double>(from + plan_.interval).count();
    r.i.throughput =
        secs > 0 ? static_cast<double>(now.completed - prev_.completed) / secs : kMissing;
    r.i.latenessP99Us = us(99);
    r.i.rssBytes = snap.rssBytes ? static_cast<double>(snap.rssBytes) : kMissing;
    r.i.cpuPercent = secs > 0 ? ProcessSampler::cpuPercent(prevSnap_, snap) : kMissing;
    r.i.stealPercent = MachineCpuTicks::stealPercent(prevTicks_, ticks);
    r.i.backlog = static_cast<double>(player_.backlog());
    r.offeredRate = plan_.arrivals ? plan_.arrivals->meanRate(from, to) : kMissing;
    r.p50Us = us(50);
    r.maxUs = hist_.count() ? static_cast<double>(hist_.max()) / 1e3 : kMissing;
    r.jobs = now.posted - prev_.posted;
    r.measured = hist_.count();
    r.drops = now.expired - prev_.expired;
    r.late = latenessMisses(hist_, plan_.lateLimit.count());
    return r;
}

}  // namespace pullsched::rig
