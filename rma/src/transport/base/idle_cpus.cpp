#include "transport/base/idle_cpus.hpp"

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>

namespace armada::rma::detail {

namespace {

constexpr const char* kLoadavg = "/proc/loadavg";

int others_in(int fd) noexcept {
  char text[128];
  const long n = ::pread(fd, text, sizeof text, 0);
  if (n <= 0) return -1;
  const int running = running_in_loadavg(std::string_view(text, static_cast<std::size_t>(n)));
  return running < 0 ? -1 : std::max(0, running - 1);
}

}  // namespace

int running_in_loadavg(std::string_view text) noexcept {
  const std::size_t slash = text.find('/');
  if (slash == std::string_view::npos) return -1;
  std::size_t digits = slash;
  while (digits > 0 && text[digits - 1] >= '0' && text[digits - 1] <= '9') --digits;
  if (digits == slash || slash - digits > 9) return -1;
  int running = 0;
  for (std::size_t i = digits; i < slash; ++i) running = running * 10 + (text[i] - '0');
  return running;
}

int others_running_now() noexcept {
  const int fd = ::open(kLoadavg, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  const int others = others_in(fd);
  ::close(fd);
  return others;
}

bool idle_cpu_exists(int others_running, int usable_cpus, int online_cpus) noexcept {
  if (others_running < 0 || online_cpus <= 0 || usable_cpus < online_cpus) return false;
  return others_running < online_cpus;
}

IdleCpuProbe::IdleCpuProbe() noexcept : fd_(::open(kLoadavg, O_RDONLY | O_CLOEXEC)) {
  cpu_set_t mask;
  if (sched_getaffinity(0, sizeof mask, &mask) == 0) usable_ = CPU_COUNT(&mask);
  online_ = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
}

IdleCpuProbe::~IdleCpuProbe() {
  if (fd_ >= 0) ::close(fd_);
}

bool IdleCpuProbe::idle_cpu(std::chrono::nanoseconds max_age) const noexcept {
  if (fd_ < 0 || usable_ < online_) return false;  // cheap refusals first: no read
  constexpr std::uint32_t kAllBusy = (1u << kBusyLooks) - 1;
  const std::int64_t now =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
  std::uint32_t busy = busy_looks_.load(std::memory_order_relaxed);
  const std::int64_t looked = looked_ns_.load(std::memory_order_relaxed);
  if (looked < 0 || now - looked > max_age.count()) {
    busy = (busy << 1 | (idle_cpu_exists(others_in(fd_), usable_, online_) ? 0u : 1u)) & kAllBusy;
    busy_looks_.store(busy, std::memory_order_relaxed);  // two threads looking at once: a look may be lost, no more
    looked_ns_.store(now, std::memory_order_relaxed);
  }
  return busy != kAllBusy;
}

}  // namespace armada::rma::detail
