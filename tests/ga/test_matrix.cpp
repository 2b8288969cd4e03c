// GA's C API on Armada: matrix-vector operations (diagonal, row and column scaling, norms,
// randomize), dot products and matrix products of every element type, the gops of other types,
// group and node inquiries, the process grid, and printing a patch. Each result against a value
// computed here by a serial loop or a formula (GA's documented semantics).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "ga.h"
#include "ga_test_util.hpp"

namespace {

using ga_test::name;
using ga_test::put_vector;
using ga_test::put_whole;
using ga_test::whole;
using ga_test::whole_vector;
using zcomplex = std::complex<double>;
using ccomplex = std::complex<float>;

double fa(int i, int j) { return 1.0 + i - 0.5 * j; }

TEST(GaDiagonal, GetSetAddShiftZero) {
  const int m = 7, n = 5;
  int dims[2] = {m, n}, vdims[1] = {n};
  const int g = NGA_Create(C_DBL, 2, dims, name("diag"), nullptr);
  const int v = NGA_Create(C_DBL, 1, vdims, name("v"), nullptr);
  put_whole(g, m, n, fa);
  GA_Get_diag(g, v);
  const std::vector<double> d = whole_vector<double>(v, n);
  for (int i = 0; i < n; ++i) EXPECT_EQ(d[i], fa(i, i)) << i;
  std::vector<double> w(n);
  for (int i = 0; i < n; ++i) w[i] = 100.0 + i;
  put_vector(v, w);
  GA_Set_diagonal(g, v);
  GA_Add_diagonal(g, v);
  double c = 0.25;
  GA_Shift_diagonal(g, &c);
  std::vector<double> got = whole(g, m, n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) EXPECT_EQ(got[i * n + j], i == j ? 2 * w[i] + c : fa(i, j)) << i << "," << j;
  GA_Zero_diagonal(g);
  got = whole(g, m, n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) EXPECT_EQ(got[i * n + j], i == j ? 0.0 : fa(i, j)) << i << "," << j;
  // Other element types: an int matrix wider than tall.
  int idims[2] = {3, 6}, ivdims[1] = {3};
  const int gi = NGA_Create(C_INT, 2, idims, name("idiag"), nullptr);
  const int vi = NGA_Create(C_INT, 1, ivdims, name("iv"), nullptr);
  int five = 5, two = 2;
  GA_Fill(gi, &five);
  GA_Shift_diagonal(gi, &two);
  GA_Get_diag(gi, vi);
  for (int x : whole_vector<int>(vi, 3)) EXPECT_EQ(x, 7);
  EXPECT_EQ(GA_Idot(gi, gi), 25 * 15 + 49 * 3);
  for (int x : {g, v, gi, vi}) GA_Destroy(x);
}

TEST(GaScale, RowsAndColumns) {
  const int m = 6, n = 4;
  int dims[2] = {m, n}, rdims[1] = {m}, cdims[1] = {n};
  const int g = NGA_Create(C_DBL, 2, dims, name("scaled"), nullptr);
  const int r = NGA_Create(C_DBL, 1, rdims, name("rows"), nullptr);
  const int c = NGA_Create(C_DBL, 1, cdims, name("cols"), nullptr);
  put_whole(g, m, n, fa);
  std::vector<double> rv(m), cv(n);
  for (int i = 0; i < m; ++i) rv[i] = i + 1;
  for (int j = 0; j < n; ++j) cv[j] = 0.5 * (j + 1);
  put_vector(r, rv);
  put_vector(c, cv);
  GA_Scale_rows(g, r);
  std::vector<double> got = whole(g, m, n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) EXPECT_EQ(got[i * n + j], fa(i, j) * rv[i]) << i << "," << j;
  GA_Scale_cols(g, c);
  got = whole(g, m, n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) EXPECT_EQ(got[i * n + j], fa(i, j) * rv[i] * cv[j]) << i << "," << j;
  for (int x : {g, r, c}) GA_Destroy(x);
}

TEST(GaNorms, OneAndInfinityOfMatricesAndVectors) {
  const int m = 5, n = 8;
  int dims[2] = {m, n}, vdims[1] = {n};
  const int g = NGA_Create(C_DBL, 2, dims, name("normed"), nullptr);
  put_whole(g, m, n, fa);
  double col = 0, row = 0;
  for (int j = 0; j < n; ++j) {
    double s = 0;
    for (int i = 0; i < m; ++i) s += std::fabs(fa(i, j));
    col = std::max(col, s);
  }
  for (int i = 0; i < m; ++i) {
    double s = 0;
    for (int j = 0; j < n; ++j) s += std::fabs(fa(i, j));
    row = std::max(row, s);
  }
  double nm = -1;
  GA_Norm1(g, &nm);
  EXPECT_DOUBLE_EQ(nm, col);
  GA_Norm_infinity(g, &nm);
  EXPECT_DOUBLE_EQ(nm, row);
  const int v = NGA_Create(C_DBL, 1, vdims, name("nv"), nullptr);
  std::vector<double> x(n);
  for (int j = 0; j < n; ++j) x[j] = j % 2 ? -j : j;  // |x| = j
  put_vector(v, x);
  GA_Norm1(v, &nm);
  EXPECT_DOUBLE_EQ(nm, n * (n - 1) / 2.0);
  GA_Norm_infinity(v, &nm);
  EXPECT_DOUBLE_EQ(nm, n - 1.0);
  GA_Destroy(g);
  GA_Destroy(v);
}

TEST(GaRandomize, ValuesInRange) {
  int dims[2] = {12, 9};
  const int g = NGA_Create(C_DBL, 2, dims, name("random"), nullptr);
  const int gi = NGA_Create(C_INT, 2, dims, name("irandom"), nullptr);
  double three = 3;
  int hundred = 100;
  GA_Randomize(g, &three);
  NGA_Randomize(gi, &hundred);
  const std::vector<double> d = whole(g, 12, 9);
  for (double x : d) {
    EXPECT_GE(x, 0.0);
    EXPECT_LE(x, 3.0);
  }
  EXPECT_GT(*std::max_element(d.begin(), d.end()), *std::min_element(d.begin(), d.end()));
  std::vector<int> iv(12 * 9);
  int lo[2] = {0, 0}, hi[2] = {11, 8}, ld[1] = {9};
  NGA_Get(gi, lo, hi, iv.data(), ld);
  for (int x : iv) {
    EXPECT_GE(x, 0);
    EXPECT_LE(x, 100);
  }
  EXPECT_GT(*std::max_element(iv.begin(), iv.end()), *std::min_element(iv.begin(), iv.end()));
  GA_Destroy(g);
  GA_Destroy(gi);
}

TEST(GaTypes, DotsOfEveryType) {
  const int n = 10;
  int dims[1] = {n};
  const int z = NGA_Create(C_DCPL, 1, dims, name("z"), nullptr);
  const int c = NGA_Create(C_SCPL, 1, dims, name("c"), nullptr);
  const int ll = NGA_Create(C_LONGLONG, 1, dims, name("ll"), nullptr);
  const int f = NGA_Create(C_FLOAT, 1, dims, name("f"), nullptr);
  std::vector<zcomplex> zv(n);
  std::vector<ccomplex> cv(n);
  std::vector<long long> lv(n);
  std::vector<float> fv(n);
  zcomplex zdot = 0;
  for (int i = 0; i < n; ++i) {
    zv[i] = zcomplex(i, 1 - i);
    cv[i] = ccomplex(0.5f * i, 1);
    lv[i] = i == 3 ? 3000000000LL : i;  // one beyond int; its square fits, as the sum of all (no overflow)
    fv[i] = 0.5f * i;
    zdot += zv[i] * zv[i];  // GA: no conjugation
  }
  put_vector(z, zv);
  put_vector(c, cv);
  put_vector(ll, lv);
  put_vector(f, fv);
  const DoubleComplex zd = GA_Zdot(z, z);
  EXPECT_DOUBLE_EQ(zd.real, zdot.real());
  EXPECT_DOUBLE_EQ(zd.imag, zdot.imag());
  const SingleComplex cd = GA_Cdot(c, c);  // sum (0.25 i^2 - 1) + i * sum i
  EXPECT_FLOAT_EQ(cd.real, 0.25f * 285 - n);
  EXPECT_FLOAT_EQ(cd.imag, 45.0f);
  long long expect = 0;
  for (long long x : lv) expect += x * x;
  EXPECT_EQ(GA_Lldot(ll, ll), expect);
  // Patches: [2, 5] of one against [6, 9] of the other; 1-D transposes are the identity.
  int alo[1] = {2}, ahi[1] = {5}, blo[1] = {6}, bhi[1] = {9};
  zcomplex zp = 0;
  long long lp = 0;
  float fp = 0;
  for (int k = 0; k < 4; ++k) {
    zp += zv[2 + k] * zv[6 + k];
    lp += lv[2 + k] * lv[6 + k];
    fp += fv[2 + k] * fv[6 + k];
  }
  const DoubleComplex zpd = NGA_Zdot_patch(z, 'N', alo, ahi, z, 'T', blo, bhi);
  EXPECT_DOUBLE_EQ(zpd.real, zp.real());
  EXPECT_DOUBLE_EQ(zpd.imag, zp.imag());
  EXPECT_EQ(NGA_Lldot_patch(ll, 'N', alo, ahi, ll, 'N', blo, bhi), lp);
  EXPECT_EQ(NGA_Ldot_patch(ll, 'N', alo, ahi, ll, 'N', blo, bhi), lp);
  EXPECT_FLOAT_EQ(NGA_Fdot_patch(f, 'N', alo, ahi, f, 'N', blo, bhi), fp);
  int64_t alo64[1] = {2}, ahi64[1] = {5}, blo64[1] = {6}, bhi64[1] = {9};
  EXPECT_EQ(NGA_Lldot_patch64(ll, 'N', alo64, ahi64, ll, 'N', blo64, bhi64), lp);
  EXPECT_FLOAT_EQ(NGA_Fdot_patch64(f, 'N', alo64, ahi64, f, 'N', blo64, bhi64), fp);
  const SingleComplex cp = NGA_Cdot_patch(c, 'N', alo, ahi, c, 'N', blo, bhi);
  const SingleComplex cp64 = NGA_Cdot_patch64(c, 'N', alo64, ahi64, c, 'N', blo64, bhi64);
  const DoubleComplex zp64 = NGA_Zdot_patch64(z, 'N', alo64, ahi64, z, 'N', blo64, bhi64);
  ccomplex cexp = 0;
  for (int k = 0; k < 4; ++k) cexp += cv[2 + k] * cv[6 + k];
  EXPECT_FLOAT_EQ(cp.real, cexp.real());
  EXPECT_FLOAT_EQ(cp.imag, cexp.imag());
  EXPECT_EQ(cp64.real, cp.real);
  EXPECT_DOUBLE_EQ(zp64.imag, zp.imag());
  for (int x : {z, c, ll, f}) GA_Destroy(x);
}

TEST(GaTypes, IntegerPatchDotsWithTranspose) {
  // A 3 x 4 int patch against the transpose of a 4 x 3 patch: sum a(i,j) b(j,i).
  int dims[2] = {5, 5};
  const int a = NGA_Create(C_INT, 2, dims, name("ia"), nullptr);
  std::vector<int> v(25);
  for (int k = 0; k < 25; ++k) v[k] = k - 7;
  GA_Sync();
  int lo[2] = {0, 0}, hi[2] = {4, 4}, ld[1] = {5};
  if (GA_Nodeid() == 0) NGA_Put(a, lo, hi, v.data(), ld);
  GA_Sync();
  int alo[2] = {1, 0}, ahi[2] = {3, 3}, blo[2] = {0, 2}, bhi[2] = {3, 4};
  int expect = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) expect += v[(1 + i) * 5 + j] * v[j * 5 + 2 + i];
  EXPECT_EQ(NGA_Idot_patch(a, 'N', alo, ahi, a, 'T', blo, bhi), expect);
  int64_t alo64[2] = {1, 0}, ahi64[2] = {3, 3}, blo64[2] = {0, 2}, bhi64[2] = {3, 4};
  EXPECT_EQ(NGA_Idot_patch64(a, 'N', alo64, ahi64, a, 'T', blo64, bhi64), expect);
  const int l = NGA_Create(C_LONG, 2, dims, name("la"), nullptr);
  std::vector<long> lv(v.begin(), v.end());
  GA_Sync();
  if (GA_Nodeid() == 0) NGA_Put(l, lo, hi, lv.data(), ld);
  GA_Sync();
  EXPECT_EQ(NGA_Ldot_patch64(l, 'T', blo64, bhi64, l, 'N', alo64, ahi64), expect);
  GA_Destroy(a);
  GA_Destroy(l);
}

