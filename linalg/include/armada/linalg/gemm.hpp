// Distributed matrix multiplication: C = alpha·op(A)·op(B) + beta·C on 2-D GlobalArrays.
//
// Who takes part: collective over the arrays' group (A, B and C must be on the same group, and
// every member calls with the same arguments). The call starts and ends with a sync of the
// group, so earlier updates of A and B are seen and C is complete everywhere on return.
//
// Algorithm (docs/linalg.md): owner computes. Each rank updates the part of the C patch it owns,
// in place in its local block. It walks the k dimension in panels (at most
// ARMADA_LINALG_GEMM_PANEL wide, cut where blocks of A and B end); for each panel it fetches the
// rows of op(A) and the columns of op(B) it needs with nonblocking patch gets (one strided rma
// operation per owner), double-buffered so that the next panel's transfer runs during the
// current panel's cblas_?gemm. A panel that lies inside the rank's own block of A or B is used in
// place (no copy). Each rank starts its k walk at a different panel, so that the owners of A and
// B are not all asked for the same panel at once.
//
// Element types: float, double, complex<float>, complex<double>. op: none, transpose, or
// conjugate transpose (the same as transpose for real types). beta == 0 sets C without reading it
// (NaNs in C do not propagate), as in BLAS.
//
// Errors, raised on every rank before any data moves and with every array unchanged:
// rma::InvalidArgument naming the operation, the argument and the value for arrays that are not
// 2-D, element types that differ or are integers, arrays on different groups, C being the same
// array as A or B, a patch outside its array, or shapes that do not conform; rma::StateError for
// a destroyed array.
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

#include "armada/arrays/arrays.hpp"

namespace armada::linalg {

using arrays::Array;
using arrays::Coord;
using arrays::GlobalArray;
using arrays::Index;

/// op(X): X, Xᵀ or Xᴴ.
enum class Op { none = 0, transpose = 1, conj_transpose = 2 };

/// The element types linalg computes with.
template <class T>
concept Scalar = std::is_same_v<T, float> || std::is_same_v<T, double> ||
                 std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;

namespace detail {
/// The type-erased core: alpha and beta point to one element of the arrays' type.
void matmul_patch(Op op_a, Op op_b, const void* alpha, const Array& a, const Coord& alo, const Coord& ahi,
                  const Array& b, const Coord& blo, const Coord& bhi, const void* beta, Array& c,
                  const Coord& clo, const Coord& chi);
/// The same on whole arrays; its errors name linalg::gemm and the arrays, not patches.
void gemm(Op op_a, Op op_b, const void* alpha, const Array& a, const Array& b, const void* beta, Array& c);
}  // namespace detail

/// C[clo, chi) = alpha·op(A[alo, ahi))·op(B[blo, bhi)) + beta·C[clo, chi), Global Arrays'
/// GA_Matmul_patch: the patches are given as stored, op applies to them, so with op_a ==
/// transpose the A patch is k × m. Patches are 2-entry [lo, hi) boxes.
template <Scalar T>
void matmul_patch(Op op_a, Op op_b, T alpha, const GlobalArray<T>& a, const Coord& alo, const Coord& ahi,
                  const GlobalArray<T>& b, const Coord& blo, const Coord& bhi, T beta, GlobalArray<T>& c,
                  const Coord& clo, const Coord& chi) {
  detail::matmul_patch(op_a, op_b, &alpha, a, alo, ahi, b, blo, bhi, &beta, c, clo, chi);
}

/// C = alpha·op(A)·op(B) + beta·C on whole arrays (GA_Dgemm and its typed siblings).
template <Scalar T>
void gemm(Op op_a, Op op_b, T alpha, const GlobalArray<T>& a, const GlobalArray<T>& b, T beta, GlobalArray<T>& c) {
  detail::gemm(op_a, op_b, &alpha, a, b, &beta, c);
}

}  // namespace armada::linalg
