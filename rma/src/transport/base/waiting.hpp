// Waiting without burning a core: spin briefly with the CPU's pause hint, then yield or sleep
// in the kernel (futex). Words live in MAP_SHARED memory, so the futexes are process-shared.
#pragma once

#include <atomic>
#include <chrono>
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
/// As futex_wait, for at most `ns` nanoseconds.
void futex_wait_for(std::atomic<std::uint32_t>* word, std::uint32_t expected, long ns) noexcept;

/// Work a waiter does between its polls: the core's share of the transports' progress (a node
/// server's requests that this process executes when its thread gets no core). Must not throw.
struct WaitHook {
  void (*run)(void* context) noexcept = nullptr;
  void* context = nullptr;
  explicit operator bool() const noexcept { return run != nullptr; }
  void operator()() const noexcept { run(context); }
};
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

/// Rounds a waiter spins before it yields or sleeps where its host's ranks do not outnumber the
/// host's cores (ARMADA_SPIN_LIMIT's rule, spin_rounds_for).
inline constexpr int kSpinRounds = 2000;

/// ARMADA_SPIN_LIMIT's rule: `configured` (>= 0) as given; -1 (the default) kSpinRounds where the
/// host's `ranks` fit its `cores`, else 0, as Open MPI yields at once when a node is
/// oversubscribed: a spinning waiter there holds the core that the rank it waits for (or any
/// rank with work) needs, until its time slice ends.
constexpr int spin_rounds_for(int configured, int ranks, int cores) noexcept {
  if (configured >= 0) return configured;
  return ranks > cores ? 0 : kSpinRounds;
}

/// The pause between the polls of a wait that may last (a reply, a collective, a lock, a flag):
/// spins `spin_rounds` (kSpinRounds) rounds with the CPU's pause hint (replies usually come within microseconds), then
/// yields the core, which returns at once when no other thread wants it, for up to 2 ms from the
/// wait's start; past that every round sleeps, 1 us, 2 us, 4 us ... up to `sleep_max_ns`, so
/// that a long wait leaves the core to the threads that have work (the node server the waiter
/// may itself be waiting for) and costs about one poll per sleep. Sleeping sooner would add a
/// timer's slack (50+ us on a VM) to every large blocking transfer.
class PollPause {
 public:
  /// `spin_rounds`: 0 for a waiter that spins its own way first (each of its polls a system call).
  explicit PollPause(long sleep_max_ns, int spin_rounds = kSpinRounds) noexcept
      : sleep_max_ns_(sleep_max_ns), spin_rounds_(spin_rounds),
        yield_until_(std::chrono::steady_clock::now() + std::chrono::milliseconds(2)) {}
  void pause() noexcept;
  /// Whether the waiter looks again soon, so that it may take what arrives for it alone (no other
  /// thread woken for it): while its rounds spin (it holds its core and looks again within a
  /// microsecond), and, for a waiter that yields from the start (`spin_rounds` 0: its host's ranks
  /// outnumber its cores, spin_rounds_for), until it sleeps — there its core's other threads are
  /// ranks, and a thread woken per message is one more for that core (docs/rma.md, tcp
  /// "Progress"). Where it spun first, its yields may hand another job a whole time slice.
  bool looks_soon() const noexcept { return spin_rounds_ == 0 ? !sleeping_ : round_ < spin_rounds_; }

 private:
  long sleep_max_ns_;
  int spin_rounds_;
  std::chrono::steady_clock::time_point yield_until_;
  int round_ = 0;
  bool sleeping_ = false;
  long sleep_ns_ = 1000;
};

}  // namespace armada::rma::detail
