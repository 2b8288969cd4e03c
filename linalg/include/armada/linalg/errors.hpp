// Errors of armada::linalg beyond rma's (bad arguments are rma::InvalidArgument, as in every layer).
// Each numerical error carries its rma::ErrorKind (singular, not_positive_definite,
// no_convergence), which the C APIs and the Python binding map to their codes.
//
// A factorization that breaks down is a NumericalError naming the operation and the failing
// index: which pivot of an LU factorization is exactly zero, which leading minor of a Cholesky
// factorization is not positive definite, how many eigenvalues failed to converge. Every rank of
// the group throws the same error (ScaLAPACK reports the failure to all of them), and the arrays
// the operation would have written are left unchanged (see each operation in solve.hpp).
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

#include <cstdint>
#include <string>

#include "armada/rma/error.hpp"

namespace armada::linalg {

/// A factorization or eigensolver failed on the values of the matrix (not on its shape).
class NumericalError : public rma::Error {
 public:
  /// `kind` is one of rma's numerical kinds; `text` follows "[rank r] <operation>: ".
  NumericalError(rma::ErrorKind kind, std::string operation, std::int64_t index, const std::string& text);
  /// One-based, as LAPACK counts: the pivot, the order of the minor, or the number of
  /// eigenvalues that did not converge.
  std::int64_t index() const noexcept { return index_; }

 private:
  std::int64_t index_;
};

/// LU: U(index, index) is exactly zero, so the matrix is singular.
class SingularMatrix : public NumericalError {
 public:
  SingularMatrix(std::string operation, std::int64_t pivot);
};

/// Cholesky: the leading minor of order `index` is not positive definite.
class NotPositiveDefinite : public NumericalError {
 public:
  NotPositiveDefinite(std::string operation, std::int64_t minor);
};

/// Symmetric eigensolver: the divide-and-conquer iteration did not converge.
class NoConvergence : public NumericalError {
 public:
  NoConvergence(std::string operation, std::int64_t info);
};

}  // namespace armada::linalg
