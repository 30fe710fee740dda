#pragma once
// The correctness judgement of one --mode=pipeclean pattern run, from its counts alone:
// failed (a job failed or was posted twice, jobs went missing, the run did not complete,
// the hash differs), late (outlasted its completion limit), not checked (jobs expired or
// were cancelled, so the hash cannot match) or ok. Correctness comes first. Also what a
// run's per-node execution counts say: a job lost or run twice.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pullsched/scheduler/JobGroup.hpp"
#include "pullsched/testchain/RunResult.hpp"

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

/// What a run's per-node execution counts (how often each node's body ran) say against
/// its jobs' final states: the exactly-once check every backend's run gets.
struct ExecutionFinding {
    std::size_t lost = 0;           ///< posted, never ran, not dropped by the scheduler
    std::size_t repeated = 0;       ///< ran more than once
    std::size_t droppedButRan = 0;  ///< ran, yet counted expired or cancelled
    std::size_t uncounted = 0;      ///< jobs without an execution count
    /// Why the counts show a correctness failure; "" when every job is accounted for.
    std::string text() const;
};

/// `executions[i]` against `jobs[i]`. `ownStates`: the states are the scheduler's own
/// (pullsched), so a job it expired or cancelled rightly never ran. Otherwise the rig
/// labels a node that never ran cancelled, so every posted node must have run once.
ExecutionFinding checkExecutions(const std::vector<testchain::JobTiming>& jobs,
                                 const std::vector<std::uint32_t>& executions, bool ownStates);

/// A graph hash as 0x and 16 hex digits.
std::string hashText(std::uint64_t hash);

}  // namespace pullsched::rig
