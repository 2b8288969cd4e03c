#include "common/progress.hpp"

#include <unistd.h>

namespace armada::bench {

std::string progress_text(const std::string& label, std::size_t step, std::size_t total) {
  return "[" + label + " " + std::to_string(step) + "/" + std::to_string(total) + "]";
}

Progress::Progress(bool enabled, std::FILE* stream)
    : enabled_(enabled), tty_(isatty(fileno(stream)) == 1), stream_(stream) {}

void Progress::step(const std::string& label, std::size_t step, std::size_t total) {
  if (!enabled_) return;
  const std::string text = progress_text(label, step, total);
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
