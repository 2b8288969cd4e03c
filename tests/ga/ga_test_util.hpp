// What the GoogleTest programs of tests/ga share: GA's char* names, and whole 2-D double arrays
// and 1-D arrays read and written by one call.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "ga.h"

namespace ga_test {

/// GA's C prototypes take char* names.
inline char* name(const char* s) { return const_cast<char*>(s); }

/// What NGA_Inquire says of g must be `type` and `dims`.
inline void expect_shape(int g, int type, const std::vector<int>& dims) {
  int got_type = 0, ndim = 0, got[GA_MAX_DIM] = {};
  NGA_Inquire(g, &got_type, &ndim, got);
  EXPECT_EQ(got_type, type);
  EXPECT_EQ(std::vector<int>(got, got + ndim), dims);
}

/// The whole m x n double array g, row-major.
inline std::vector<double> whole(int g, int m, int n) {
  std::vector<double> v(static_cast<size_t>(m) * n);
  int lo[2] = {0, 0}, hi[2] = {m - 1, n - 1}, ld[1] = {n};
  NGA_Get(g, lo, hi, v.data(), ld);
  return v;
}

/// Process 0 writes f(i, j) into every element of the m x n double array g; synced before (every
/// process has read g) and after (every process sees the values).
inline void put_whole(int g, int m, int n, double (*f)(int, int)) {
  GA_Sync();
  if (GA_Nodeid() == 0) {
    std::vector<double> v(static_cast<size_t>(m) * n);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) v[static_cast<size_t>(i) * n + j] = f(i, j);
    int lo[2] = {0, 0}, hi[2] = {m - 1, n - 1}, ld[1] = {n};
    NGA_Put(g, lo, hi, v.data(), ld);
  }
  GA_Sync();
}

/// The whole 1-D array g of n elements of type T.
template <class T>
std::vector<T> whole_vector(int g, int n) {
  std::vector<T> v(static_cast<size_t>(n));
  int lo[1] = {0}, hi[1] = {n - 1};
  NGA_Get(g, lo, hi, v.data(), nullptr);
  return v;
}

/// Process 0 writes v into the 1-D array g (synced before and after, as put_whole).
template <class T>
void put_vector(int g, const std::vector<T>& v) {
  GA_Sync();
  if (GA_Nodeid() == 0) {
    int lo[1] = {0}, hi[1] = {static_cast<int>(v.size()) - 1};
    NGA_Put(g, lo, hi, const_cast<T*>(v.data()), nullptr);
  }
  GA_Sync();
}

/// What `print` writes to standard output (GA's printing goes to stdout on process 0), captured
/// through a temporary file.
template <class F>
std::string capture_stdout(F&& print) {
  std::fflush(stdout);
  char path[] = "/tmp/armada_ga_printXXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return "(mkstemp failed)";
  const int saved = dup(1);
  dup2(fd, 1);
  print();
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  std::FILE* in = fdopen(fd, "r");
  std::rewind(in);
  std::string text;
  for (int ch; (ch = std::fgetc(in)) != EOF;) text += static_cast<char>(ch);
  std::fclose(in);
  std::remove(path);
  return text;
}

}  // namespace ga_test
