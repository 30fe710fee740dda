#pragma once
// Reference counting of job records, as JobHandle needs it. The pool the last reference
// returns a record to stays behind the library boundary.

#include <atomic>

#include "pullsched/scheduler/detail/JobRecord.hpp"

namespace pullsched::detail {

/// Give a record whose last reference was dropped back to its pool.
void returnToPool(JobRecord* rec) noexcept;

/// Whether the caller holds the record's only reference (for the scheduler: no handle
/// names the job). Then nobody else can take one (a reference is copied from another, or
/// taken by the fan-out look-ahead under the lock of a predecessor that has not ended,
/// which the sole holder cannot be past), so nobody else can wire to, wait for or cancel
/// the job; acquire: everything the last other holder did happened before.
inline bool soleReference(const JobRecord* rec) noexcept {
    return rec->refs.load(std::memory_order_acquire) == 1;
}

/// Drop one reference; the last one returns the record to its pool. Holding the only
/// reference, a load decides and the atomic read-modify-write is saved: the common case
/// for the scheduler's reference, since most handles are gone before the job ends.
inline void releaseRef(JobRecord* rec) noexcept {
    if (soleReference(rec) || rec->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        rec->refs.store(0, std::memory_order_relaxed);
        returnToPool(rec);
    }
}

inline void addRef(JobRecord* rec) noexcept {
    rec->refs.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace pullsched::detail
