// GA's Fortran API, patch arithmetic and matrix-vector operations (global.fh): scale, fill and
// zero a patch, dot products of patches, and the diagonal, row/column scaling and norms of a
// matrix. A Fortran matrix is the C view's transpose: its diagonal is the same, its rows are the
// C view's columns (ga_scale_rows scales the C view's columns) and its 1-norm (largest column
// sum) is the C view's infinity norm.
#include <algorithm>
#include <utility>

#include "binding.hpp"
#include "ga.h"

using namespace armada::ga;
using namespace armada::ga::fortran;

namespace {

/// A transpose flag given as a Fortran CHARACTER ('n' when blank).
char flag(const char* s, Length length) {
  const std::string t = text(s, length);
  return t.empty() ? 'n' : t[0];
}

/// Checks that g is 2-d (its Fortran patches are ilo:ihi, jlo:jhi) and returns its C handle.
int matrix(const char* fn, Int g_a) {
  const int g = handle(fn, g_a);
  if (GA_Ndim(g) != 2)
    bad_argument(fn, "g_a", std::to_string(g_a), "is " + std::to_string(GA_Ndim(g)) + "-d; " + fn + " needs a 2-d array");
  return g;
}

/// Checks that g_v is a 1-d array of `length` elements (`what`, in Fortran's terms) and returns
/// its C handle.
int vector(const char* fn, Int g_v, std::int64_t length, const char* what) {
  const int v = handle(fn, g_v, "g_v");
  int ndim = 0;
  std::int64_t d[GA_MAX_DIM] = {};
  dims(fn, v, &ndim, d);
  if (ndim != 1)
    bad_argument(fn, "g_v", std::to_string(g_v), "is " + std::to_string(ndim) + "-d; " + fn + " needs a 1-d array");
  if (d[0] != length)
    bad_argument(fn, "g_v", std::to_string(g_v),
                 "has " + std::to_string(d[0]) + " elements; " + fn + " needs " + std::to_string(length) + " (" +
                     what + ")");
  return v;
}

/// The Fortran dims of matrix g (rows, columns).
std::pair<std::int64_t, std::int64_t> shape(const char* fn, int g) {
  int ndim = 0;
  std::int64_t d[GA_MAX_DIM] = {};
  dims(fn, g, &ndim, d);
  return {d[0], d[1]};
}

/// ga_/nga_scale_patch (s) and ga_/nga_fill_patch (val): the patch given in the C view.
enum class PatchValue { Scale, Fill };
void patch_value(const char* fn, PatchValue op, int g, CPatch c, void* value) {
  if (!value) bad_argument(fn, op == PatchValue::Scale ? "s" : "val", "NULL", "a value of the array's type is required");
  op == PatchValue::Scale ? NGA_Scale_patch64(g, c.lo, c.hi, value) : NGA_Fill_patch64(g, c.lo, c.hi, value);
}
void patch_value_2d(const char* fn, PatchValue op, Int g_a, Int ilo, Int ihi, Int jlo, Int jhi, void* value) {
  call(fn, [&] {
    const int g = handle(fn, g_a);
    patch_value(fn, op, g, patch2(fn, g, ilo, ihi, jlo, jhi), value);
  });
}
void patch_value_nd(const char* fn, PatchValue op, Int g_a, const Int* lo, const Int* hi, void* value) {
  call(fn, [&] {
    const int g = handle(fn, g_a);
    patch_value(fn, op, g, patch(fn, g, lo, hi), value);
  });
}

/// The diagonal operations with a vector of min(rows, columns) elements.
void with_diagonal(const char* fn, Int g_a, Int g_v, void (*op)(int, int)) {
  call(fn, [&] {
    const int g = matrix(fn, g_a);
    const auto [rows, cols] = shape(fn, g);
    op(g, vector(fn, g_v, std::min(rows, cols), "the diagonal's length, min(rows, columns)"));
  });
}
/// ga_scale_rows (by_rows) and ga_scale_cols: the C view's columns and rows.
void scale_lines(const char* fn, Int g_a, Int g_v, bool by_rows) {
  call(fn, [&] {
    const int g = matrix(fn, g_a);
    const auto [rows, cols] = shape(fn, g);
    const int v = vector(fn, g_v, by_rows ? rows : cols, by_rows ? "one per row" : "one per column");
    by_rows ? GA_Scale_cols(g, v) : GA_Scale_rows(g, v);
  });
}

/// A C API result as the Fortran function's (the complex forms: binding.hpp).
using fortran::as_fortran;
[[maybe_unused]] Int as_fortran(long v) { return static_cast<Int>(v); }
[[maybe_unused]] Int as_fortran(int v) { return static_cast<Int>(v); }
float as_fortran(float v) { return v; }
}  // namespace

