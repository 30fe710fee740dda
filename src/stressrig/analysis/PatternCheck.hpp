#pragma once
// The correctness judgement of one --mode=pipeclean pattern run, from its counts alone:
// failed (a job failed or was posted twice, jobs went missing, the run did not complete,
// the hash differs), late (outlasted its completion limit), not checked (jobs expired or
// were cancelled, so the hash cannot match) or ok. Correctness comes first.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "pullsched/scheduler/JobGroup.hpp"

namespace pullsched::rig {

enum class PatternOutcome { Ok, Expired, Late, Failed };

/// What the run of one pattern left behind.
struct PatternRunFacts {
    std::size_t failed = 0, postedTwice = 0, expired = 0, cancelled = 0;
    std::string lostJobs;  ///< jobs missing from the scheduler's ledger or counted twice
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

/// What the runner saw of a run's jobs, to hold the scheduler's ledger of the run's group
/// against.
struct PostedJobs {
    std::size_t submitted = 0;  ///< node and planning jobs posted
    /// jobs the runner saw completed; nullopt when it does not know (a planning job ended
    /// otherwise, so the states of the jobs it would have posted are not counted)
    std::optional<std::size_t> completed;
};

/// Why the ledger of a run's JobGroup, taken after the group was waited for, shows jobs
/// lost or counted twice: still pending, submitted != the sum of the final states, or
/// figures other than the runner's. "" when it agrees. `posted` nullopt: the run timed
/// out, so only the ledger's own balance is checked.
std::string ledgerMismatch(const GroupStatistics& ledger, const std::optional<PostedJobs>& posted);

/// A graph hash as 0x and 16 hex digits.
std::string hashText(std::uint64_t hash);

}  // namespace pullsched::rig
