#include "kernels.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

// The row loops run most of MG's time and are compute bound on rows that stay in cache: each is
// built three times, for the x86-64 baseline (SSE2: 2 doubles per instruction), AVX2 (4) and
// AVX-512 (8; MG class B 9 % faster than the AVX2 clone on the Intel Xeon VM, docs/apps.md), and
// the loader picks the clone the CPU runs (GNU ifunc). No FMA (kernels.cpp is compiled with
// -ffp-contract=off, as AVX-512F has FMA): the clones do the same operations in the same order
// per element, so their results are identical to the bit.
#if defined(__x86_64__) && defined(__has_attribute) && !defined(__SANITIZE_THREAD__)
#if __has_attribute(target_clones)
#define ARMADA_MG_ROW_CLONES [[gnu::target_clones("avx512f", "avx2", "default")]]
#endif
#endif
#ifndef ARMADA_MG_ROW_CLONES
#define ARMADA_MG_ROW_CLONES
#endif

namespace armada::mg {
namespace {

// Row temporaries of the stencils: the four y/z face neighbours and the four y/z diagonal
// neighbours of every x of row (k, j), so the 27-point sums become 1-D sums over x.
ARMADA_MG_ROW_CLONES void yz_sums(const Frame& f, Index k, Index j, Index i_lo, Index i_hi, double* __restrict faces,
             double* __restrict diagonals) {
  const double* __restrict ym = f.row(k, j - 1);
  const double* __restrict yp = f.row(k, j + 1);
  const double* __restrict zm = f.row(k - 1, j);
  const double* __restrict zp = f.row(k + 1, j);
  const double* __restrict mm = f.row(k - 1, j - 1);
  const double* __restrict mp = f.row(k + 1, j - 1);
  const double* __restrict pm = f.row(k - 1, j + 1);
  const double* __restrict pp = f.row(k + 1, j + 1);
  for (Index i = i_lo; i < i_hi; ++i) {
    faces[i] = ym[i] + yp[i] + zm[i] + zp[i];
    diagonals[i] = mm[i] + mp[i] + pm[i] + pp[i];
  }
}

// The rolling form of yz_sums for consecutive rows j of one plane k. With z(j) = row(k-1, j) +
// row(k+1, j), row j's diagonal sum is z(j-1) + z(j+1) and its face sum row(k, j-1) + row(k, j+1)
// + z(j): each row then reads 4 rows of the frame instead of 8 (the z sums of the rows before
// stay in L1), which is most of what MG's stencils cost once a level's planes outgrow L2.
// Computes z(j+1) into z_next.
ARMADA_MG_ROW_CLONES void yz_sums_rolling(const Frame& f, Index k, Index j, Index nx, const double* __restrict z_prev,
                                          const double* __restrict z_cur, double* __restrict z_next,
                                          double* __restrict faces, double* __restrict diagonals) {
  const double* __restrict ym = f.row(k, j - 1);
  const double* __restrict yp = f.row(k, j + 1);
  const double* __restrict zm = f.row(k - 1, j + 1);
  const double* __restrict zp = f.row(k + 1, j + 1);
  for (Index i = 0; i < nx; ++i) {
    z_next[i] = zm[i] + zp[i];
    faces[i] = (ym[i] + yp[i]) + z_cur[i];
    diagonals[i] = z_prev[i] + z_next[i];
  }
}

ARMADA_MG_ROW_CLONES void z_pair_sum(const Frame& f, Index k, Index j, Index nx, double* __restrict z) {
  const double* __restrict zm = f.row(k - 1, j);
  const double* __restrict zp = f.row(k + 1, j);
  for (Index i = 0; i < nx; ++i) z[i] = zm[i] + zp[i];
}

// Calls row(k, j, faces, diagonals) for every interior row of `in`, with the y/z sums of that
// row over the whole x extent, ghosts included.
template <class Row>
void for_each_row_with_yz_sums(const Frame& in, Row&& row) {
  const Index nx = in.n[2] + 2;
  const auto len = static_cast<std::size_t>(nx);
  std::vector<double> buffer(5 * len);
  double* const faces = buffer.data();
  double* const diagonals = faces + len;
  for (Index k = 1; k <= in.n[0]; ++k) {
    double* z[3] = {diagonals + len, diagonals + 2 * len, diagonals + 3 * len};  // z(j-1), z(j), z(j+1)
    z_pair_sum(in, k, 0, nx, z[0]);
    z_pair_sum(in, k, 1, nx, z[1]);
    for (Index j = 1; j <= in.n[1]; ++j) {
      yz_sums_rolling(in, k, j, nx, z[0], z[1], z[2], faces, diagonals);
      row(k, j, faces, diagonals);
      std::rotate(z, z + 1, z + 3);
    }
  }
}

// r = v - A u on one row; v may be r (each element is read before it is written).
ARMADA_MG_ROW_CLONES void resid_row(const double* v, const double* __restrict u, const double* __restrict f, const double* __restrict d,
               double* r, Index nx, const Stencil& a) {
  for (Index i = 1; i <= nx; ++i)
    r[i] = v[i] - a[0] * u[i] - a[2] * (d[i] + f[i - 1] + f[i + 1]) - a[3] * (d[i - 1] + d[i + 1]);
}

// u = u + S r on one row.
ARMADA_MG_ROW_CLONES void psinv_row(const double* __restrict r, const double* __restrict f, const double* __restrict d,
               double* __restrict u, Index nx, const Stencil& c) {
  for (Index i = 1; i <= nx; ++i)
    u[i] = u[i] + c[0] * r[i] + c[1] * (r[i - 1] + r[i + 1] + f[i]) + c[2] * (d[i] + f[i - 1] + f[i + 1]);
}

}  // namespace

void resid(const Frame& u, const Frame& v, const Frame& r, const Stencil& a) {
  if (u.empty()) return;
  for_each_row_with_yz_sums(u, [&](Index k, Index j, const double* f, const double* d) {
    resid_row(v.row(k, j), u.row(k, j), f, d, r.row(k, j), u.n[2], a);
  });
}

void psinv(const Frame& r, const Frame& u, const Stencil& c) {
  if (r.empty()) return;
  for_each_row_with_yz_sums(r, [&](Index k, Index j, const double* f, const double* d) {
    psinv_row(r.row(k, j), f, d, u.row(k, j), r.n[2], c);
  });
}

namespace {

// One coarse row of the restriction: coarse i takes fine 2i and its neighbours (x1, y1: the
// fine row's y/z face and diagonal sums).
ARMADA_MG_ROW_CLONES void rprj3_row(const double* __restrict r, const double* __restrict x1, const double* __restrict y1,
               double* __restrict s, Index mx) {
  for (Index i = 1; i <= mx; ++i) {
    const Index f = 2 * i;
    s[i] = 0.5 * r[f] + 0.25 * (r[f - 1] + r[f + 1] + x1[f]) + 0.125 * (x1[f - 1] + x1[f + 1] + y1[f]) +
           0.0625 * (y1[f - 1] + y1[f + 1]);
  }
}

}  // namespace

void rprj3(const Frame& r, const Frame& s) {
  if (s.empty()) return;
  const Index mx = s.n[2];
  std::vector<double> x1(static_cast<std::size_t>(2 * mx + 2)), y1(x1.size());
  for (Index k = 1; k <= s.n[0]; ++k)
    for (Index j = 1; j <= s.n[1]; ++j) {
      // Fine frame coordinate of coarse (k, j, i) is (2k, 2j, 2i).
      yz_sums(r, 2 * k, 2 * j, 1, 2 * mx + 2, x1.data(), y1.data());
      rprj3_row(r.row(2 * k, 2 * j), x1.data(), y1.data(), s.row(k, j), mx);
    }
}

namespace {

// The four fine rows fed by one coarse row (and its neighbours in y and z). Parameters, not
// locals, carry __restrict: GCC trusts it only there, and the loops then vectorize without
// run-time alias checks.
ARMADA_MG_ROW_CLONES void interp_rows(const double* __restrict c00, const double* __restrict cy, const double* __restrict cz,
                 const double* __restrict cyz, double* __restrict z1, double* __restrict z2, double* __restrict z3,
                 double* __restrict u00, double* __restrict uy, double* __restrict uz, double* __restrict uyz, Index mx) {
  for (Index i = 0; i < mx + 2; ++i) {
    z1[i] = cy[i] + c00[i];
    z2[i] = cz[i] + c00[i];
    z3[i] = cyz[i] + cz[i] + z1[i];
  }
  for (Index i = 0; i < mx + 1; ++i) {
    u00[2 * i] += c00[i];
    u00[2 * i + 1] += 0.5 * (c00[i + 1] + c00[i]);
    uy[2 * i] += 0.5 * z1[i];
    uy[2 * i + 1] += 0.25 * (z1[i] + z1[i + 1]);
    uz[2 * i] += 0.5 * z2[i];
    uz[2 * i + 1] += 0.25 * (z2[i] + z2[i + 1]);
    uyz[2 * i] += 0.25 * z3[i];
    uyz[2 * i + 1] += 0.125 * (z3[i] + z3[i + 1]);
  }
}

}  // namespace

void interp(const Frame& z, const Frame& u) {
  if (u.empty()) return;
  const Index mx = z.n[2];
  std::vector<double> z1(static_cast<std::size_t>(mx + 2)), z2(z1.size()), z3(z1.size());
  // Coarse (k, j, i), ghosts 0 included, feeds fine (2k..2k+1, 2j..2j+1, 2i..2i+1).
  for (Index k = 0; k <= z.n[0]; ++k)
    for (Index j = 0; j <= z.n[1]; ++j)
      interp_rows(z.row(k, j), z.row(k, j + 1), z.row(k + 1, j), z.row(k + 1, j + 1), z1.data(), z2.data(), z3.data(),
                  u.row(2 * k, 2 * j), u.row(2 * k, 2 * j + 1), u.row(2 * k + 1, 2 * j), u.row(2 * k + 1, 2 * j + 1), mx);
}

void zero(const Frame& f) {
  if (f.empty()) return;
  for (Index k = 0; k <= f.n[0] + 1; ++k)
    for (Index j = 0; j <= f.n[1] + 1; ++j) std::fill_n(f.row(k, j), f.n[2] + 2, 0.0);
}

NormParts norm_parts(const Frame& r) {
  NormParts p;
  if (r.empty()) return p;
  for (Index k = 1; k <= r.n[0]; ++k)
    for (Index j = 1; j <= r.n[1]; ++j) {
      const double* __restrict rc = r.row(k, j);
      double s = 0, m = 0;
      for (Index i = 1; i <= r.n[2]; ++i) {
        s += rc[i] * rc[i];
        m = std::max(m, std::fabs(rc[i]));
      }
      p.sum_squares += s;
      p.max_abs = std::max(p.max_abs, m);
    }
  return p;
}

void copy_box(const Frame& f, Dim3<Index> src, Dim3<Index> dst, Dim3<Index> extent) {
  for (Index k = 0; k < extent[0]; ++k)
    for (Index j = 0; j < extent[1]; ++j) {
      const double* from = &f.at(src[0] + k, src[1] + j, src[2]);
      double* to = &f.at(dst[0] + k, dst[1] + j, dst[2]);
      if (extent[2] == 1) *to = *from;  // x faces and edges: one element per row
      else std::memcpy(to, from, static_cast<std::size_t>(extent[2]) * sizeof(double));
    }
}

}  // namespace armada::mg