extern "C" {

void ga_scale_patch_(const Int* g_a, const Int* ilo, const Int* ihi, const Int* jlo, const Int* jhi, void* s) {
  patch_value_2d("ga_scale_patch", PatchValue::Scale, *g_a, *ilo, *ihi, *jlo, *jhi, s);
}
void nga_scale_patch_(const Int* g_a, const Int* lo, const Int* hi, void* s) {
  patch_value_nd("nga_scale_patch", PatchValue::Scale, *g_a, lo, hi, s);
}
void ga_fill_patch_(const Int* g_a, const Int* ilo, const Int* ihi, const Int* jlo, const Int* jhi, void* value) {
  patch_value_2d("ga_fill_patch", PatchValue::Fill, *g_a, *ilo, *ihi, *jlo, *jhi, value);
}
void nga_fill_patch_(const Int* g_a, const Int* lo, const Int* hi, void* value) {
  patch_value_nd("nga_fill_patch", PatchValue::Fill, *g_a, lo, hi, value);
}
void nga_zero_patch_(const Int* g_a, const Int* lo, const Int* hi) {
  const char* const fn = "nga_zero_patch";
  call(fn, [&] {
    const int g = handle(fn, *g_a);
    CPatch c = patch(fn, g, lo, hi);
    NGA_Zero_patch64(g, c.lo, c.hi);
  });
}

// sum a(i, j) b(i, j) over the patches, either one transposed ('t'): the same sum in the C view.
double ga_ddot_patch_(const Int* g_a, const char* ta, const Int* ailo, const Int* aihi, const Int* ajlo,
                      const Int* ajhi, const Int* g_b, const char* tb, const Int* bilo, const Int* bihi,
                      const Int* bjlo, const Int* bjhi, Length ta_length, Length tb_length) {
  const char* const fn = "ga_ddot_patch";
  return call(fn, [&] {
    const int a = handle(fn, *g_a), b = handle(fn, *g_b, "g_b");
    CPatch ca = patch2(fn, a, *ailo, *aihi, *ajlo, *ajhi, "a");
    CPatch cb = patch2(fn, b, *bilo, *bihi, *bjlo, *bjhi, "b");
    return NGA_Ddot_patch64(a, flag(ta, ta_length), ca.lo, ca.hi, b, flag(tb, tb_length), cb.lo, cb.hi);
  });
}
double nga_ddot_patch_(const Int* g_a, const char* ta, const Int* alo, const Int* ahi, const Int* g_b, const char* tb,
                       const Int* blo, const Int* bhi, Length ta_length, Length tb_length) {
  const char* const fn = "nga_ddot_patch";
  return call(fn, [&] {
    const int a = handle(fn, *g_a), b = handle(fn, *g_b, "g_b");
    CPatch ca = patch(fn, a, alo, ahi, PatchNames{"alo", "ahi"});
    CPatch cb = patch(fn, b, blo, bhi, PatchNames{"blo", "bhi"});
    return NGA_Ddot_patch64(a, flag(ta, ta_length), ca.lo, ca.hi, b, flag(tb, tb_length), cb.lo, cb.hi);
  });
}

// The same for the other element types GA's Fortran API has: ga_sdot_patch (REAL), ga_cdot_patch
// (COMPLEX), ga_zdot_patch (DOUBLE COMPLEX), nga_idot_patch (INTEGER of this build's width) and their
// 2-d/n-d spellings. gfortran returns COMPLEX results as C's _Complex.

#define ARMADA_GAF_DOT_PATCH(x, C)                                                                                 \
  decltype(as_fortran(C(0, 'n', nullptr, nullptr, 0, 'n', nullptr, nullptr))) ga_##x##dot_patch_(                  \
      const Int* g_a, const char* ta, const Int* ailo, const Int* aihi, const Int* ajlo, const Int* ajhi,           \
      const Int* g_b, const char* tb, const Int* bilo, const Int* bihi, const Int* bjlo, const Int* bjhi,           \
      Length ta_length, Length tb_length) {                                                                         \
    const char* const fn = "ga_" #x "dot_patch";                                                                    \
    return call(fn, [&] {                                                                                           \
      const int a = handle(fn, *g_a), b = handle(fn, *g_b, "g_b");                                                  \
      CPatch ca = patch2(fn, a, *ailo, *aihi, *ajlo, *ajhi, "a");                                                   \
      CPatch cb = patch2(fn, b, *bilo, *bihi, *bjlo, *bjhi, "b");                                                   \
      return as_fortran(C(a, flag(ta, ta_length), ca.lo, ca.hi, b, flag(tb, tb_length), cb.lo, cb.hi));           \
    });                                                                                                             \
  }                                                                                                                 \
  decltype(as_fortran(C(0, 'n', nullptr, nullptr, 0, 'n', nullptr, nullptr))) nga_##x##dot_patch_(                 \
      const Int* g_a, const char* ta, const Int* alo, const Int* ahi, const Int* g_b, const char* tb,               \
      const Int* blo, const Int* bhi, Length ta_length, Length tb_length) {                                         \
    const char* const fn = "nga_" #x "dot_patch";                                                                   \
    return call(fn, [&] {                                                                                           \
      const int a = handle(fn, *g_a), b = handle(fn, *g_b, "g_b");                                                  \
      CPatch ca = patch(fn, a, alo, ahi, PatchNames{"alo", "ahi"});                                                 \
      CPatch cb = patch(fn, b, blo, bhi, PatchNames{"blo", "bhi"});                                                 \
      return as_fortran(C(a, flag(ta, ta_length), ca.lo, ca.hi, b, flag(tb, tb_length), cb.lo, cb.hi));           \
    });                                                                                                             \
  }
