// The lock words of the shared-memory transport. Both live in shared memory, so any process of
// the node (and, later, a node's server thread acting for a remote origin) takes the same lock.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "transport/base/waiting.hpp"

namespace armada::rma::detail {

/// Striped accumulate locks: a fixed table of spinlocks in a node-wide shared region. The stripe
/// of a byte is a hash of its owner rank and its 16 KiB block in the owner's address space, so
/// every origin agrees on it while unrelated targets rarely share a stripe. A caller never holds
/// two stripes at once, so stripes cannot deadlock.
class StripeLocks {
 public:
  static constexpr std::size_t kStripes = 4096;
  static constexpr unsigned kStripeShift = 14;  // 16 KiB blocks
  static constexpr std::size_t kStripeBytes = std::size_t{1} << kStripeShift;

  static constexpr std::size_t region_bytes() noexcept { return kStripes * 64; }
  StripeLocks() = default;
  StripeLocks(std::byte* region, int spin_limit) noexcept
      : words_(reinterpret_cast<Word*>(region)), spin_limit_(spin_limit) {}

  static std::size_t stripe_of(int owner, std::uintptr_t remote) noexcept {
    std::uint64_t h = (remote >> kStripeShift) * 0x9E3779B97F4A7C15ull ^
                      static_cast<std::uint64_t>(owner) * 0xC2B2AE3D27D4EB4Full;
    return static_cast<std::size_t>((h ^ (h >> 29)) % kStripes);
  }
  void lock(std::size_t stripe) noexcept;
  void unlock(std::size_t stripe) noexcept {
    words_[stripe].value.store(0, std::memory_order_release);
  }

 private:
  struct alignas(64) Word {
    std::atomic<std::uint32_t> value;
  };
  static_assert(sizeof(Word) == 64);
  Word* words_ = nullptr;
  int spin_limit_ = 0;
};

/// A process-local mutex for sections of a few hundred instructions (one call into a
/// communication library): one atomic exchange to take it and one store to release it, where
/// std::mutex costs two library calls, a measurable share of a 50 ns operation. Waiters spin
/// with Backoff (then yield the core); no holder may sleep inside.
class SpinMutex {
 public:
  static constexpr int kSpinMutexSpins = 1000;  // pauses before the first yield (~ 10-40 us)
  void lock() noexcept {
    if (!locked_.exchange(true, std::memory_order_acquire)) return;
    wait_and_lock();
  }
  bool try_lock() noexcept {
    return !locked_.load(std::memory_order_relaxed) && !locked_.exchange(true, std::memory_order_acquire);
  }
  void unlock() noexcept { locked_.store(false, std::memory_order_release); }

 private:
  void wait_and_lock() noexcept;
  std::atomic<bool> locked_{false};
};

/// A FIFO (ticket) mutex, one cache line in shared memory. All-zero bytes are an unlocked
/// mutex, so a freshly allocated segment holds ready mutexes.
struct alignas(64) TicketMutex {
  std::atomic<std::uint32_t> next;      // next ticket to hand out
  std::atomic<std::uint32_t> serving;   // ticket that holds the mutex
  std::atomic<std::uint32_t> sleepers;  // waiters asleep on `serving`
  std::atomic<std::int32_t> owner;      // world rank + 1 of the holder, 0 if free

  /// Waits its turn: spins up to `spin_limit` rounds, then sleeps on a futex; with `meanwhile`,
  /// in slices of up to kMeanwhileSleepMaxNs, running it between them (the holder may need this
  /// process's node server to reach its unlock).
  void lock(int rank, int spin_limit, WaitHook meanwhile = {}) noexcept;
  static constexpr long kMeanwhileSleepMaxNs = 200000;
  bool try_lock(int rank) noexcept;
  /// Takes the next ticket into `ticket` without waiting: true if it is served at once (the
  /// mutex is then held by `rank`); else the taker waits until `serving` reaches it and then
  /// sets `owner` (lock() starts so; a remote origin waits by its own reads: the tcp Lock frame).
  bool take_ticket(int rank, std::uint32_t& ticket) noexcept;
  /// False (and no change) if `rank` does not hold the mutex.
  bool unlock(int rank) noexcept;
};
static_assert(sizeof(TicketMutex) == 64);

}  // namespace armada::rma::detail
