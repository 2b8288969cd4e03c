// The resident set of this process (the server transport's growth check at init, the leak tests).
#pragma once

#include <cstdio>

namespace armada::rma::detail {

/// VmRSS of this process in KiB (0 if /proc is not readable).
inline long resident_kb() {
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return 0;
  char line[256];
  long kb = 0;
  while (std::fgets(line, sizeof line, f))
    if (std::sscanf(line, "VmRSS: %ld kB", &kb) == 1) break;
  std::fclose(f);
  return kb;
}

}  // namespace armada::rma::detail