/// C = alpha op(A) op(B) + beta C for m x k, k x n row-major matrices, as a serial loop.
template <class T>
std::vector<T> serial_gemm(char ta, const std::vector<T>& a, const std::vector<T>& b, const std::vector<T>& c, T alpha,
                           T beta, int m, int n, int k) {
  std::vector<T> r(c);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      T s = 0;
      for (int p = 0; p < k; ++p) {
        T x = a[i * k + p];
        if (ta == 'T' || ta == 'C') x = a[p * m + i];
        if constexpr (!std::is_floating_point_v<T>)
          if (ta == 'C') x = std::conj(x);
        s += x * b[p * n + j];
      }
      r[i * n + j] = alpha * s + beta * c[i * n + j];
    }
  return r;
}

/// Puts the whole row-major rows x cols matrix v into 2-D array g from process 0.
template <class T>
void put_matrix(int g, const std::vector<T>& v, int rows, int cols) {
  GA_Sync();
  int lo[2] = {0, 0}, hi[2] = {rows - 1, cols - 1}, ld[1] = {cols};
  if (GA_Nodeid() == 0) NGA_Put(g, lo, hi, const_cast<T*>(v.data()), ld);
  GA_Sync();
}

template <class T>
std::vector<T> get_matrix(int g, int rows, int cols) {
  std::vector<T> v(static_cast<size_t>(rows) * cols);
  int lo[2] = {0, 0}, hi[2] = {rows - 1, cols - 1}, ld[1] = {cols};
  NGA_Get(g, lo, hi, v.data(), ld);
  return v;
}

