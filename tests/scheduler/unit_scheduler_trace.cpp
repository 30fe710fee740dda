// The trace dump: present with -DPULLSCHED_TRACE=ON, absent (and free) otherwise.
#include "pullsched/scheduler/Scheduler.hpp"

#include <gtest/gtest.h>

#include <sstream>

using namespace std::chrono_literals;
using namespace pullsched;

TEST(SchedulerTrace, DumpMatchesTheBuildOption) {
    Scheduler sched;
    JobHandle a = sched.post([] {}, {.start = sched.now() + 200us, .tag = 41});
    sched.post([] {}, {.tag = 42}, {a});
    sched.drain();
    std::ostringstream dump;
    const bool written = sched.writeTraceDump(dump);
    EXPECT_EQ(written, Scheduler::traceCompiledIn());
    if (Scheduler::traceCompiledIn()) {
        const std::string text = dump.str();
        EXPECT_NE(text.find("# pullsched trace dump"), std::string::npos);
        EXPECT_NE(text.find("token-acquired"), std::string::npos);
        EXPECT_NE(text.find("dispatch         41"), std::string::npos) << text;
        EXPECT_NE(text.find("gate-notify"), std::string::npos);
    } else {
        EXPECT_TRUE(dump.str().empty());
    }
}
