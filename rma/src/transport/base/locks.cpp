#include "transport/base/locks.hpp"

#include <algorithm>

#include "transport/base/waiting.hpp"

namespace armada::rma::detail {

void StripeLocks::lock(std::size_t stripe) noexcept {
  auto& w = words_[stripe].value;
  if (w.exchange(1, std::memory_order_acquire) == 0) return;
  Backoff backoff(spin_limit_);
  for (;;) {
    while (w.load(std::memory_order_relaxed) != 0) backoff.pause();
    if (w.exchange(1, std::memory_order_acquire) == 0) return;
  }
}

void SpinMutex::wait_and_lock() noexcept {
  Backoff backoff(kSpinMutexSpins);
  for (;;) {
    while (locked_.load(std::memory_order_relaxed)) backoff.pause();
    if (!locked_.exchange(true, std::memory_order_acquire)) return;
  }
}

void TicketMutex::lock(int rank, int spin_limit, WaitHook meanwhile) noexcept {
  std::uint32_t ticket = 0;
  if (take_ticket(rank, ticket)) return;
  for (int i = 0; i < spin_limit; ++i) {
    if (serving.load(std::memory_order_acquire) == ticket) {
      owner.store(rank + 1, std::memory_order_relaxed);
      return;
    }
    cpu_relax();
  }
  // Announce the sleeper before re-reading `serving` (seq_cst on both sides, Dekker style):
  // either unlock() sees the sleeper and wakes it, or this load sees unlock()'s increment.
  sleepers.fetch_add(1, std::memory_order_seq_cst);
  long slice_ns = 1000;
  for (;;) {
    const std::uint32_t now = serving.load(std::memory_order_seq_cst);
    if (now == ticket) break;
    if (!meanwhile) {
      futex_wait(&serving, now);
      continue;
    }
    meanwhile();
    futex_wait_for(&serving, now, slice_ns);  // an unlock still wakes it at once
    slice_ns = std::min(slice_ns * 2, kMeanwhileSleepMaxNs);
  }
  sleepers.fetch_sub(1, std::memory_order_relaxed);
  owner.store(rank + 1, std::memory_order_relaxed);
}

bool TicketMutex::try_lock(int rank) noexcept {
  std::uint32_t ticket = serving.load(std::memory_order_acquire);
  if (!next.compare_exchange_strong(ticket, ticket + 1, std::memory_order_acquire,
                                    std::memory_order_relaxed))
    return false;
  owner.store(rank + 1, std::memory_order_relaxed);
  return true;
}

bool TicketMutex::take_ticket(int rank, std::uint32_t& ticket) noexcept {
  ticket = next.fetch_add(1, std::memory_order_relaxed);
  if (serving.load(std::memory_order_acquire) != ticket) return false;
  owner.store(rank + 1, std::memory_order_relaxed);
  return true;
}

bool TicketMutex::unlock(int rank) noexcept {
  if (owner.load(std::memory_order_relaxed) != rank + 1) return false;
  owner.store(0, std::memory_order_relaxed);
  serving.fetch_add(1, std::memory_order_seq_cst);
  if (sleepers.load(std::memory_order_seq_cst) != 0) futex_wake_all(&serving);
  return true;
}

}  // namespace armada::rma::detail
