#pragma once
// What a verdict means, as a colour, the same in the text report, the pictures and the
// page: green when the measurement found nothing to qualify (schedule kept, hash ok),
// amber for a result that stands but says something went short of the plan (deadline
// misses, drops, failing steps, a busy machine, an interrupted run, a warning), red only
// for a correctness failure of the scheduler (the rig's exit 1).

#include <string_view>

namespace pullsched::rig {

enum class VerdictClass { Ok, Caveat, Failure };

/// The facts a verdict's class is decided from.
struct VerdictFacts {
    bool correctnessFailure = false;  ///< a job lost, run twice or failed; a hash mismatch
    bool overload = false;            ///< deadline misses, drops, failing steps, expired jobs
    bool warned = false;              ///< the result carries warnings
    bool busyMachine = false;         ///< measured while other work competed for the CPU
    bool partial = false;             ///< interrupted: the result covers part of the run
};

/// Failure beats every caveat; any caveat makes an otherwise ok result amber.
VerdictClass verdictClassOf(const VerdictFacts& facts);

/// "ok", "caveat", "failure": the envelope's `verdict_class`.
std::string_view verdictClassName(VerdictClass c);

/// The class of a name verdictClassName gave; Caveat for any other name (a result
/// written before verdict classes: neither claimed ok nor failed).
VerdictClass verdictClassOfName(std::string_view name);

/// A colour readable as text (and lines) on white: dark green, dark amber, red.
std::string_view verdictTextColour(VerdictClass c);

/// A lighter colour of the same meaning for areas (bands, bars).
std::string_view verdictFillColour(VerdictClass c);

}  // namespace pullsched::rig