ARMADA_GAF_DOT_PATCH(s, NGA_Fdot_patch64)
ARMADA_GAF_DOT_PATCH(c, NGA_Cdot_patch64)
ARMADA_GAF_DOT_PATCH(z, NGA_Zdot_patch64)
#if ARMADA_FORTRAN_INTEGER_BYTES == 8
ARMADA_GAF_DOT_PATCH(i, NGA_Ldot_patch64)
#else
ARMADA_GAF_DOT_PATCH(i, NGA_Idot_patch64)
#endif
#undef ARMADA_GAF_DOT_PATCH

void ga_get_diag_(const Int* g_a, const Int* g_v) { with_diagonal("ga_get_diag", *g_a, *g_v, GA_Get_diag); }
void ga_set_diagonal_(const Int* g_a, const Int* g_v) {
  with_diagonal("ga_set_diagonal", *g_a, *g_v, GA_Set_diagonal);
}
void ga_add_diagonal_(const Int* g_a, const Int* g_v) {
  with_diagonal("ga_add_diagonal", *g_a, *g_v, GA_Add_diagonal);
}
void ga_shift_diagonal_(const Int* g_a, void* c) {
  call("ga_shift_diagonal", [&] { GA_Shift_diagonal(matrix("ga_shift_diagonal", *g_a), c); });
}
void ga_zero_diagonal_(const Int* g_a) {
  call("ga_zero_diagonal", [&] { GA_Zero_diagonal(matrix("ga_zero_diagonal", *g_a)); });
}
void ga_scale_rows_(const Int* g_a, const Int* g_v) { scale_lines("ga_scale_rows", *g_a, *g_v, true); }
void ga_scale_cols_(const Int* g_a, const Int* g_v) { scale_lines("ga_scale_cols", *g_a, *g_v, false); }
void ga_norm1_(const Int* g_a, double* nm) {
  call("ga_norm1", [&] {
    const int g = handle("ga_norm1", *g_a);
    GA_Ndim(g) == 2 ? GA_Norm_infinity(g, nm) : GA_Norm1(g, nm);
  });
}
void ga_norm_infinity_(const Int* g_a, double* nm) {
  call("ga_norm_infinity", [&] {
    const int g = handle("ga_norm_infinity", *g_a);
    GA_Ndim(g) == 2 ? GA_Norm1(g, nm) : GA_Norm_infinity(g, nm);
  });
}

// ---- the nga_ spellings GA's Fortran API has of the calls above ---------------------------------
void nga_get_diag_(const Int* g_a, const Int* g_v) { ga_get_diag_(g_a, g_v); }
void nga_set_diagonal_(const Int* g_a, const Int* g_v) { ga_set_diagonal_(g_a, g_v); }
void nga_add_diagonal_(const Int* g_a, const Int* g_v) { ga_add_diagonal_(g_a, g_v); }
void nga_shift_diagonal_(const Int* g_a, void* c) { ga_shift_diagonal_(g_a, c); }
void nga_zero_diagonal_(const Int* g_a) { ga_zero_diagonal_(g_a); }
void nga_scale_rows_(const Int* g_a, const Int* g_v) { ga_scale_rows_(g_a, g_v); }
void nga_scale_cols_(const Int* g_a, const Int* g_v) { ga_scale_cols_(g_a, g_v); }
void nga_norm1_(const Int* g_a, double* nm) { ga_norm1_(g_a, nm); }
void nga_norm_infinity_(const Int* g_a, double* nm) { ga_norm_infinity_(g_a, nm); }

}  // extern "C"
