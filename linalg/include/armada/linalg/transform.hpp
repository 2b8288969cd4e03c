// Transpose, symmetrize and conjugate of 2-D GlobalArrays.
//
// Both are collective over the arrays' group and start and end with a sync of it. Errors
// (rma::InvalidArgument before any data moves, every array unchanged): not 2-D, integer or
// mismatched element types, different groups, B the same array as A (transpose), dimensions that
// do not match, a non-square A (symmetrize).
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

#include "armada/linalg/gemm.hpp"

namespace armada::linalg {

namespace detail {
void transpose(const Array& a, Array& b);
void symmetrize(Array& a);
void conjugate(Array& a);
}  // namespace detail

/// B = Aᵀ (no conjugation), between any two distributions; A is m × n, B n × m (GA_Transpose).
template <Scalar T>
void transpose(const GlobalArray<T>& a, GlobalArray<T>& b) { detail::transpose(a, b); }

/// A = (A + Aᵀ) / 2 for a square A (GA_Symmetrize; no conjugation for complex types).
template <Scalar T>
void symmetrize(GlobalArray<T>& a) { detail::symmetrize(a); }

/// A = conj(A) element by element, in place (nothing for real types). Any 2-D A. With the
/// transposes above it makes the conjugate transpose; the Fortran module uses it to solve
/// Hermitian systems on its transposed view.
template <Scalar T>
void conjugate(GlobalArray<T>& a) { detail::conjugate(a); }

}  // namespace armada::linalg
