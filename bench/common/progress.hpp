// A progress line for a long run, on stderr of the root rank: "[step 5 of 42, ETA 1m20s: contig
// shm 64 KiB]", rewritten in place (\r) when stderr is a terminal, one plain line per step
// otherwise. The run announces its total number of steps first (begin), then each step (next);
// the ETA is the mean time of the steps done so far times the steps left.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <string>

namespace armada::bench {

/// "[step K of N, ETA T: label]"; eta_seconds < 0: no estimate yet ("ETA ?").
std::string progress_text(const std::string& label, std::size_t step, std::size_t total, double eta_seconds);

/// "45s", "3m05s", "1h02m".
std::string format_duration(double seconds);

class Progress {
 public:
  using Clock = std::chrono::steady_clock;
  /// enabled: this rank prints (the root). tty: rewrite in place (default: isatty(stream)).
  explicit Progress(bool enabled, std::FILE* stream = stderr);
  Progress(bool enabled, std::FILE* stream, bool tty) : enabled_(enabled), tty_(tty), stream_(stream) {}
  ~Progress() { done(); }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  /// Starts counting: the run has `total` steps; the ETA clock starts now.
  void begin(std::size_t total);
  /// Shows the next step. `now` is for tests (default: the clock).
  void next(const std::string& label);
  void next(const std::string& label, Clock::time_point now);
  /// Counts `n` steps as done without showing them (a pass that did not run).
  void skip(std::size_t n) { step_ += n; }
  std::size_t step() const noexcept { return step_; }
  std::size_t total() const noexcept { return total_; }
  /// Clears an in-place line (before other output, and at the end).
  void done();

 private:
  bool enabled_;
  bool tty_;
  std::FILE* stream_;
  std::size_t total_ = 0, step_ = 0;
  Clock::time_point start_ = Clock::now();
  std::size_t shown_ = 0;  // characters of the in-place line on screen
};

}  // namespace armada::bench
