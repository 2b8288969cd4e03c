#include "kernels.hpp"

#include <cblas.h>

namespace armada::apps::ccsd {

void permute4(const double* src, const Extents& ext, const Perm& perm, double* dst) {
  const std::int64_t stride_of_axis[4] = {ext[1] * ext[2] * ext[3], ext[2] * ext[3], ext[3], 1};
  std::int64_t e[4], s[4];
  for (std::size_t d = 0; d < 4; ++d) {
    e[d] = ext[static_cast<std::size_t>(perm[d])];
    s[d] = stride_of_axis[perm[d]];
  }
  double* out = dst;
  for (std::int64_t x0 = 0; x0 < e[0]; ++x0)
    for (std::int64_t x1 = 0; x1 < e[1]; ++x1)
      for (std::int64_t x2 = 0; x2 < e[2]; ++x2) {
        const double* in = src + x0 * s[0] + x1 * s[1] + x2 * s[2];
        if (s[3] == 1) {
          for (std::int64_t x3 = 0; x3 < e[3]; ++x3) out[x3] = in[x3];
        } else {
          for (std::int64_t x3 = 0; x3 < e[3]; ++x3) out[x3] = in[x3 * s[3]];
        }
        out += e[3];
      }
}

void dgemm(std::int64_t m, std::int64_t n, std::int64_t k, const double* a, const double* b, double* c,
           bool accumulate) {
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<blasint>(m), static_cast<blasint>(n),
              static_cast<blasint>(k), 1.0, a, static_cast<blasint>(k), b, static_cast<blasint>(n),
              accumulate ? 1.0 : 0.0, c, static_cast<blasint>(n));
}

void use_one_blas_thread() { openblas_set_num_threads(1); }

namespace {
/// The block as the dgemm reads it: itself, or its permutation in `buf`.
const double* permuted(const double* src, const Extents& ext, const Perm& perm, bool identity, std::vector<double>& buf) {
  if (identity) return src;
  buf.resize(static_cast<std::size_t>(ext[0] * ext[1] * ext[2] * ext[3]));
  permute4(src, ext, perm, buf.data());
  return buf.data();
}

Extents permuted_extents(const Extents& ext, const Perm& perm) {
  Extents e{};
  for (std::size_t d = 0; d < 4; ++d) e[d] = ext[static_cast<std::size_t>(perm[d])];
  return e;
}
}  // namespace

void multiply(const Task& t, const TermLayout& layout, const double* a, const double* b, double* out,
              TaskScratch& scratch) {
  const double* am = permuted(a, t.a_ext, layout.a_perm, layout.a_identity, scratch.a);
  const double* bm = permuted(b, t.b_ext, layout.b_perm, layout.b_identity, scratch.b);
  if (layout.out_identity) {
    dgemm(t.m, t.n, t.k, am, bm, out);
    return;
  }
  // The product's axes are A's two free indices then B's two free indices.
  const Extents pa = permuted_extents(t.a_ext, layout.a_perm), pb = permuted_extents(t.b_ext, layout.b_perm);
  scratch.product.resize(static_cast<std::size_t>(t.r_size()));
  dgemm(t.m, t.n, t.k, am, bm, scratch.product.data());
  permute4(scratch.product.data(), Extents{pa[0], pa[1], pb[2], pb[3]}, layout.out_perm, out);
}

}  // namespace armada::apps::ccsd
