// Whether the machine has a CPU idle now that the calling thread may run on: what decides if a
// thread that waits for a message may poll for it. A polling thread on a CPU another thread
// wants waits for that thread's time slice when the message comes (milliseconds), where a
// sleeping one is woken at once; on an idle CPU polling saves the wake-up (tens of microseconds
// on a VM). So poll only while an idle CPU exists (docs/rma.md, tcp "Progress").
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string_view>

namespace armada::rma::detail {

/// Threads running on the machine now, the caller excluded (the kernel's count of runnable
/// threads, every process's in whatever namespace); -1 if unknown. Opens the file: for a sample
/// now and then (auto's load rule), not for a loop (IdleCpuProbe).
int others_running_now() noexcept;

/// The running count of /proc/loadavg's text ("0.12 0.03 0.01 <running>/<threads> <pid>"),
/// the reader included; -1 if the text has none.
int running_in_loadavg(std::string_view text) noexcept;

/// The rule, without the sampling: an idle CPU exists when fewer other threads run than the
/// machine has CPUs, and the thread may run on every one of them (bound to a subset, the
/// machine-wide count says nothing of its own CPUs: not idle). Unknown counts (< 0): not idle.
bool idle_cpu_exists(int others_running, int usable_cpus, int online_cpus) noexcept;

/// The same rule for a loop: /proc/loadavg, kept open, one pread a look (about 1 us), and the
/// answer kept for callers that accept an older one. The CPUs count as busy only once
/// kBusyLooks looks in a row found none idle: a thread that runs for a moment (a launcher's, a
/// rank that wakes to test a request) does not stop a poll; a process that computes does, within
/// that many looks. Any thread may ask.
class IdleCpuProbe {
 public:
  /// Reads the calling thread's CPU affinity: construct it where the threads that ask get theirs
  /// (a thread inherits its creator's).
  IdleCpuProbe() noexcept;
  ~IdleCpuProbe();
  IdleCpuProbe(const IdleCpuProbe&) = delete;
  IdleCpuProbe& operator=(const IdleCpuProbe&) = delete;

  static constexpr int kBusyLooks = 3;

  /// Whether a CPU is idle, from looks the last of which is at most `max_age` old (a new look if
  /// it is older).
  bool idle_cpu(std::chrono::nanoseconds max_age) const noexcept;

 private:
  int fd_ = -1;
  int usable_ = 0;
  int online_ = 0;
  mutable std::atomic<std::int64_t> looked_ns_{-1};  // steady clock; -1: never
  mutable std::atomic<std::uint32_t> busy_looks_{0};  // one bit a look, the newest lowest: no CPU idle
};

}  // namespace armada::rma::detail
