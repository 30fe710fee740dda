#pragma once
// The CPUs a process may use, and binding the calling thread to some of them (Linux;
// elsewhere nothing is known and nothing is bound). Shared by pinning (WorkForce) and by
// CpuSpread, which moves a worker and then gives it the whole set back.

#include <span>
#include <vector>

namespace pullsched::detail {

/// The CPUs this process may use, in order (empty where unknown).
std::vector<int> processCpus();

/// Lets the calling thread run on `cpus` only; a thread on none of them is moved at once.
/// Returns false if the OS refused (or elsewhere than Linux).
bool bindCallingThread(std::span<const int> cpus) noexcept;

}  // namespace pullsched::detail
