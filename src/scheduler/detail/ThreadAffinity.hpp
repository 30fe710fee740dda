#pragma once
// The CPUs a process may use, and binding the calling thread to some of them (Linux;
// elsewhere nothing is known and nothing is bound). Shared by pinning (WorkForce) and by
// CpuSpread, which moves a worker and then gives it the whole set back, and steers a
// parked worker off its waker's CPU.

#include <span>
#include <vector>

namespace pullsched::detail {

/// The CPUs this process may use, in order (empty where unknown).
std::vector<int> processCpus();

/// Lets the calling thread run on `cpus` only; a thread on none of them is moved at once.
/// Returns false if the OS refused (or elsewhere than Linux).
bool bindCallingThread(std::span<const int> cpus) noexcept;

/// Lets thread `tid` (a kernel thread id; 0: the calling thread) run on `cpus` except
/// `except` (-1: none). A sleeping thread is not moved now; it wakes on one of them.
/// Returns false if no CPU is left or the OS refused (or elsewhere than Linux).
bool bindThread(int tid, std::span<const int> cpus, int except = -1) noexcept;

/// The calling thread's kernel thread id (0 where unknown).
int currentThreadId() noexcept;

}  // namespace pullsched::detail