/// Creates A (k x m), B (k x n) and C (m x n) of GA type `type` holding a, b, c, runs `gemm`
/// on their handles and returns C.
template <class T, class Gemm>
std::vector<T> gemm_result(int type, const std::vector<T>& a, const std::vector<T>& b, const std::vector<T>& c, int m,
                           int n, int k, Gemm&& gemm) {
  int adims[2] = {k, m}, bdims[2] = {k, n}, cdims[2] = {m, n};
  const int ga = NGA_Create(type, 2, adims, name("a"), nullptr);
  const int gb = NGA_Create(type, 2, bdims, name("b"), nullptr);
  const int gc = NGA_Create(type, 2, cdims, name("c"), nullptr);
  put_matrix(ga, a, k, m);
  put_matrix(gb, b, k, n);
  put_matrix(gc, c, m, n);
  gemm(ga, gb, gc);
  const std::vector<T> r = get_matrix<T>(gc, m, n);
  for (int x : {ga, gb, gc}) GA_Destroy(x);
  return r;
}

TEST(GaTypes, GemmOfEveryType) {
  const int m = 5, n = 3, k = 4;  // A is stored k x m: op 'T' or 'C' makes it m x k
  std::vector<zcomplex> za(k * m), zb(k * n), zc(m * n);
  for (int i = 0; i < k * m; ++i) za[i] = zcomplex(0.5 * i, 1.0 - 0.25 * i);
  for (int i = 0; i < k * n; ++i) zb[i] = zcomplex(1.0 + i, -0.5 * i);
  for (int i = 0; i < m * n; ++i) zc[i] = zcomplex(i, i);
  const DoubleComplex alpha{1.5, -0.5}, beta{0.5, 0.0};
  const std::vector<zcomplex> zgot = gemm_result(C_DCPL, za, zb, zc, m, n, k, [&](int a, int b, int c) {
    GA_Zgemm('C', 'N', m, n, k, alpha, a, b, beta, c);
  });
  const std::vector<zcomplex> zr =
      serial_gemm('C', za, zb, zc, zcomplex(alpha.real, alpha.imag), zcomplex(beta.real, beta.imag), m, n, k);
  for (int i = 0; i < m * n; ++i) EXPECT_LT(std::abs(zgot[i] - zr[i]), 1e-12) << i;
  // float and complex<float>, 'T', and the 64-bit forms.
  std::vector<float> fa_(k * m), fb(k * n), fc(m * n, 1.0f);
  for (int i = 0; i < k * m; ++i) fa_[i] = 0.25f * i;
  for (int i = 0; i < k * n; ++i) fb[i] = 1.0f - 0.5f * i;
  const std::vector<float> fgot = gemm_result(C_FLOAT, fa_, fb, fc, m, n, k, [&](int a, int b, int c) {
    GA_Sgemm64('T', 'N', m, n, k, 2.0f, a, b, -1.0f, c);
  });
  const std::vector<float> fr = serial_gemm('T', fa_, fb, fc, 2.0f, -1.0f, m, n, k);
  const std::vector<float> f32 = gemm_result(C_FLOAT, fa_, fb, fc, m, n, k, [&](int a, int b, int c) {
    GA_Sgemm('T', 'N', m, n, k, 2.0f, a, b, -1.0f, c);
  });
  for (int i = 0; i < m * n; ++i) {
    EXPECT_NEAR(fgot[i], fr[i], 1e-4f) << i;
    EXPECT_EQ(f32[i], fgot[i]) << i;
  }
  std::vector<ccomplex> ca(k * m), cb(k * n), cc(m * n, ccomplex(0, 0));
  for (int i = 0; i < k * m; ++i) ca[i] = ccomplex(0.5f * i, 1);
  for (int i = 0; i < k * n; ++i) cb[i] = ccomplex(1, -0.25f * i);
  const std::vector<ccomplex> cgot = gemm_result(C_SCPL, ca, cb, cc, m, n, k, [&](int a, int b, int c) {
    GA_Cgemm('T', 'N', m, n, k, SingleComplex{1, 0}, a, b, SingleComplex{0, 0}, c);
  });
  const std::vector<ccomplex> cr = serial_gemm('T', ca, cb, cc, ccomplex(1, 0), ccomplex(0, 0), m, n, k);
  const std::vector<ccomplex> c64 = gemm_result(C_SCPL, ca, cb, cc, m, n, k, [&](int a, int b, int c) {
    GA_Cgemm64('T', 'N', m, n, k, SingleComplex{1, 0}, a, b, SingleComplex{0, 0}, c);
  });
  for (int i = 0; i < m * n; ++i) {
    EXPECT_LT(std::abs(cgot[i] - cr[i]), 1e-4f) << i;
    EXPECT_EQ(c64[i], cgot[i]) << i;
  }
  const std::vector<zcomplex> z64 = gemm_result(C_DCPL, za, zb, zc, m, n, k, [&](int a, int b, int c) {
    GA_Zgemm64('T', 'N', m, n, k, alpha, a, b, beta, c);
  });
  const std::vector<zcomplex> zr64 =
      serial_gemm('T', za, zb, zc, zcomplex(alpha.real, alpha.imag), zcomplex(beta.real, beta.imag), m, n, k);
  for (int i = 0; i < m * n; ++i) EXPECT_LT(std::abs(z64[i] - zr64[i]), 1e-12) << i;
}

