// Waiting without burning a core: spin briefly with the CPU's pause hint, then yield or sleep
// in the kernel (futex). Words live in MAP_SHARED memory, so the futexes are process-shared.
#pragma once

#include <atomic>
#include <cstdint>

namespace armada::rma::detail {

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#else
  asm volatile("" ::: "memory");
#endif
}

/// Sleeps while *word == expected (returns at once if it differs; may return spuriously).
void futex_wait(std::atomic<std::uint32_t>* word, std::uint32_t expected) noexcept;
/// Wakes every sleeper on `word`.
void futex_wake_all(std::atomic<std::uint32_t>* word) noexcept;

/// Spins `spin_limit` times, then yields the CPU on every further round. For locks held only
/// for a few instructions, where a kernel sleep would cost more than it saves.
class Backoff {
 public:
  explicit Backoff(int spin_limit) noexcept : limit_(spin_limit) {}
  void pause() noexcept;

 private:
  int limit_;
  int spins_ = 0;
};

}  // namespace armada::rma::detail
