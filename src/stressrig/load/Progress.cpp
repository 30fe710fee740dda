#include "load/Progress.hpp"

#include <iostream>

#include <fmt/format.h>
#include <fmt/ostream.h>

namespace pullsched::rig {

Progress::Progress(bool quiet, std::string_view label) : Progress(quiet, label, std::cerr) {}

Progress::Progress(bool quiet, std::string_view label, std::ostream& out,
                   std::chrono::milliseconds minInterval)
    : quiet_(quiet), label_(label), out_(&out), minInterval_(minInterval) {}

void Progress::progress(std::size_t done, std::size_t total, std::string_view text) {
    if (quiet_) return;
    const auto now = Clock::now();
    const bool final = done >= total;
    if (started_ && !final && now - last_ < minInterval_) return;
    started_ = true;
    last_ = now;
    const double pct =
        total ? 100.0 * static_cast<double>(done) / static_cast<double>(total) : 100.0;
    fmt::print(*out_, "[{}] {}/{} ({:.0f}%){}{}\n", label_, done, total, pct,
               text.empty() ? "" : " ", text);
    out_->flush();
    ++lines_;
}

void Progress::note(std::string_view text) {
    if (quiet_) return;
    fmt::print(*out_, "[{}] {}\n", label_, text);
    out_->flush();
    ++lines_;
}

}  // namespace pullsched::rig
