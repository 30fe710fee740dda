#pragma once
// The correctness judgement of one --mode=pipeclean pattern run, from its counts alone:
// failed (a job failed or was posted twice, jobs went missing, the run did not complete,
// the hash differs), late (outlasted its completion limit), not checked (jobs expired or
// were cancelled, so the hash cannot match) or ok. Correctness comes first.

#include <cstddef>
#include <cstdint>
#include <string>

namespace pullsched::rig {

enum class PatternOutcome { Ok, Expired, Late, Failed };

/// What the run of one pattern left behind.
struct PatternRunFacts {
    std::size_t failed = 0, postedTwice = 0, expired = 0, cancelled = 0;
    std::string lostJobs;  ///< a correctness failure found after a timeout (jobs missing)
    std::string late;      ///< why the run counts as late, when it timed out
    bool timedOut = false;
    bool completed = false;  ///< every exit completed
    std::string error;       ///< why it did not complete, if it said
    bool hashOk = false;
    std::uint64_t expectedHash = 0, actualHash = 0;
};

struct PatternCheck {
    PatternOutcome outcome = PatternOutcome::Failed;
    std::string note;  ///< why failed / late / not checked; empty when ok
    bool hashChecked = false, hashOk = false;
};

PatternCheck checkPattern(const PatternRunFacts& run);

/// A graph hash as 0x and 16 hex digits.
std::string hashText(std::uint64_t hash);

}  // namespace pullsched::rig
