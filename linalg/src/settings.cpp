// linalg's settings: one table (name, type, default, meaning), read from the environment once.
#include "armada/linalg/settings.hpp"

#include <atomic>
#include <mutex>
#include <string>

#include "armada/rma/error.hpp"
#include "internal.hpp"

extern "C" void openblas_set_num_threads(int num_threads);

namespace armada::linalg {

namespace {

// Rows of rma's form (rma::SettingRule), read and checked by rma (rma::read_settings): the same
// rules and messages as rma's own settings; armada-info and docs/configuration.md list them.
constexpr long kMax = 1 << 20;
constexpr rma::SettingRule kSettings[] = {
    {.doc = {"ARMADA_LINALG_BLAS_THREADS", "int", "1",
             "OpenBLAS threads per rank for linalg's local work (1: one rank per core; raise it when ranks "
             "per node are fewer than cores)"},
     .min = 1, .max = kMax},
    {.doc = {"ARMADA_LINALG_GEMM_PANEL", "int", "256", "k-panel width of the distributed gemm (elements)"},
     .min = 1, .max = kMax},
    {.doc = {"ARMADA_LINALG_BLOCK", "int", "64", "block size of the 2-D block-cyclic ScaLAPACK layout"},
     .min = 1, .max = kMax},
};

struct Values {
  std::atomic<int> blas_threads;
  int panel;
  int block;
  std::atomic<int> applied{0};  // the thread count last given to OpenBLAS (0: none yet)
  explicit Values(const rma::Config& c)
      : blas_threads(static_cast<int>(c.integer("ARMADA_LINALG_BLAS_THREADS"))),
        panel(static_cast<int>(c.integer("ARMADA_LINALG_GEMM_PANEL"))),
        block(static_cast<int>(c.integer("ARMADA_LINALG_BLOCK"))) {}
};

Values& values() {
  static Values v(rma::read_settings(kSettings, "linalg settings"));  // read on first use, i.e. the first linalg call
  return v;
}

}  // namespace

std::span<const rma::SettingRule> settings() noexcept { return kSettings; }

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
