// GA's ScaLAPACK wrappers of its Fortran API (GA's scalapack.F) that NWChem calls when built
// with ScaLAPACK: the symmetric eigenproblem (ga_pdsyev, _x, _d, _r, ga_evp_real), the generalized
// one (ga_pdsygv), the Hermitian one on real and imaginary parts (ga_pzheevd, ga_pzheevr), the
// Cholesky factor and the inverse from it (ga_cholesky, ga_llt_i), and ga_lu_solve_seq. GA moves
// the matrices to ScaLAPACK's layout itself; here the C API and linalg do it. A Fortran matrix is
// its C view's transpose: a symmetric matrix is the same in both, eigenvectors (the C view's
// columns) become the program's columns by a transpose, and the program's upper triangle is the
// C view's lower one.
#include <algorithm>
#include <complex>
#include <cstring>
#include <string>
#include <vector>

#include "armada/linalg/linalg.hpp"
#include "binding.hpp"
#include "collective/owned.hpp"
#include "ga.h"

using namespace armada;
using namespace armada::ga;
using namespace armada::ga::fortran;

namespace {

/// Checks that g (argument `name`, the program's handle `value`) is a 2-d double precision
/// n x n matrix (n: g_a's order when given) and returns its order.
std::int64_t square(const char* fn, int g, const char* name, Int value, std::int64_t n = -1) {
  int ndim = 0;
  std::int64_t d[GA_MAX_DIM] = {};
  dims(fn, g, &ndim, d);
  const std::string v = std::to_string(value);
  if (ndim != 2) bad_argument(fn, name, v, "is " + std::to_string(ndim) + "-d; " + fn + " needs a square matrix");
  if (d[0] != d[1] || (n >= 0 && d[0] != n))
    bad_argument(fn, name, v,
                 "is " + std::to_string(d[0]) + " x " + std::to_string(d[1]) + "; " + fn + " needs " +
                     (n >= 0 ? std::to_string(n) + " x " + std::to_string(n) + " (g_a's order)" : "a square matrix"));
  const int type = ga_type(fn, g);
  if (type != C_DBL && type != MT_F_DBL) bad_argument(fn, name, v, "is not double precision; " + std::string(fn) + " needs one");
  return d[0];
}

/// A new array like g (its dims, type and group), under GA's memory limit.
int scratch(const char* fn, int g, const char* name) {
  char label[] = "ScaLAPACK wrapper work";
  const int t = GA_Duplicate(g, label);
  if (t == 0) bad_argument(fn, name, std::to_string(g), "has no room for a work copy under GA's memory limit");
  return t;
}

/// ScaLAPACK's block size as GA takes it: 0 for its default, else used as given (Armada's
/// solvers choose their own).
void check_block(const char* fn, Int nb) {
  if (nb < 0) bad_argument(fn, "nb", std::to_string(nb), "must be >= 0 (ScaLAPACK's block size, 0: the default)");
}

/// How many eigenpairs GA's pdsyevr and evp_real compute: mout in 1..n, else all n (GA writes
/// that back into mout).
std::int64_t wanted(Int* mout, std::int64_t n) {
  if (!mout) return n;
  const std::int64_t m = *mout > 0 && *mout <= n ? *mout : n;
  *mout = static_cast<Int>(m);
  return m;
}

/// Zeroes the program's columns m+1..n of the n x n v (C view: rows m..n-1), as GA leaves them
/// when only m eigenvectors were wanted.
void zero_columns_after(int v, std::int64_t m, std::int64_t n) {
  if (m >= n) return;
  std::int64_t lo[2] = {m, 0}, hi[2] = {n - 1, n - 1};
  NGA_Zero_patch64(v, lo, hi);
}

/// The symmetric eigenproblem A v = λ v: eigenvalues ascending into evals (the first m of them,
/// m from mout), eigenvectors the program's columns of g_v (the rest zero). g_v may be g_a.
void symmetric(const char* fn, Int g_a, Int g_v, double* evals, Int nb, Int* mout) {
  call(fn, [&] {
    const int a = handle(fn, g_a), v = handle(fn, g_v, "g_v");
    const std::int64_t n = square(fn, a, "g_a", g_a);
    square(fn, v, "g_v", g_v, n);
    check_block(fn, nb);
    if (!evals) bad_argument(fn, "evals", "NULL", "room for the eigenvalues is required");
    const std::int64_t m = wanted(mout, n);
    std::vector<double> values(static_cast<std::size_t>(n));
    const int in = a == v ? scratch(fn, a, "g_a") : a;
    if (in != a) GA_Copy(a, in);
    GA_Diag_std(in, v, values.data());
    if (in != a) GA_Destroy(in);
    eigenvectors_as_columns(fn, v);
    zero_columns_after(v, m, n);
    std::copy_n(values.begin(), m, evals);
  });
}

/// The real and imaginary parts (double matrices re, im) as one complex matrix z (Join), or
/// conj(z) into them (Split): every rank moves the elements of z it owns.
enum class Parts { Join, Split };
void parts(const char* fn, int z, int re, int im, Parts how) {
  update_owned(array(fn, z), [&](auto zero, const arrays::LocalView<void>& view) {
    using T = decltype(zero);
    if constexpr (std::is_same_v<T, std::complex<double>>) {
      const std::int64_t rows = view.hi[0] - view.lo[0], cols = view.hi[1] - view.lo[1];
      std::vector<double> r(static_cast<std::size_t>(rows * cols)), i(r.size());
      std::int64_t lo[2] = {view.lo[0], view.lo[1]}, hi[2] = {view.hi[0] - 1, view.hi[1] - 1}, ld[1] = {cols};
      if (how == Parts::Join) {
        NGA_Get64(re, lo, hi, r.data(), ld);
        NGA_Get64(im, lo, hi, i.data(), ld);
      }
      T* base = static_cast<T*>(view.data);
      for (std::int64_t p = 0; p < rows; ++p)
        for (std::int64_t q = 0; q < cols; ++q) {
          T& x = base[p * view.stride[0] + q * view.stride[1]];
          const std::size_t k = static_cast<std::size_t>(p * cols + q);
          if (how == Parts::Join) x = T(r[k], i[k]);
          else r[k] = x.real(), i[k] = -x.imag();  // Split gives the conjugate
        }
      if (how == Parts::Split) {
        NGA_Put64(re, lo, hi, r.data(), ld);
        NGA_Put64(im, lo, hi, i.data(), ld);
      }
    }
  });
  GA_Sync();
}

/// The Hermitian eigenproblem of GA's ga_pzheev*: A = g_a(1) + i g_a(2), eigenvectors into
/// g_v(1) + i g_v(2). The C view of A is conj(A) (its transpose), whose eigenvectors are the
/// conjugates: the program's columns are the conjugate transpose of the C view's.
void hermitian(const char* fn, const Int* g_a, const Int* g_v, double* evals, Int nb, Int* mout) {
  call(fn, [&] {
    const int re = handle(fn, g_a[0], "g_a(1)"), im = handle(fn, g_a[1], "g_a(2)");
    const int vre = handle(fn, g_v[0], "g_v(1)"), vim = handle(fn, g_v[1], "g_v(2)");
    const std::int64_t n = square(fn, re, "g_a(1)", g_a[0]);
    square(fn, im, "g_a(2)", g_a[1], n);
    square(fn, vre, "g_v(1)", g_v[0], n);
    square(fn, vim, "g_v(2)", g_v[1], n);
    check_block(fn, nb);
    if (!evals) bad_argument(fn, "evals", "NULL", "room for the eigenvalues is required");
    const std::int64_t m = wanted(mout, n);
    std::int64_t d[2] = {n, n};
    char label[] = "ga_pzheev work";
    const int z = NGA_Create_config64(C_DCPL, 2, d, label, nullptr, GA_Get_pgroup(re));
    const int w = z ? NGA_Create_config64(C_DCPL, 2, d, label, nullptr, GA_Get_pgroup(re)) : 0;
    if (w == 0) bad_argument(fn, "g_a(1)", std::to_string(g_a[0]), "has no room for complex work copies under GA's memory limit");
    parts(fn, z, re, im, Parts::Join);
    std::vector<double> values(static_cast<std::size_t>(n));
    GA_Diag_std(z, w, values.data());
    GA_Transpose(w, z);
    parts(fn, z, vre, vim, Parts::Split);
    GA_Destroy(w);
    GA_Destroy(z);
    zero_columns_after(vre, m, n);
    zero_columns_after(vim, m, n);
    std::copy_n(values.begin(), m, evals);
  });
}

/// ga_cholesky's and ga_llt_i's uplo: 'U' or 'L' (either case), the program's triangle. Only
/// the first character is read: NWChem passes ga_cholesky a third argument GA's ga_cholesky
/// does not have, which takes the place of the hidden length.
char triangle(const char* fn, const char* uplo) {
  const char c = uplo ? uplo[0] : '\0';
  if (c != 'U' && c != 'u' && c != 'L' && c != 'l')
    bad_argument(fn, "uplo", std::string("'") + c + "'", "must be 'U' or 'L' (the triangle of the factor)");
  return c == 'u' ? 'U' : c == 'l' ? 'L' : c;
}

/// Zeroes the strict upper (C view) triangle of the square matrix g, or its strict lower one.
void zero_triangle(const char* fn, int g, bool upper) {
  update_owned(array(fn, g), [&](auto zero, const arrays::LocalView<void>& view) {
    using T = decltype(zero);
    T* base = static_cast<T*>(view.data);
    for (Index i = view.lo[0]; i < view.hi[0]; ++i)
      for (Index j = view.lo[1]; j < view.hi[1]; ++j)
        if (upper ? j > i : j < i) base[(i - view.lo[0]) * view.stride[0] + (j - view.lo[1]) * view.stride[1]] = T(0);
  });
}

}  // namespace

