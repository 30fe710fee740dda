#pragma once
// The CPU's spin-wait hint: lets the sibling hyper-thread run and saves power in busy loops.

namespace pullsched::detail {

inline void cpuRelax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield" ::: "memory");
#endif
}

}  // namespace pullsched::detail
