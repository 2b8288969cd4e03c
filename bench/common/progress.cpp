#include "common/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>

namespace armada::bench {

std::string format_duration(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  char buf[32];
  if (s < 60) std::snprintf(buf, sizeof buf, "%lds", s);
  else if (s < 3600) std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
  else std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, s / 60 % 60);
  return buf;
}

std::string progress_text(const std::string& label, std::size_t step, std::size_t total, double eta_seconds) {
  return "[step " + std::to_string(step) + " of " + std::to_string(total) +
         ", ETA " + (eta_seconds < 0 ? std::string("?") : format_duration(eta_seconds)) + ": " + label + "]";
}

Progress::Progress(bool enabled, std::FILE* stream)
    : enabled_(enabled), tty_(isatty(fileno(stream)) == 1), stream_(stream) {}

void Progress::begin(std::size_t total) {
  total_ = total;
  step_ = 0;
  start_ = Clock::now();
}

void Progress::next(const std::string& label) { next(label, Clock::now()); }

void Progress::next(const std::string& label, Clock::time_point now) {
  ++step_;
  if (total_ < step_) total_ = step_;  // a miscount must not show "step 9 of 8"
  if (!enabled_) return;
  const std::size_t finished = step_ - 1;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double eta = finished == 0 ? -1 : elapsed / static_cast<double>(finished) * static_cast<double>(total_ - finished);
  const std::string text = progress_text(label, step_, total_, eta);
  if (tty_) {
    std::fprintf(stream_, "\r%s\033[K", text.c_str());
    shown_ = text.size();
  } else {
    std::fprintf(stream_, "%s\n", text.c_str());
  }
  std::fflush(stream_);
}

void Progress::done() {
  if (!enabled_ || !tty_ || shown_ == 0) return;
  std::fprintf(stream_, "\r\033[K");
  std::fflush(stream_);
  shown_ = 0;
}

}  // namespace armada::bench