TEST(GaGops, OtherTypesAndGroups) {
  const int me = GA_Nodeid(), np = GA_Nnodes();
  long long ll[2] = {3000000000LL + me, me};
  GA_Llgop(ll, 2, name("+"));
  EXPECT_EQ(ll[0], 3000000000LL * np + np * (np - 1) / 2);
  EXPECT_EQ(ll[1], np * (np - 1) / 2);
  DoubleComplex z[1] = {{1.0 + me, -2.0 * me}};
  GA_Zgop(z, 1, name("+"));
  EXPECT_EQ(z[0].real, np + np * (np - 1) / 2.0);
  EXPECT_EQ(z[0].imag, -1.0 * np * (np - 1));
  SingleComplex c[1] = {{static_cast<float>(me), static_cast<float>(-me)}};
  GA_Cgop(c, 1, name("max"));  // each part on its own, as GA
  EXPECT_EQ(c[0].real, np - 1.0f);
  EXPECT_EQ(c[0].imag, 0.0f);
  int i[1] = {me + 1};
  GA_Gop(C_INT, i, 1, name("*"));
  int fact = 1;
  for (int p = 1; p <= np; ++p) fact *= p;
  EXPECT_EQ(i[0], fact);
  double d[2] = {0.5, -1.0 * me};
  GA_Gop(C_DCPL, d, 1, name("min"));
  EXPECT_EQ(d[0], 0.5);
  EXPECT_EQ(d[1], -(np - 1.0));
  const int world = GA_Pgroup_get_world();
  long long x = 1;
  GA_Pgroup_llgop(world, &x, 1, name("+"));
  EXPECT_EQ(x, np);
  NGA_Pgroup_llgop(world, &x, 1, name("+"));
  EXPECT_EQ(x, 1LL * np * np);
  SingleComplex cs[1] = {{1, 2}};
  GA_Pgroup_cgop(world, cs, 1, name("+"));
  EXPECT_EQ(cs[0].imag, 2.0f * np);
  DoubleComplex zs[1] = {{1, 2}};
  GA_Pgroup_zgop(world, zs, 1, name("+"));
  NGA_Pgroup_zgop(world, zs, 1, name("+"));
  EXPECT_EQ(zs[0].real, 1.0 * np * np);
  EXPECT_EQ(zs[0].imag, 2.0 * np * np);
}

