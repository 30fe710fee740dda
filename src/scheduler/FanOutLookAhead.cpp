#include "detail/FanOutLookAhead.hpp"

#include <mutex>

#include "pullsched/scheduler/detail/JobRef.hpp"

namespace pullsched::detail {

bool fansOutAhead(JobRecord* head) noexcept {
    JobRecord* job = head;  // we hold one reference to it
    for (unsigned looked = 1; job; ++looked) {
        JobRecord* next = nullptr;
        bool fansOut = false;
        {
            std::lock_guard lock(job->succLock);
            if (!job->closed) {
                fansOut = job->inlineCount > 1 || job->moreSucc != nullptr;
                if (!fansOut && job->inlineCount == 1 && looked < kFanOutLookAhead) {
                    next = job->inlineSucc[0];
                    addRef(next);  // live: its gate still waits for `job`
                }
            }
        }
        releaseRef(job);
        if (fansOut) return true;
        job = next;
    }
    return false;
}

}  // namespace pullsched::detail
