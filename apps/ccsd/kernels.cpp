#include "kernels.hpp"

#include <cblas.h>

#include <algorithm>
#include <cstring>
#include <utility>

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

/// Copies n doubles. The runs of the terms' permutations are often one occupied tile long (6 to
/// 10 elements at o = 24): a call to memmove per run (what std::copy_n becomes) costs more than
/// the copy, so short runs move in fixed-size pieces the compiler inlines.
inline void copy_run(const double* in, std::int64_t n, double* out) {
  if (n > 32) {
    std::memcpy(out, in, static_cast<std::size_t>(n) * sizeof(double));
    return;
  }
  std::int64_t i = 0;
  for (; i + 4 <= n; i += 4) std::memcpy(out + i, in + i, 4 * sizeof(double));
  if (i + 2 <= n) std::memcpy(out + i, in + i, 2 * sizeof(double)), i += 2;
  if (i < n) out[i] = in[i];
}

/// Adds n doubles into out (short runs: the compiler vectorizes the loop; no call to replace).
inline void add_run(const double* in, std::int64_t n, double* out) {
  for (std::int64_t i = 0; i < n; ++i) out[i] += in[i];
}

/// dst[x] = src[x] (or += with Add) over the box, as copy4 documents.
template <bool Add>
void move4(const double* src, const Strides& ss, double* dst, const Strides& ds, const Extents& ext, Walk walk) {
  for (std::int64_t x : ext)
    if (x == 0) return;
  // Axes that run on into each other on both sides are one axis (a block's row written whole
  // into a matrix row is one run, not tile-size pieces), innermost first; unit axes drop out.
  Extents e{1, 1, 1, 1};
  Strides s{}, d{};
  std::size_t n = 0;
  for (std::size_t a = 4; a-- > 0;) {
    if (ext[a] == 1) continue;
    if (n > 0 && ss[a] == e[n - 1] * s[n - 1] && ds[a] == e[n - 1] * d[n - 1]) {
      e[n - 1] *= ext[a];
      continue;
    }
    e[n] = ext[a], s[n] = ss[a], d[n] = ds[a];
    ++n;
  }
  // The loops follow the destination's order (the axes were taken in it); to walk the source,
  // the outer axes go innermost-first by the source's strides. Axis 0, the run, stays.
  if (walk == Walk::source)
    for (std::size_t i = 1; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j)
        if (s[j] < s[i]) std::swap(e[i], e[j]), std::swap(s[i], s[j]), std::swap(d[i], d[j]);
  const bool contiguous = s[0] == 1 && d[0] == 1;
  for (std::int64_t x3 = 0; x3 < e[3]; ++x3)
    for (std::int64_t x2 = 0; x2 < e[2]; ++x2)
      for (std::int64_t x1 = 0; x1 < e[1]; ++x1) {
        const double* in = src + x3 * s[3] + x2 * s[2] + x1 * s[1];
        double* out = dst + x3 * d[3] + x2 * d[2] + x1 * d[1];
        if (contiguous) {
          if constexpr (Add) add_run(in, e[0], out);
          else copy_run(in, e[0], out);
        } else {
          for (std::int64_t x0 = 0; x0 < e[0]; ++x0) {
            if constexpr (Add) out[x0 * d[0]] += in[x0 * s[0]];
            else out[x0 * d[0]] = in[x0 * s[0]];
          }
        }
      }
}

}  // namespace

void copy4(const double* src, const Strides& ss, double* dst, const Strides& ds, const Extents& ext, Walk walk) {
  move4<false>(src, ss, dst, ds, ext, walk);
}

void add4(const double* src, const Strides& ss, double* dst, const Strides& ds, const Extents& ext, Walk walk) {
  move4<true>(src, ss, dst, ds, ext, walk);
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
  copy4(src, s, dst, Strides{e[1] * ld, ld, e[3], 1}, e, Walk::source);
}

void matrix_to_block(const double* src, std::int64_t ld, const Extents& product, const Perm& perm, double* dst,
                     bool add) {
  Extents e{};
  Strides s{};
  permuted(product, Strides{product[1] * ld, ld, product[3], 1}, perm, e, s);
  (add ? add4 : copy4)(src, s, dst, row_major(e), e, Walk::destination);
}

void dgemm(const GemmShape& s, const double* a, const double* b, double* c, bool accumulate) {
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<blasint>(s.m), static_cast<blasint>(s.n),
              static_cast<blasint>(s.k), 1.0, a, static_cast<blasint>(s.lda), b, static_cast<blasint>(s.ldb),
              accumulate ? 1.0 : 0.0, c, static_cast<blasint>(s.ldc));
}

void use_one_blas_thread() { openblas_set_num_threads(1); }

}  // namespace armada::apps::ccsd