TEST(GaGroups, AbsoluteIdDuplicateSplitIrreg) {
  const int me = GA_Nodeid(), np = GA_Nnodes();
  const int world = GA_Pgroup_get_world();
  for (int p = 0; p < np; ++p) EXPECT_EQ(GA_Pgroup_absolute_id(world, p), p);
  const int color = me % 2;
  const int split = GA_Pgroup_split_irreg(world, color);
  const int size = color == 0 ? (np + 1) / 2 : np / 2;
  EXPECT_EQ(GA_Pgroup_nnodes(split), size);
  EXPECT_EQ(GA_Pgroup_nodeid(split), me / 2);
  for (int k = 0; k < size; ++k) EXPECT_EQ(NGA_Pgroup_absolute_id(split, k), 2 * k + color);
  const int dup = GA_Pgroup_duplicate(split);
  EXPECT_NE(dup, split);
  EXPECT_EQ(GA_Pgroup_nnodes(dup), size);
  EXPECT_EQ(GA_Pgroup_nodeid(dup), me / 2);
  for (int k = 0; k < size; ++k) EXPECT_EQ(GA_Pgroup_absolute_id(dup, k), 2 * k + color);
  // An array on the duplicate: its processes only.
  int dims[1] = {6};
  const int g = NGA_Create_config(C_DBL, 1, dims, name("on dup"), nullptr, dup);
  double one = 1;
  GA_Fill(g, &one);
  EXPECT_EQ(GA_Ddot(g, g), 6.0);
  GA_Destroy(g);
  const int copy = NGA_Pgroup_duplicate(world);
  EXPECT_EQ(GA_Pgroup_nnodes(copy), np);
  const int halves = NGA_Pgroup_split_irreg(world, me < np / 2 ? 0 : 1);
  EXPECT_EQ(GA_Pgroup_nnodes(halves), me < np / 2 ? np / 2 : np - np / 2);
  for (int h : {dup, split, copy, halves}) EXPECT_EQ(GA_Pgroup_destroy(h), 1);
}

