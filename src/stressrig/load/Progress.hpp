#pragma once
// Progress lines on stderr for long runs (silent with --quiet).

#include <chrono>
#include <cstddef>
#include <iosfwd>
#include <string_view>

namespace pullsched::rig {

/// Writes `[label] done/total (pct%) text` lines to a stream (stderr by default).
/// progress() is rate limited: a line is written at most every `minInterval`, except
/// for the first and the final (done == total) call. note() always writes (unless quiet).
class Progress {
  public:
    using Clock = std::chrono::steady_clock;

    explicit Progress(bool quiet, std::string_view label = "stressrig");
    Progress(bool quiet, std::string_view label, std::ostream& out,
             std::chrono::milliseconds minInterval = std::chrono::milliseconds{250});

    void progress(std::size_t done, std::size_t total, std::string_view text = {});
    /// A free-form line, e.g. "probe 3: stress 1.275 -> broken".
    void note(std::string_view text);
    bool quiet() const noexcept { return quiet_; }
    /// Lines written so far (for tests).
    std::size_t lines() const noexcept { return lines_; }

  private:
    bool quiet_;
    std::string_view label_;
    std::ostream* out_;
    std::chrono::milliseconds minInterval_;
    Clock::time_point last_{};
    bool started_ = false;
    std::size_t lines_ = 0;
};

}  // namespace pullsched::rig
