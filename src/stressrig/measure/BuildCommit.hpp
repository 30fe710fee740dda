#pragma once
// The commit the rig was built from, taken at build time (not at configure time, so a
// build after a pull or a commit names the right one); "-dirty" when tracked files had
// uncommitted changes, "unknown" without git.

namespace pullsched::rig {

const char* buildCommit() noexcept;

}  // namespace pullsched::rig
