// Timing for the benchmarks: std::chrono::steady_clock, loops timed as a whole, and a
// calibration that picks how many iterations make one repetition last a given time.
#pragma once

#include <chrono>
#include <cstddef>

namespace armada::bench {

using Clock = std::chrono::steady_clock;

/// Seconds between two time points.
inline double seconds(Clock::time_point from, Clock::time_point to) noexcept {
  return std::chrono::duration<double>(to - from).count();
}

/// Keeps the compiler from proving that writes through `p` are dead (so a baseline memcpy or
/// store loop is really executed every iteration).
inline void clobber(const void* p) noexcept { asm volatile("" : : "r"(p) : "memory"); }

/// Accumulates the time of timed sections only (e.g. the origin's operation, not the
/// synchronization around it).
class Stopwatch {
 public:
  void start() noexcept { t0_ = Clock::now(); }
  void stop() noexcept { total_ += seconds(t0_, Clock::now()); }
  double total() const noexcept { return total_; }
  void reset() noexcept { total_ = 0; }

 private:
  Clock::time_point t0_{};
  double total_ = 0;
};

/// Runs op(i) for i in [0, n) and returns the elapsed seconds of the whole loop.
template <class Op>
double time_loop(Op& op, std::size_t n) {
  const auto t0 = Clock::now();
  for (std::size_t i = 0; i < n; ++i) op(i);
  return seconds(t0, Clock::now());
}

/// The iteration count for which `run(n)` (which returns elapsed seconds) takes about
/// `target` seconds; at least `min_iters`. Doubles n from 1 until a run lasts target/8, which
/// also warms caches, page mappings and branch predictors.
template <class Run>
std::size_t calibrate(Run& run, double target, std::size_t min_iters = 1,
                      std::size_t max_iters = std::size_t{1} << 32) {
  std::size_t n = 1;
  for (;;) {
    const double t = run(n);
    if (t >= target / 8 || n >= max_iters) {
      const double per = t / static_cast<double>(n);
      double want = per > 0 ? target / per : static_cast<double>(max_iters);
      if (want > static_cast<double>(max_iters)) want = static_cast<double>(max_iters);
      const auto chosen = static_cast<std::size_t>(want);
      return chosen < min_iters ? min_iters : chosen;
    }
    n *= 2;
  }
}

}  // namespace armada::bench
