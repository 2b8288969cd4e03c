// linalg's settings: one table (name, type, default, meaning), read from the environment once.
#include "armada/linalg/settings.hpp"

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <string>

#include "armada/rma/error.hpp"
#include "internal.hpp"

extern "C" void openblas_set_num_threads(int num_threads);

namespace armada::linalg {

namespace {

constexpr rma::Setting kSettings[] = {
    {"ARMADA_LINALG_BLAS_THREADS", "int", "1",
     "OpenBLAS threads per rank for linalg's local work (1: one rank per core; raise it when ranks "
     "per node are fewer than cores)"},
    {"ARMADA_LINALG_GEMM_PANEL", "int", "256", "k-panel width of the distributed gemm (elements)"},
    {"ARMADA_LINALG_BLOCK", "int", "64", "block size of the 2-D block-cyclic ScaLAPACK layout"},
};

int read_positive(const rma::Setting& s) {
  const char* env = std::getenv(s.name);
  const std::string text = env && *env ? env : s.default_value;
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (end == text.c_str() || *end != '\0' || v < 1 || v > 1 << 20)
    throw rma::InvalidArgument("linalg settings", s.name, text, "must be an integer from 1 to 1048576");
  return static_cast<int>(v);
}

struct Values {
  std::atomic<int> blas_threads;
  int panel;
  int block;
  std::atomic<int> applied{0};  // the thread count last given to OpenBLAS (0: none yet)
  Values() : blas_threads(read_positive(kSettings[0])), panel(read_positive(kSettings[1])),
             block(read_positive(kSettings[2])) {}
};

Values& values() {
  static Values v;  // read on first use, i.e. the first linalg call
  return v;
}

}  // namespace

std::span<const rma::Setting> settings() noexcept { return kSettings; }

int blas_threads() { return values().blas_threads.load(); }

void set_blas_threads(int n) {
  if (n < 1) throw rma::InvalidArgument("linalg::set_blas_threads", "n", std::to_string(n), "must be at least 1");
  values().blas_threads.store(n);
}

int gemm_panel() { return values().panel; }
int scalapack_block() { return values().block; }

namespace detail {
void apply_blas_threads() {
  Values& v = values();
  const int n = v.blas_threads.load();
  if (v.applied.exchange(n) != n) openblas_set_num_threads(n);
}
}  // namespace detail

}  // namespace armada::linalg