extern "C" {

void ga_pdsyev_(const Int* g_a, const Int* g_v, double* evals, const Int* nb) {
  symmetric("ga_pdsyev", *g_a, *g_v, evals, *nb, nullptr);
}
void ga_pdsyevx_(const Int* g_a, const Int* g_v, double* evals, const Int* nb) {
  symmetric("ga_pdsyevx", *g_a, *g_v, evals, *nb, nullptr);
}
void ga_pdsyevd_(const Int* g_a, const Int* g_v, double* evals, const Int* nb) {
  symmetric("ga_pdsyevd", *g_a, *g_v, evals, *nb, nullptr);
}
void ga_pdsyevr_(const Int* g_a, const Int* g_v, double* evals, const Int* nb, Int* mout) {
  symmetric("ga_pdsyevr", *g_a, *g_v, evals, *nb, mout);
}
// GA's ELPA route: the same results from the same solver.
void ga_evp_real_(const Int* g_a, const Int* g_v, double* evals, const Int* nb, Int* mout) {
  symmetric("ga_evp_real", *g_a, *g_v, evals, *nb, mout);
}

// A v = λ B v, B positive definite: eigenvalues ascending, eigenvectors the program's columns
// with Vᵀ B V = I. NWChem passes a fifth argument here that GA's ga_pdsygv does not take.
void ga_pdsygv_(const Int* g_a, const Int* g_b, const Int* g_v, double* evals) {
  const char* const fn = "ga_pdsygv";
  call(fn, [&] {
    const int a = handle(fn, *g_a), b = handle(fn, *g_b, "g_b"), v = handle(fn, *g_v, "g_v");
    const std::int64_t n = square(fn, a, "g_a", *g_a);
    square(fn, b, "g_b", *g_b, n);
    square(fn, v, "g_v", *g_v, n);
    if (!evals) bad_argument(fn, "evals", "NULL", "room for n eigenvalues is required");
    GA_Diag(a, b, v, evals);
    eigenvectors_as_columns(fn, v);
  });
}

void ga_pzheevd_(const Int* g_a, const Int* g_v, double* evals, const Int* nb) {
  hermitian("ga_pzheevd", g_a, g_v, evals, *nb, nullptr);
}
void ga_pzheevr_(const Int* g_a, const Int* g_v, double* evals, const Int* nb, Int* mout) {
  hermitian("ga_pzheevr", g_a, g_v, evals, *nb, mout);
}

// The Cholesky factor of the symmetric positive definite g_a in the program's triangle uplo
// (A = UᵀU or L Lᵀ), the other triangle zero: 0, or the order of the leading minor that is not
// positive definite (g_a unchanged). The program's U is the C view's lower factor, its L the
// transpose of that.
Int ga_cholesky_(const char* uplo, const Int* g_a) {
  const char* const fn = "ga_cholesky";
  return call(fn, [&] {
    const char t = triangle(fn, uplo);
    const int a = handle(fn, *g_a);
    square(fn, a, "g_a", *g_a);
    const int l = scratch(fn, a, "g_a");
    Int info = 0;
    try {
      linalg::detail::cholesky(array(fn, a), array(fn, l));
      if (t == 'U') GA_Copy(l, a);
      else GA_Transpose(l, a);
    } catch (const linalg::NotPositiveDefinite& e) {
      info = static_cast<Int>(e.index());
    }
    GA_Destroy(l);
    return info;
  });
}

// The inverse of A = UᵀU (uplo 'U') or L Lᵀ ('L') from its Cholesky factor in that triangle of
// g_a (the other triangle is not read), the whole symmetric inverse into g_a: 0, or i when the
// factor's (i, i) is zero (g_a unchanged). hsize: GA's -1 (its other values name GA's internal
// copy of an earlier factorization).
Int ga_llt_i_(const char* uplo, const Int* g_a, const Int* hsize) {
  const char* const fn = "ga_llt_i";
  return call(fn, [&] {
    const char t = triangle(fn, uplo);
    const int a = handle(fn, *g_a);
    const std::int64_t n = square(fn, a, "g_a", *g_a);
    if (*hsize != -1)
      bad_argument(fn, "hsize", std::to_string(*hsize), "must be -1 (the factor is read from g_a)");
    std::vector<double> diagonal(static_cast<std::size_t>(n));
    char label[] = "ga_llt_i diagonal";
    std::int64_t length = n;
    const int dv = NGA_Create_config64(C_DBL, 1, &length, label, nullptr, GA_Get_pgroup(a));
    if (dv == 0) bad_argument(fn, "g_a", std::to_string(*g_a), "has no room for its diagonal under GA's memory limit");
    GA_Get_diag(a, dv);
    std::int64_t lo = 0, hi = n - 1;
    NGA_Get64(dv, &lo, &hi, diagonal.data(), nullptr);
    GA_Destroy(dv);
    const auto zero = std::find(diagonal.begin(), diagonal.end(), 0.0);
    if (zero != diagonal.end()) return static_cast<Int>(zero - diagonal.begin() + 1);
    // The factor's C view F is lower for 'U' (A = F Fᵀ) and upper for 'L' (A = Fᵀ F).
    const int f = scratch(fn, a, "g_a"), m = scratch(fn, a, "g_a");
    GA_Copy(a, f);
    zero_triangle(fn, f, t == 'U');
    GA_Dgemm64(t == 'U' ? 'N' : 'T', t == 'U' ? 'T' : 'N', n, n, n, 1.0, f, f, 0.0, m);
    linalg::detail::cholesky_inverse(array(fn, m), array(fn, a));
    GA_Destroy(m);
    GA_Destroy(f);
    return Int{0};
  });
}

// GA solves this one on one process with LAPACK; here the parallel solver: A X = B (trans 'n')
// or Aᵀ X = B ('t'), B overwritten by X. The C API solves its views' system: B goes in as its
// transpose, and A's C view is Aᵀ (the flag flips).
void ga_lu_solve_seq_(const char* trans, const Int* g_a, const Int* g_b, Length trans_length) {
  const char* const fn = "ga_lu_solve_seq";
  call(fn, [&] {
    const std::string t = text(trans, trans_length);
    if (t.size() != 1 || !std::strchr("nNtT", t[0])) bad_argument(fn, "trans", "'" + t + "'", "must be 'N' or 'T'");
    const int a = handle(fn, *g_a), b = handle(fn, *g_b, "g_b");
    const int bt = transposed_copy(fn, b, "g_b");
    GA_Lu_solve(t[0] == 'n' || t[0] == 'N' ? 't' : 'n', a, bt);
    GA_Transpose(bt, b);
    GA_Destroy(bt);
  });
}

// GA's wrappers keep BLACS grids from SLinit to SLexit (SLexit2..4: the other grids GA's
// solvers make); NWChem releases them after an SCF. Here every wrapper makes its grid for the
// call and frees it on return (linalg's BlacsGrid), so a process never holds one between calls:
// SLinit has nothing to make in advance and the exits nothing left to free. They check only that
// GA is running, as GA's would fail without it.
void slinit_() { call("slinit", [] { require_initialized("slinit"); }); }
void slexit_() { call("slexit", [] { require_initialized("slexit"); }); }
void slexit2_() { call("slexit2", [] { require_initialized("slexit2"); }); }
void slexit3_() { call("slexit3", [] { require_initialized("slexit3"); }); }
void slexit4_() { call("slexit4", [] { require_initialized("slexit4"); }); }

}  // extern "C"
