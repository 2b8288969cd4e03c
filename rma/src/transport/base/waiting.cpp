#include "transport/base/waiting.hpp"

#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <climits>

namespace armada::rma::detail {

static_assert(sizeof(std::atomic<std::uint32_t>) == sizeof(std::uint32_t));

void futex_wait(std::atomic<std::uint32_t>* word, std::uint32_t expected) noexcept {
  // Not FUTEX_PRIVATE_FLAG: the word is shared between processes.
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(word), FUTEX_WAIT, expected, nullptr, nullptr, 0);
}

void futex_wait_for(std::atomic<std::uint32_t>* word, std::uint32_t expected, long ns) noexcept {
  const timespec timeout{ns / 1000000000L, ns % 1000000000L};
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(word), FUTEX_WAIT, expected, &timeout, nullptr, 0);
}

void futex_wake_all(std::atomic<std::uint32_t>* word) noexcept {
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(word), FUTEX_WAKE, INT_MAX, nullptr, nullptr, 0);
}

void Backoff::pause() noexcept {
  if (spins_ < limit_) {
    ++spins_;
    cpu_relax();
  } else {
    sched_yield();
  }
}

void PollPause::pause() noexcept {
  if (!sleeping_) {
    const int round = round_++;
    if (round < spin_rounds_) {
      cpu_relax();  // (yielding every 64 rounds here made a stream of 8-byte puts 15-20x slower)
      return;
    }
    // The clock is read once in 64 rounds: a yield that returns at once costs less than it.
    if ((round & 63) != 0 || std::chrono::steady_clock::now() < yield_until_) {
      sched_yield();
      return;
    }
    sleeping_ = true;
  }
  const timespec ts{0, sleep_ns_};
  nanosleep(&ts, nullptr);
  sleep_ns_ = std::min(sleep_ns_ * 2, sleep_max_ns_);
}

}  // namespace armada::rma::detail
