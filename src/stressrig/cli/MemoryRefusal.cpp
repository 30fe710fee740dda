#include "cli/MemoryRefusal.hpp"

#include <string>

#include "cli/UsageError.hpp"

namespace pullsched::rig {

void refuseIfTooLarge(const MemoryNeed& need, std::string_view option) {
    if (std::string why = memoryRefusal(need, availableMemory(), option); !why.empty())
        throw UsageError(why);
}

}  // namespace pullsched::rig
