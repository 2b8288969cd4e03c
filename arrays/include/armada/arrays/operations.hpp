// Collective operations on whole arrays and patches.
//
// Every function here is collective over the arrays' group (all arrays of one call must be on
// the same group): each rank works on the part it owns, fetching what it needs one-sidedly, and
// the call starts and ends with a sync_group() (fence_all + a barrier of the group, not of the
// world), so that its effects are visible to every group member on return. Patch arguments are [lo, hi) boxes; the patches of one call must have the same
// extents (copy_patch with transpose: reversed extents). Arrays of one call must have the same
// element type. Violations throw rma::InvalidArgument on every rank before any data moves.
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

#include <iosfwd>
#include <string>

#include "armada/arrays/global_array.hpp"

namespace armada::arrays {

// ---- type-erased core (values point to one element of the array's type) -----------------------
namespace detail {
enum class UnaryOp { Fill, Scale, AddConstant, Abs, Reciprocal };
enum class BinaryOp { Add, Multiply, Divide, Max, Min };
void unary_patch(UnaryOp op, Array& a, const Coord& lo, const Coord& hi, const void* value);
/// c = a (op) b; for Add: c = alpha*a + beta*b.
void binary_patch(BinaryOp op, const void* alpha, const Array& a, const Coord& alo, const Coord& ahi,
                  const void* beta, const Array& b, const Coord& blo, const Coord& bhi, Array& c,
                  const Coord& clo, const Coord& chi);
void copy_patch(const Array& a, const Coord& alo, const Coord& ahi, Array& b, const Coord& blo,
                const Coord& bhi, bool transpose);
/// The dot product into `result` (one element of the array type).
void dot_patch(const Array& a, const Coord& alo, const Coord& ahi, const Array& b, const Coord& blo,
               const Coord& bhi, void* result);
double norm(const Array& a, bool infinity);
/// The selected element into `value`, its index returned.
Coord select(const Array& a, const Coord& lo, const Coord& hi, bool max, void* value);
}  // namespace detail

inline Coord full_lo(const Array& a) { return Coord::filled(a.ndim(), 0); }
inline Coord full_hi(const Array& a) { return a.dims(); }

// ---- fill, zero, scale, element-wise unary ------------------------------------------------------
template <Element T>
void fill(GlobalArray<T>& a, T value) { detail::unary_patch(detail::UnaryOp::Fill, a, full_lo(a), full_hi(a), &value); }
template <Element T>
void fill_patch(GlobalArray<T>& a, const Coord& lo, const Coord& hi, T value) {
  detail::unary_patch(detail::UnaryOp::Fill, a, lo, hi, &value);
}
template <Element T>
void zero(GlobalArray<T>& a) { fill(a, T{}); }
template <Element T>
void scale(GlobalArray<T>& a, T alpha) { detail::unary_patch(detail::UnaryOp::Scale, a, full_lo(a), full_hi(a), &alpha); }
template <Element T>
void scale_patch(GlobalArray<T>& a, const Coord& lo, const Coord& hi, T alpha) {
  detail::unary_patch(detail::UnaryOp::Scale, a, lo, hi, &alpha);
}
template <Element T>
void add_constant(GlobalArray<T>& a, T alpha) {
  detail::unary_patch(detail::UnaryOp::AddConstant, a, full_lo(a), full_hi(a), &alpha);
}
template <Element T>
void add_constant_patch(GlobalArray<T>& a, const Coord& lo, const Coord& hi, T alpha) {
  detail::unary_patch(detail::UnaryOp::AddConstant, a, lo, hi, &alpha);
}
/// a = |a| (complex: the modulus, imaginary part 0).
template <Element T>
void abs(GlobalArray<T>& a) { detail::unary_patch(detail::UnaryOp::Abs, a, full_lo(a), full_hi(a), nullptr); }
template <Element T>
void abs_patch(GlobalArray<T>& a, const Coord& lo, const Coord& hi) {
  detail::unary_patch(detail::UnaryOp::Abs, a, lo, hi, nullptr);
}
/// a = 1 / a. Integer arrays: a zero element is an error on every rank, and nothing changes.
template <Element T>
void reciprocal(GlobalArray<T>& a) { detail::unary_patch(detail::UnaryOp::Reciprocal, a, full_lo(a), full_hi(a), nullptr); }
template <Element T>
void reciprocal_patch(GlobalArray<T>& a, const Coord& lo, const Coord& hi) {
  detail::unary_patch(detail::UnaryOp::Reciprocal, a, lo, hi, nullptr);
}

// ---- copy ----------------------------------------------------------------------------------------
/// b = a: same type and dims, any distributions.
template <Element T>
void copy(const GlobalArray<T>& a, GlobalArray<T>& b) {
  detail::copy_patch(a, full_lo(a), full_hi(a), b, full_lo(b), full_hi(b), false);
}
/// b[blo, bhi) = a[alo, ahi), or its transpose (all dimensions reversed) with `transpose`.
template <Element T>
void copy_patch(const GlobalArray<T>& a, const Coord& alo, const Coord& ahi, GlobalArray<T>& b,
                const Coord& blo, const Coord& bhi, bool transpose = false) {
  detail::copy_patch(a, alo, ahi, b, blo, bhi, transpose);
}

// ---- element-wise binary: c = a (op) b; c may be a or b ----------------------------------------
template <Element T>
void add(T alpha, const GlobalArray<T>& a, T beta, const GlobalArray<T>& b, GlobalArray<T>& c) {
  detail::binary_patch(detail::BinaryOp::Add, &alpha, a, full_lo(a), full_hi(a), &beta, b, full_lo(b),
                       full_hi(b), c, full_lo(c), full_hi(c));
}
template <Element T>
void add_patch(T alpha, const GlobalArray<T>& a, const Coord& alo, const Coord& ahi, T beta,
               const GlobalArray<T>& b, const Coord& blo, const Coord& bhi, GlobalArray<T>& c,
               const Coord& clo, const Coord& chi) {
  detail::binary_patch(detail::BinaryOp::Add, &alpha, a, alo, ahi, &beta, b, blo, bhi, c, clo, chi);
}
#define ARMADA_ARRAYS_BINARY(fn, op)                                                                     \
  template <Element T>                                                                                  \
  void fn(const GlobalArray<T>& a, const GlobalArray<T>& b, GlobalArray<T>& c) {                       \
    detail::binary_patch(detail::BinaryOp::op, nullptr, a, full_lo(a), full_hi(a), nullptr, b,          \
                         full_lo(b), full_hi(b), c, full_lo(c), full_hi(c));                            \
  }                                                                                                     \
  template <Element T>                                                                                  \
  void fn##_patch(const GlobalArray<T>& a, const Coord& alo, const Coord& ahi, const GlobalArray<T>& b, \
                  const Coord& blo, const Coord& bhi, GlobalArray<T>& c, const Coord& clo,            \
                  const Coord& chi) {                                                                   \
    detail::binary_patch(detail::BinaryOp::op, nullptr, a, alo, ahi, nullptr, b, blo, bhi, c, clo, chi); \
  }
