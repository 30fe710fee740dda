#pragma once
// Whether a timed head leads to a fan-out: the tender's question before its head is due
// (WakeProtocol::beforeHead), answered without the grooming token.

#include "pullsched/scheduler/detail/JobRecord.hpp"

namespace pullsched::detail {

/// How many jobs of a chain of single successors the look-ahead reads, the head included. An
/// argument, not a tuned value: burst-1024 opens with a chain of 9 behind its gate; 16
/// covers that with room. No other depth was measured (docs/decisions.md).
inline constexpr unsigned kFanOutLookAhead = 16;

/// Whether `head`, or a job down the chain of single successors behind it (at most
/// kFanOutLookAhead jobs, the head included), releases more than one successor. The caller hands
/// over one reference to `head` (taken while the head was still queued); it is dropped here.
///
/// Walks hand over hand: under a job's successor lock, and only while that job is not
/// final (`closed`), it takes a reference to the one successor, then lets go of the job.
/// A final job's list is never read: a cancelled job (a tombstone still queued, or one
/// behind a live predecessor) notified its successors, which may have ended and been
/// freed since. An open job's successors cannot have ended (their gates wait for it), so
/// the reference taken is to a live record; holding it, the job's end takes its lock.
/// Takes no grooming token and must be called without it (the token guards the time
/// queue, never a job: docs/scheduler.md, "The grooming token's rule").
bool fansOutAhead(JobRecord* head) noexcept;

}  // namespace pullsched::detail