TEST(GaTopology, NodesListsAndProcessGrid) {
  const int me = GA_Nodeid(), np = GA_Nnodes();
  EXPECT_EQ(GA_Cluster_proc_nodeid(me), GA_Cluster_nodeid());
  for (int node = 0; node < GA_Cluster_nnodes(); ++node)
    for (int l = 0; l < GA_Cluster_nprocs(node); ++l) EXPECT_EQ(GA_Cluster_proc_nodeid(GA_Cluster_procid(node, l)), node);
  std::vector<int> list(np, -1), list2(np, -1);
  GA_List_nodeid(list.data(), np);
  NGA_List_nodeid(list2.data(), np);
  for (int p = 0; p < np; ++p) {
    EXPECT_EQ(list[p], p);
    EXPECT_EQ(list2[p], p);
  }
  // An irregular 2-D map of np x 1 blocks: process p has block (p, 0).
  std::vector<int> map;
  for (int b = 0; b < np; ++b) map.push_back(2 * b);
  map.push_back(0);
  int block[2] = {np, 1}, dims[2] = {2 * np, 3};
  const int g = NGA_Create_irreg(C_DBL, 2, dims, name("grid"), block, map.data());
  // GA_Get_proc_grid and NGA_Proc_topology give GA's tuples as GA's C API does: last C
  // dimension first (GA copies its Fortran-ordered tuple); GA_Get_proc_index in C order.
  int grid[2] = {0, 0};
  GA_Get_proc_grid(g, grid);
  EXPECT_EQ(grid[0], 1);
  EXPECT_EQ(grid[1], np);
  NGA_Get_proc_grid(g, grid);
  EXPECT_EQ(grid[1], np);
  for (int p = 0; p < np; ++p) {
    int at[2] = {-7, -7}, at2[2] = {-7, -7}, at3[2] = {-7, -7};
    NGA_Proc_topology(g, p, at);
    GA_Get_proc_index(g, p, at2);
    NGA_Get_proc_index(g, p, at3);
    EXPECT_EQ(at[0], 0);
    EXPECT_EQ(at[1], p);
    EXPECT_EQ(at2[0], p);
    EXPECT_EQ(at2[1], 0);
    EXPECT_EQ(at3[0], p);
    EXPECT_EQ(at3[1], 0);
  }
  int lo[2] = {0, 0}, hi[2] = {2 * np - 1, 2};
  EXPECT_EQ(NGA_Locate_nnodes(g, lo, hi), np);
  int64_t lo64[2] = {1, 0}, hi64[2] = {np > 1 ? 2 : 1, 2};  // rows 1 and 2: two owners
  EXPECT_EQ(NGA_Locate_nnodes64(g, lo64, hi64), np > 1 ? 2 : 1);
  std::vector<int64_t> map64(4 * np);
  std::vector<int> procs(np, -1);
  const int owners = NGA_Locate_region64(g, lo64, hi64, map64.data(), procs.data());
  ASSERT_EQ(owners, np > 1 ? 2 : 1);
  EXPECT_EQ(procs[0], 0);
  EXPECT_EQ(map64[0], 1);  // lo of the first owner's part, then its hi
  EXPECT_EQ(map64[2], 1);
  GA_Destroy(g);
  // A process that owns nothing has -1 coordinates.
  int one[1] = {1};
  const int tiny = NGA_Create(C_INT, 1, one, name("tiny"), nullptr);
  int at[1] = {-7};
  NGA_Proc_topology(tiny, np - 1, at);
  EXPECT_EQ(at[0], np > 1 ? -1 : 0);
  GA_Destroy(tiny);
}

