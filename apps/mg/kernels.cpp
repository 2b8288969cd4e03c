#include "kernels.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace armada::mg {
namespace {

// Row temporaries of the stencils: the four y/z face neighbours and the four y/z diagonal
// neighbours of every x of row (k, j), so the 27-point sums become 1-D sums over x.
void yz_sums(const Frame& f, Index k, Index j, Index i_lo, Index i_hi, double* __restrict faces,
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

}  // namespace

void resid(const Frame& u, const Frame& v, const Frame& r, const Stencil& a) {
  if (u.empty()) return;
  const Index nx = u.n[2];
  std::vector<double> u1(static_cast<std::size_t>(nx + 2)), u2(u1.size());
  double* __restrict f = u1.data();
  double* __restrict d = u2.data();
  for (Index k = 1; k <= u.n[0]; ++k)
    for (Index j = 1; j <= u.n[1]; ++j) {
      yz_sums(u, k, j, 0, nx + 2, f, d);
      const double* __restrict uc = u.row(k, j);
      const double* vc = v.row(k, j);  // may be r's row: same element read, then written
      double* rc = r.row(k, j);
      for (Index i = 1; i <= nx; ++i)
        rc[i] = vc[i] - a[0] * uc[i] - a[2] * (d[i] + f[i - 1] + f[i + 1]) - a[3] * (d[i - 1] + d[i + 1]);
    }
}

void psinv(const Frame& r, const Frame& u, const Stencil& c) {
  if (r.empty()) return;
  const Index nx = r.n[2];
  std::vector<double> r1(static_cast<std::size_t>(nx + 2)), r2(r1.size());
  double* __restrict f = r1.data();
  double* __restrict d = r2.data();
  for (Index k = 1; k <= r.n[0]; ++k)
    for (Index j = 1; j <= r.n[1]; ++j) {
      yz_sums(r, k, j, 0, nx + 2, f, d);
      const double* __restrict rc = r.row(k, j);
      double* __restrict uc = u.row(k, j);
      for (Index i = 1; i <= nx; ++i)
        uc[i] = uc[i] + c[0] * rc[i] + c[1] * (rc[i - 1] + rc[i + 1] + f[i]) + c[2] * (d[i] + f[i - 1] + f[i + 1]);
    }
}

void rprj3(const Frame& r, const Frame& s) {
  if (s.empty()) return;
  const Index mx = s.n[2];
  std::vector<double> x1v(static_cast<std::size_t>(2 * mx + 2)), y1v(x1v.size());
  double* __restrict x1 = x1v.data();
  double* __restrict y1 = y1v.data();
  for (Index k = 1; k <= s.n[0]; ++k)
    for (Index j = 1; j <= s.n[1]; ++j) {
      // Fine frame coordinate of coarse (k, j, i) is (2k, 2j, 2i).
      yz_sums(r, 2 * k, 2 * j, 1, 2 * mx + 2, x1, y1);
      const double* __restrict rc = r.row(2 * k, 2 * j);
      double* __restrict sc = s.row(k, j);
      for (Index i = 1; i <= mx; ++i) {
        const Index f = 2 * i;
        sc[i] = 0.5 * rc[f] + 0.25 * (rc[f - 1] + rc[f + 1] + x1[f]) + 0.125 * (x1[f - 1] + x1[f + 1] + y1[f]) +
                0.0625 * (y1[f - 1] + y1[f + 1]);
      }
    }
}

namespace {

// The four fine rows fed by one coarse row (and its neighbours in y and z). Parameters, not
// locals, carry __restrict: GCC trusts it only there, and the loops then vectorize without
// run-time alias checks.
void interp_rows(const double* __restrict c00, const double* __restrict cy, const double* __restrict cz,
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
    for (Index j = 0; j < extent[1]; ++j)
      std::memcpy(&f.at(dst[0] + k, dst[1] + j, dst[2]), &f.at(src[0] + k, src[1] + j, src[2]),
                  static_cast<std::size_t>(extent[2]) * sizeof(double));
}

}  // namespace armada::mg