/// c = a .* b
ARMADA_ARRAYS_BINARY(elem_multiply, Multiply)
/// c = a ./ b (integer arrays: a zero divisor is an error on every rank, and nothing changes)
ARMADA_ARRAYS_BINARY(elem_divide, Divide)
/// c = max(a, b) element-wise (complex: the one of larger modulus)
ARMADA_ARRAYS_BINARY(elem_max, Max)
/// c = min(a, b) element-wise (complex: the one of smaller modulus)
ARMADA_ARRAYS_BINARY(elem_min, Min)
#undef ARMADA_ARRAYS_BINARY

// ---- reductions ------------------------------------------------------------------------------
/// sum a[i] * b[i] (no conjugation), computed in double / long / complex<double>.
template <Element T>
T dot(const GlobalArray<T>& a, const GlobalArray<T>& b) {
  T r{};
  detail::dot_patch(a, full_lo(a), full_hi(a), b, full_lo(b), full_hi(b), &r);
  return r;
}
template <Element T>
T dot_patch(const GlobalArray<T>& a, const Coord& alo, const Coord& ahi, const GlobalArray<T>& b,
            const Coord& blo, const Coord& bhi) {
  T r{};
  detail::dot_patch(a, alo, ahi, b, blo, bhi, &r);
  return r;
}
/// 1-norm: a vector's sum of |x|; a matrix's largest column sum of |a_ij|. 1-D and 2-D only.
inline double norm1(const Array& a) { return detail::norm(a, false); }
/// Infinity norm: a vector's largest |x|; a matrix's largest row sum of |a_ij|. 1-D and 2-D only.
inline double norm_infinity(const Array& a) { return detail::norm(a, true); }

/// An element and its global index.
template <class T>
struct Selected {
  T value;
  Coord index;
};
/// The largest (smallest) element of the patch and its index; ties go to the first in row-major
/// order; complex elements compare by modulus.
template <Element T>
Selected<T> select_max(const GlobalArray<T>& a, const Coord& lo, const Coord& hi) {
  Selected<T> s{};
  s.index = detail::select(a, lo, hi, true, &s.value);
  return s;
}
template <Element T>
Selected<T> select_min(const GlobalArray<T>& a, const Coord& lo, const Coord& hi) {
  Selected<T> s{};
  s.index = detail::select(a, lo, hi, false, &s.value);
  return s;
}
template <Element T>
Selected<T> select_max(const GlobalArray<T>& a) { return select_max(a, full_lo(a), full_hi(a)); }
template <Element T>
Selected<T> select_min(const GlobalArray<T>& a) { return select_min(a, full_lo(a), full_hi(a)); }

// ---- printing ------------------------------------------------------------------------------------
/// Group rank `root` fetches the patch and writes it to `out`, formatted: a header naming the
/// array, then one line per row (the last dimension), each row prefixed by its leading indices.
/// Collective (the other ranks only synchronize).
void print_patch(const Array& a, const Coord& lo, const Coord& hi, std::ostream& out, int root = 0);
inline void print(const Array& a, std::ostream& out, int root = 0) { print_patch(a, full_lo(a), full_hi(a), out, root); }

}  // namespace armada::arrays
