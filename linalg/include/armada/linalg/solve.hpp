// Factorizations, solves, eigenvalues and inverse through ScaLAPACK.
//
// Each operation copies its matrices into 2-D block-cyclic storage on a BLACS grid over the
// array group's communicator (patch gets of every block, all in flight at once), runs
// ScaLAPACK there, and writes the results back the same way (patch puts). The input matrix is
// therefore never modified: the factorization works on the copy.
//
// Who takes part: collective over the arrays' group; every call starts and ends with a sync.
// Element types: float, double, complex<float>, complex<double>. Matrices are 2-D.
// Errors: rma::InvalidArgument (bad shapes, types, groups, aliasing) before any data moves;
// linalg::SingularMatrix / NotPositiveDefinite / NoConvergence (errors.hpp) on every rank when the
// factorization breaks down, and then EVERY array of the call is unchanged (results are only
// written back after the factorization and solve succeeded).
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

#include <vector>

#include "armada/linalg/errors.hpp"
#include "armada/linalg/gemm.hpp"

namespace armada::linalg {

/// Real type of T (float for complex<float>).
template <class T>
struct real_of { using type = T; };
template <class T>
struct real_of<std::complex<T>> { using type = T; };
template <class T>
using Real = typename real_of<T>::type;

/// Where this rank's last factorization, solve, eigen or inverse call spent its time: moving
/// data between the arrays and block-cyclic storage (both ways) and inside ScaLAPACK; and how
/// many whole matrices it moved by patch operations (each load and each store counts one).
/// A square A held in arrays' Layout::proc_grid with ScaLAPACK's block (scalapack_block(), both
/// dimensions) on a grid over the whole group is loaded, and an output of that layout stored,
/// without redistribution: ScaLAPACK's local matrix is the array's local buffer.
struct SolveTimes {
  double redistribute_s = 0;
  double compute_s = 0;
  int redistributions = 0;
};
SolveTimes last_solve_times();

namespace detail {
void lu_solve(Op op, const Array& a, Array& b);
void cholesky_solve(const Array& a, Array& b);
/// eigenvalues: n values of the real type of the arrays.
void eigen_symmetric(const Array& a, Array& v, void* eigenvalues);
void inverse(const Array& a, Array& inv);
void cholesky_inverse(const Array& a, Array& inv);
void cholesky(const Array& a, Array& l);
}  // namespace detail

/// Solves op(A)·X = B by LU with partial pivoting (getrf + getrs); A is n × n, B is n × nrhs
/// and is overwritten by X (GA_Lu_solve). A is unchanged. Singular A: SingularMatrix naming the
/// zero pivot, and B unchanged.
template <Scalar T>
void lu_solve(const GlobalArray<T>& a, GlobalArray<T>& b, Op op = Op::none) { detail::lu_solve(op, a, b); }

/// Solves A·X = B for a symmetric (Hermitian) positive definite A by Cholesky (potrf + potrs),
/// reading A's lower triangle; B (n × nrhs) is overwritten by X (GA_Llt_solve). A is unchanged.
/// Not positive definite: NotPositiveDefinite naming the order of the failing minor, and B
/// unchanged.
template <Scalar T>
void cholesky_solve(const GlobalArray<T>& a, GlobalArray<T>& b) { detail::cholesky_solve(a, b); }

/// Eigenvalues (ascending, returned on every rank) and eigenvectors (the columns of V, n × n) of
/// the symmetric (Hermitian) A, reading its lower triangle (syevd / heevd; GA_Diag_std). A is
/// unchanged unless V is A. No convergence: NoConvergence, and V unchanged.
template <Scalar T>
std::vector<Real<T>> eigen_symmetric(const GlobalArray<T>& a, GlobalArray<T>& v) {
  std::vector<Real<T>> w(static_cast<std::size_t>(a.dims()[0]));
  detail::eigen_symmetric(a, v, w.data());
  return w;
}

/// inv = A⁻¹ (getrf + getri); inv may be A itself (then A is replaced by its inverse).
/// Singular A: SingularMatrix naming the zero pivot, and inv (and A) unchanged.
template <Scalar T>
void inverse(const GlobalArray<T>& a, GlobalArray<T>& inv) { detail::inverse(a, inv); }

/// L, lower triangular with A = L·Lᴴ, of the symmetric (Hermitian) positive definite A, reading
/// its lower triangle (p?potrf; GA's ga_cholesky); L's strict upper triangle is zero, and L may be
/// A itself. A not positive definite: NotPositiveDefinite naming the leading minor, and L unchanged.
template <Scalar T>
void cholesky(const GlobalArray<T>& a, GlobalArray<T>& l) { detail::cholesky(a, l); }

/// inv = A⁻¹ of the symmetric (Hermitian) positive definite A, reading its lower triangle
/// (potrf + potri; GA_Spd_invert); inv, every element of it, may be A itself. A not positive
/// definite: NotPositiveDefinite naming the leading minor, and inv (and A) unchanged.
template <Scalar T>
void cholesky_inverse(const GlobalArray<T>& a, GlobalArray<T>& inv) { detail::cholesky_inverse(a, inv); }

}  // namespace armada::linalg