TEST(GaSelect, SixtyFourBitIndexMatches) {
  int dims[2] = {6, 7};
  const int g = NGA_Create(C_DBL, 2, dims, name("sel"), nullptr);
  put_whole(g, 6, 7, [](int i, int j) { return std::sin(1.0 + 7 * i + j); });
  double v = 0, v64 = 0;
  int at[2];
  int64_t at64[2];
  NGA_Select_elem(g, name("min"), &v, at);
  NGA_Select_elem64(g, name("min"), &v64, at64);
  EXPECT_EQ(v, v64);
  EXPECT_EQ(at64[0], at[0]);
  EXPECT_EQ(at64[1], at[1]);
  double best = 2;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 7; ++j) best = std::min(best, std::sin(1.0 + 7 * i + j));
  EXPECT_EQ(v64, best);
  GA_Destroy(g);
}

TEST(GaPrint, PatchAndFile) {
  int dims[2] = {4, 5};
  const int g = NGA_Create(C_INT, 2, dims, name("printed"), nullptr);
  std::vector<int> v(20);
  std::iota(v.begin(), v.end(), 100);
  put_matrix(g, v, 4, 5);
  const std::string text = ga_test::capture_stdout([&] {
    GA_Print_patch(g, 1, 2, 2, 3, 1);
    int lo[2] = {3, 0}, hi[2] = {3, 4};
    NGA_Print_patch(g, lo, hi, 0);
    int64_t lo64[2] = {0, 4}, hi64[2] = {0, 4};
    NGA_Print_patch64(g, lo64, hi64, 0);
  });
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  GA_Print_file(file, g);
  std::rewind(file);
  std::string filed;
  for (int ch; (ch = std::fgetc(file)) != EOF;) filed += static_cast<char>(ch);
  std::fclose(file);
  if (GA_Nodeid() == 0) {
    // Rows 1..2, columns 2..3: 107 108 / 112 113; row 3: 115 .. 119; element (0, 4): 104.
    EXPECT_NE(text.find("(1, 2:4)      107      108"), std::string::npos) << text;
    EXPECT_NE(text.find("(2, 2:4)      112      113"), std::string::npos) << text;
    EXPECT_NE(text.find("(3, 0:5)      115      116      117      118      119"), std::string::npos) << text;
    EXPECT_NE(text.find("(0, 4:5)      104"), std::string::npos) << text;
    EXPECT_EQ(text.find("109"), std::string::npos) << text;
    EXPECT_NE(filed.find("printed"), std::string::npos) << filed;
    for (int x = 100; x < 120; ++x) EXPECT_NE(filed.find(std::to_string(x)), std::string::npos) << x;
  } else {
    EXPECT_EQ(text, "");
    EXPECT_EQ(filed, "");
  }
  GA_Destroy(g);
}

