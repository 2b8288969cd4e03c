#include "kernels.hpp"

#include <cblas.h>

namespace armada::apps::ccsd {

namespace {

Strides row_major(const Extents& e) { return Strides{e[1] * e[2] * e[3], e[2] * e[3], e[3], 1}; }

/// The extents and source strides of `ext`'s axes taken in the order perm.
void permuted(const Extents& ext, const Strides& strides, const Perm& perm, Extents& e, Strides& s) {
  for (std::size_t d = 0; d < 4; ++d) {
    e[d] = ext[static_cast<std::size_t>(perm[d])];
    s[d] = strides[static_cast<std::size_t>(perm[d])];
  }
}

}  // namespace

void copy4(const double* src, const Strides& ss, double* dst, const Strides& ds, const Extents& e) {
  for (std::int64_t x0 = 0; x0 < e[0]; ++x0)
    for (std::int64_t x1 = 0; x1 < e[1]; ++x1)
      for (std::int64_t x2 = 0; x2 < e[2]; ++x2) {
        const double* in = src + x0 * ss[0] + x1 * ss[1] + x2 * ss[2];
        double* out = dst + x0 * ds[0] + x1 * ds[1] + x2 * ds[2];
        if (ss[3] == 1 && ds[3] == 1) {
          for (std::int64_t x3 = 0; x3 < e[3]; ++x3) out[x3] = in[x3];
        } else {
          for (std::int64_t x3 = 0; x3 < e[3]; ++x3) out[x3 * ds[3]] = in[x3 * ss[3]];
        }
      }
}

void permute4(const double* src, const Extents& ext, const Perm& perm, double* dst) {
  Extents e{};
  Strides s{};
  permuted(ext, row_major(ext), perm, e, s);
  copy4(src, s, dst, row_major(e), e);
}

void block_to_matrix(const double* src, const Extents& ext, const Perm& perm, double* dst, std::int64_t ld) {
  Extents e{};
  Strides s{};
  permuted(ext, row_major(ext), perm, e, s);
  copy4(src, s, dst, Strides{e[1] * ld, ld, e[3], 1}, e);
}

void matrix_to_block(const double* src, std::int64_t ld, const Extents& product, const Perm& perm, double* dst) {
  Extents e{};
  Strides s{};
  permuted(product, Strides{product[1] * ld, ld, product[3], 1}, perm, e, s);
  copy4(src, s, dst, row_major(e), e);
}

void dgemm(const GemmShape& s, const double* a, const double* b, double* c, bool accumulate) {
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<blasint>(s.m), static_cast<blasint>(s.n),
              static_cast<blasint>(s.k), 1.0, a, static_cast<blasint>(s.lda), b, static_cast<blasint>(s.ldb),
              accumulate ? 1.0 : 0.0, c, static_cast<blasint>(s.ldc));
}

void use_one_blas_thread() { openblas_set_num_threads(1); }

}  // namespace armada::apps::ccsd
