// What linalg's sources share: argument checks (each names the operation, the argument and the
// value, and runs before any data moves), and small helpers on 2-D patches.
#pragma once

#include <complex>
#include <string>

#include "armada/arrays/collective.hpp"
#include "armada/linalg/gemm.hpp"
#include "armada/rma/error.hpp"

namespace armada::linalg::detail {

/// A 2-D [lo, hi) box: rows [r0, r1), columns [c0, c1).
struct Box {
  Index r0 = 0, r1 = 0, c0 = 0, c1 = 0;
  Index rows() const noexcept { return r1 > r0 ? r1 - r0 : 0; }
  Index cols() const noexcept { return c1 > c0 ? c1 - c0 : 0; }
  bool empty() const noexcept { return rows() == 0 || cols() == 0; }
  bool contains(const Box& o) const noexcept { return o.r0 >= r0 && o.r1 <= r1 && o.c0 >= c0 && o.c1 <= c1; }
  Coord lo() const { return {r0, c0}; }
  Coord hi() const { return {r1, c1}; }
  static Box of(const Coord& lo, const Coord& hi) { return {lo[0], hi[0], lo[1], hi[1]}; }
  Box intersect(const Box& o) const;
};

/// The array is live, 2-D, of a floating-point type; the caller is a member of its group.
void require_matrix(const char* op, const char* arg, const Array& a);
/// `a` is a matrix (require_matrix) and square.
void require_square(const char* op, const char* arg, const Array& a);
/// `a` has the element type and group of `ref` (named ref_arg in the message).
void require_like(const char* op, const char* arg, const Array& a, const char* ref_arg, const Array& ref);
/// `a` and `b` are different arrays (b is written while a is read).
void require_distinct(const char* op, const char* arg, const Array& a, const char* other_arg, const Array& other);
/// lo/hi are 2-entry tuples with 0 <= lo <= hi <= dims.
void require_patch(const char* op, const char* lo_arg, const char* hi_arg, const Array& a, const Coord& lo,
                   const Coord& hi);
/// An Op value inside the enumeration (the C API passes integers).
void require_op(const char* op, const char* arg, Op value);
/// ScaLAPACK `routine` returned `info`: a negative value (it rejected an argument) is a bug of
/// ours, an rma::Error of kind internal.
void require_ok_arguments(const char* op, const char* routine, int info);
/// Throws InvalidArgument(op, arg, value, reason, kind): argument, handle or type.
[[noreturn]] void reject(const char* op, const char* arg, const std::string& value, const std::string& reason,
                         rma::ErrorKind kind = rma::ErrorKind::argument);

/// "3 x 4"
std::string shape(Index rows, Index cols);

/// Calls f.template operator()<T>() for T the element type of `a` (one of linalg's four).
template <class F>
void dispatch(const Array& a, F&& f) {
  switch (a.type()) {
    case arrays::ElemType::Float: f.template operator()<float>(); break;
    case arrays::ElemType::Double: f.template operator()<double>(); break;
    case arrays::ElemType::ComplexFloat: f.template operator()<std::complex<float>>(); break;
    default: f.template operator()<std::complex<double>>(); break;
  }
}

/// The start of every linalg collective: each member runs `checks` (the require_* calls), then
/// every member of `a`'s group agrees (arrays::begin_collective): a bad argument on one member,
/// or arguments that differ between members, fail every member before anything moves.
template <class F>
void begin_collective(const char* op, const Array& a, F&& checks, const rma::MustMatch& same) {
  arrays::begin_collective(op, arrays::collective_group(op, a), std::forward<F>(checks), same);
}

/// A 2-D patch as an argument every member must pass alike.
inline rma::MustMatch::value_type same_patch(const char* argument, const Coord& lo, const Coord& hi) {
  return {argument, lo.str() + " .. " + hi.str()};
}

/// Applies blas_threads() to the BLAS library once per change (every linalg entry calls it).
void apply_blas_threads();

}  // namespace armada::linalg::detail