// GA_Symmetrize of an n-d array symmetrizes every matrix of its first two C dimensions (the
// Fortran view's last two, as GA extends its matrix calls): a[i][j][k...] = (a[i][j][k...] +
// a[j][i][k...]) / 2, in double (3-d and 4-d) and double complex (no conjugate, as GA's formula).
TEST(GaSymmetrize, StacksOfMatricesInTheirFirstTwoDimensions) {
  const auto value = [](std::int64_t i, std::int64_t j, std::int64_t k) { return 1.0 + 7.0 * i - 3.0 * j + 0.25 * k * i; };
  for (const std::vector<int>& shape : {std::vector<int>{5, 5, 3}, std::vector<int>{4, 4, 2, 3}}) {
    std::vector<int> dims = shape;
    const int ndim = static_cast<int>(dims.size());
    const int g = NGA_Create(C_DBL, ndim, dims.data(), name("stack"), nullptr);
    const int n = dims[0];
    int rest = 1;
    for (int d = 2; d < ndim; ++d) rest *= dims[d];
    std::vector<int> lo(ndim, 0), hi(dims);
    for (int& h : hi) --h;
    std::vector<int> ld(dims.begin() + 1, dims.end());
    std::vector<double> in(static_cast<size_t>(n) * n * rest);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        for (int k = 0; k < rest; ++k) in[(static_cast<size_t>(i) * n + j) * rest + k] = value(i, j, k);
    GA_Sync();
    if (GA_Nodeid() == 0) NGA_Put(g, lo.data(), hi.data(), in.data(), ld.data());
    GA_Sync();
    GA_Symmetrize(g);
    std::vector<double> out(in.size());
    NGA_Get(g, lo.data(), hi.data(), out.data(), ld.data());
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        for (int k = 0; k < rest; ++k)
          EXPECT_DOUBLE_EQ(out[(static_cast<size_t>(i) * n + j) * rest + k], (value(i, j, k) + value(j, i, k)) / 2)
              << ndim << "-d, at [" << i << "][" << j << "], matrix " << k;
    GA_Destroy(g);
  }
  int dims[3] = {3, 3, 2};
  const int z = NGA_Create(C_DCPL, 3, dims, name("complex stack"), nullptr);
  std::vector<zcomplex> in(18), out(18);
  for (int p = 0; p < 18; ++p) in[p] = zcomplex(p, p % 4 - 1.5);
  int lo[3] = {0, 0, 0}, hi[3] = {2, 2, 1}, ld[2] = {3, 2};
  GA_Sync();
  if (GA_Nodeid() == 0) NGA_Put(z, lo, hi, in.data(), ld);
  GA_Sync();
  GA_Symmetrize(z);
  NGA_Get(z, lo, hi, out.data(), ld);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 2; ++k)
        EXPECT_EQ(out[(i * 3 + j) * 2 + k], (in[(i * 3 + j) * 2 + k] + in[(j * 3 + i) * 2 + k]) * 0.5);
  GA_Destroy(z);
}

}  // namespace
