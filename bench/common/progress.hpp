// A progress line for long sweeps, on stderr of the root rank: "[contig put 64 KiB 5/21]",
// rewritten in place (\r) when stderr is a terminal, one plain line per step otherwise.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>

namespace armada::bench {

/// "[label step/total]".
std::string progress_text(const std::string& label, std::size_t step, std::size_t total);

class Progress {
 public:
  /// enabled: this rank prints (the root). tty: rewrite in place (default: isatty(stream)).
  explicit Progress(bool enabled, std::FILE* stream = stderr);
  Progress(bool enabled, std::FILE* stream, bool tty) : enabled_(enabled), tty_(tty), stream_(stream) {}
  ~Progress() { done(); }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  /// Shows step `step` (1-based) of `total` of the sweep `label`.
  void step(const std::string& label, std::size_t step, std::size_t total);
  /// Clears an in-place line (before other output, and at the end).
  void done();

 private:
  bool enabled_;
  bool tty_;
  std::FILE* stream_;
  std::size_t shown_ = 0;  // characters of the in-place line on screen
};

}  // namespace armada::bench
