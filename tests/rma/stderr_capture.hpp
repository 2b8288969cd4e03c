// Helpers of the programs that check what Armada says on stderr (stall_warning.cpp,
// agree_stall.cpp): run a piece of code with stderr sent to a file, and count a phrase.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace armada::test {

/// Runs `body` with file descriptor 2 writing to `path`; returns what was written there (the
/// file is removed).
template <class Body>
std::string capturing_stderr(const std::string& path, Body&& body) {
  std::fflush(stderr);
  const int saved = dup(2);
  std::FILE* file = std::fopen(path.c_str(), "w");
  dup2(fileno(file), 2);
  body();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::fclose(file);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::remove(path.c_str());
  return text.str();
}

/// How often `part` occurs in `text`.
inline int count(const std::string& text, const std::string& part) {
  int n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

}  // namespace armada::test
