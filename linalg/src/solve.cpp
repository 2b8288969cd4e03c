// LU, Cholesky, eigen and inverse through ScaLAPACK on a block-cyclic copy (see solve.hpp).
#include "armada/linalg/solve.hpp"

#include <mpi.h>

#include <algorithm>
#include <complex>
#include <utility>

#include "armada/linalg/settings.hpp"
#include "block_cyclic.hpp"
#include "scalapack.hpp"

namespace armada::linalg {

namespace {
thread_local SolveTimes g_times;
}  // namespace

SolveTimes last_solve_times() {
  SolveTimes t = g_times;
  t.redistributions = detail::redistributions();
  return t;
}

namespace detail {

namespace {

constexpr int kOne = 1;

// The right-hand sides: n rows like A, same type and group, not A itself.
void require_rhs(const char* op, const Array& a, const Array& b) {
  require_matrix(op, "b", b);
  require_like(op, "b", b, "a", a);
  require_distinct(op, "b", b, "a", a);
  if (b.dims()[0] != a.dims()[0])
    reject(op, "b", b.name() + " with dims " + b.dims().str(),
           "must have as many rows as a has (" + std::to_string(a.dims()[0]) + ")");
}

// Times one phase into g_times.
class Phase {
 public:
  explicit Phase(double& into) : into_(into), start_(MPI_Wtime()) {}
  ~Phase() { into_ += MPI_Wtime() - start_; }

 private:
  double& into_;
  double start_;
};

// Loads the arrays' matrices into fresh block-cyclic storage on `grid`, all gets in flight.
template <class T>
void load(std::initializer_list<std::pair<const Array*, CyclicMatrix<T>*>> pairs) {
  Phase phase(g_times.redistribute_s);
  Redistribution<T> r;
  for (auto [array, matrix] : pairs) r.fetch(*array, *matrix);
  r.complete_fetches();
}

template <class T>
void store(const CyclicMatrix<T>& m, Array& a) {
  Phase phase(g_times.redistribute_s);
  Redistribution<T>::store(m, a);
}

// The factorizations load A as its transpose M = Aᵀ (Holds::transpose: blocks land in place,
// with no staging buffer and no transpose pass) and make up for it:
//   LU       op(A) X = B is Mᵀ X = B (op none), M X = B (transpose), conj(M) X = B (conjugate
//            transpose, solved as M conj(X) = conj(B)). inv(A) = inv(M)ᵀ, which storing M's
//            inverse back as a transpose writes. An exact zero pivot in M's factorization makes
//            A itself be loaded and factored, so that SingularMatrix names the pivot of PA = LU.
//   Cholesky M's upper triangle holds A's lower one, conjugated: with uplo 'U', M = conj(A)
//            (A as defined by its lower triangle), solved as M conj(X) = conj(B); M's leading
//            minors are A's, conjugated, so the failing minor is A's.

// conj(m) in place (complex types; nothing for real ones).
// A's ScaLAPACK copy for the operations on one square A (inverses, Cholesky factor): M = Aᵀ
// (or A itself after load's fallback), loaded, its elements `reads` checked finite.
template <class T>
CyclicMatrix<T> load_square(const char* op, const BlacsGrid& grid, const Array& a, Reads reads) {
  const Index n = a.dims()[0];
  CyclicMatrix<T> m(grid, n, n, scalapack_block(), Holds::transpose);
  load<T>({{&a, &m}});
  require_finite(op, "a", a, m, a.group().comm(), reads);
  return m;
}

// A (square, M = Aᵀ) and B (as itself) for a solve, loaded together, their elements checked
// finite (A's `reads`).
template <class T>
std::pair<CyclicMatrix<T>, CyclicMatrix<T>> load_system(const char* op, const BlacsGrid& grid, const Array& a,
                                                      const Array& b, Reads reads) {
  const int nb = scalapack_block();
  const Index n = a.dims()[0];
  std::pair<CyclicMatrix<T>, CyclicMatrix<T>> m{CyclicMatrix<T>(grid, n, n, nb, Holds::transpose),
                                                CyclicMatrix<T>(grid, b.dims()[0], b.dims()[1], nb)};
  load<T>({{&a, &m.first}, {&b, &m.second}});
  require_finite(op, "a", a, m.first, a.group().comm(), reads);
  require_finite(op, "b", b, m.second, a.group().comm());
  return m;
}

template <class T>
void conjugate(CyclicMatrix<T>& m) {
  if constexpr (!std::is_floating_point_v<T>)
    for (T& v : m.local) v = std::conj(v);
}

// p?getrf in place: 0, or the one-based index of the first exactly zero pivot. U's diagonal is
// checked too: p?getrf reports no zero pivot for a 1 x 1 zero matrix.
template <class T>
int getrf(const char* op, CyclicMatrix<T>& a, std::vector<int>& ipiv, MPI_Comm comm) {
  Phase phase(g_times.compute_s);
  ipiv.assign(static_cast<std::size_t>(a.locr + a.nb), 0);
  const int n = static_cast<int>(a.rows);
  int info = 0;
  Scalapack<T>::getrf(&n, &n, a.local.data(), &kOne, &kOne, a.desc, ipiv.data(), &info);
  require_ok_arguments(op, "p?getrf", info);
  return info > 0 ? info : first_zero_diagonal(a, comm);
}

// The LU factors of the square `array` (or of its transpose, as `a` holds it), loaded into
// `a`; throws SingularMatrix naming the zero pivot of the array's own factorization.
template <class T>
std::vector<int> factor_lu(const char* op, const BlacsGrid& grid, const Array& array, CyclicMatrix<T>& a) {
  std::vector<int> ipiv;
  const MPI_Comm comm = array.group().comm();
  int info = getrf(op, a, ipiv, comm);
  if (info > 0 && a.holds == Holds::transpose) {
    a = CyclicMatrix<T>(grid, a.cols, a.rows, a.nb, Holds::array);
    load<T>({{&array, &a}});
    info = getrf(op, a, ipiv, comm);
  }
  if (info > 0) throw SingularMatrix(op, info);
  return ipiv;
}

// p?getrs's trans for op(A) when `a` holds A's factors or Aᵀ's, and whether the system is
// solved in conjugates (op(A) = conj(M): M conj(X) = conj(B)).
std::pair<char, bool> lu_trans(Op op, Holds holds, bool complex) {
  if (holds == Holds::array) return {op == Op::none ? 'N' : op == Op::transpose ? 'T' : 'C', false};
  if (op == Op::none) return {'T', false};
  return {'N', op == Op::conj_transpose && complex};
}

// Cholesky factorization in place (uplo 'U' on a transpose, see above); throws
// NotPositiveDefinite naming the failing minor.
template <class T>
void factor_cholesky(const char* op, CyclicMatrix<T>& a) {
  Phase phase(g_times.compute_s);
  const int n = static_cast<int>(a.rows);
  int info = 0;
  Scalapack<T>::potrf(a.holds == Holds::transpose ? "U" : "L", &n, a.local.data(), &kOne, &kOne, a.desc, &info, 1);
  require_ok_arguments(op, "p?potrf", info);
  if (info > 0) throw NotPositiveDefinite(op, info);
}

// A X = B with A loaded as its transpose and B (n x nrhs, small) as itself; X is written into
// B only once every step succeeded.
template <class T>
void lu_solve_typed(Op op, const Array& a, Array& b) {
  const char* name = "linalg::lu_solve";
  BlacsGrid grid(a.group(), &a);
  const Index n = a.dims()[0];
  auto [ca, cb] = load_system<T>(name, grid, a, b, Reads::all);
  const std::vector<int> ipiv = factor_lu(name, grid, a, ca);
  {
    Phase phase(g_times.compute_s);
    const auto [trans, in_conjugates] = lu_trans(op, ca.holds, !std::is_floating_point_v<T>);
    const int nn = static_cast<int>(n), nrhs = static_cast<int>(cb.cols);
    int info = 0;
    if (in_conjugates) conjugate(cb);
    Scalapack<T>::getrs(&trans, &nn, &nrhs, ca.local.data(), &kOne, &kOne, ca.desc, ipiv.data(), cb.local.data(),
                        &kOne, &kOne, cb.desc, &info, 1);
    require_ok_arguments(name, "p?getrs", info);
    if (in_conjugates) conjugate(cb);
  }
  store(cb, b);
}

template <class T>
void cholesky_solve_typed(const Array& a, Array& b) {
  const char* name = "linalg::cholesky_solve";
  BlacsGrid grid(a.group(), &a);
  const Index n = a.dims()[0];
  auto [ca, cb] = load_system<T>(name, grid, a, b, Reads::lower_triangle);
  factor_cholesky(name, ca);
  {
    Phase phase(g_times.compute_s);
    const int nn = static_cast<int>(n), nrhs = static_cast<int>(cb.cols);
    int info = 0;
    conjugate(cb);
    Scalapack<T>::potrs("U", &nn, &nrhs, ca.local.data(), &kOne, &kOne, ca.desc, cb.local.data(), &kOne, &kOne,
                        cb.desc, &info, 1);
    require_ok_arguments(name, "p?potrs", info);
    conjugate(cb);
  }
  store(cb, b);
}

template <class T>
void inverse_typed(const Array& a, Array& inv) {
  const char* name = "linalg::inverse";
  BlacsGrid grid(a.group(), &a);
  const Index n = a.dims()[0];
  CyclicMatrix<T> ca = load_square<T>(name, grid, a, Reads::all);
  const std::vector<int> ipiv = factor_lu(name, grid, a, ca);
  {
    Phase phase(g_times.compute_s);
    const int nn = static_cast<int>(n), query = -1;
    int info = 0, liwork = 0;
    T lwork_t{};
    Scalapack<T>::getri(&nn, ca.local.data(), &kOne, &kOne, ca.desc, ipiv.data(), &lwork_t, &query, &liwork, &query,
                        &info);
    require_ok_arguments(name, "p?getri (workspace query)", info);
    const int lwork = static_cast<int>(std::real(lwork_t)) + 1;
    std::vector<T> work(static_cast<std::size_t>(lwork));
    std::vector<int> iwork(static_cast<std::size_t>(std::max(liwork, 1)));
    Scalapack<T>::getri(&nn, ca.local.data(), &kOne, &kOne, ca.desc, ipiv.data(), work.data(), &lwork, iwork.data(),
                        &liwork, &info);
    require_ok_arguments(name, "p?getri", info);
    if (info > 0) throw SingularMatrix(name, info);
  }
  store(ca, inv);  // inv(M) stored as a transpose (or as itself after the fallback): inv(A)
}

// inv = A⁻¹ of a symmetric (Hermitian) positive definite A from its lower triangle: p?potrf,
// p?potri (the inverse of M in the triangle the factorization used), then M⁻¹ = X + Xᴴ with X
// that triangle and half the diagonal (p?tran / p?tranc). M holds Aᵀ = conj(A): stored back as
// a transpose, conj(A⁻¹)ᵀ = A⁻¹.
template <class T>
void cholesky_inverse_typed(const Array& a, Array& inv) {
  const char* name = "linalg::cholesky_inverse";
  BlacsGrid grid(a.group(), &a);
  const Index n = a.dims()[0];
  CyclicMatrix<T> m = load_square<T>(name, grid, a, Reads::lower_triangle);
  factor_cholesky(name, m);
  const bool upper = m.holds == Holds::transpose;  // the triangle factor_cholesky used
  CyclicMatrix<T> whole = m;
  {
    Phase phase(g_times.compute_s);
    const int nn = static_cast<int>(n);
    int info = 0;
    Scalapack<T>::potri(upper ? "U" : "L", &nn, m.local.data(), &kOne, &kOne, m.desc, &info, 1);
    require_ok_arguments(name, "p?potri", info);
    if (info > 0) throw SingularMatrix(name, info);  // a zero diagonal of the factor: potrf refuses those
    keep_half_triangle(m, upper);
    whole.local = m.local;
    const T one(1);
    Scalapack<T>::tranc(&nn, &nn, &one, m.local.data(), &kOne, &kOne, m.desc, &one, whole.local.data(), &kOne, &kOne,
                        whole.desc);
  }
  store(whole, inv);
}

// l = the lower Cholesky factor of A (A = L Lᴴ, from A's lower triangle), its strict upper
// triangle zero. M holds Aᵀ = conj(A) = Uᴴ U after p?potrf 'U', stored back as a transpose:
// Uᵀ, lower, and conj(A) = Uᴴ U gives A = Uᵀ conj(U) = L Lᴴ (the same L when M holds A itself).
template <class T>
void cholesky_typed(const Array& a, Array& l) {
  const char* name = "linalg::cholesky";
  BlacsGrid grid(a.group());
  CyclicMatrix<T> m = load_square<T>(name, grid, a, Reads::lower_triangle);
  factor_cholesky(name, m);
  keep_half_triangle(m, m.holds == Holds::transpose, false);
  store(m, l);
}

}  // namespace

// The symmetric eigensolver's typed half lives in eigen.cpp.
template <class T>
void eigen_typed(const Array& a, Array& v, void* eigenvalues);

namespace {

// An output matrix of a's type, group and dims (V, Ainv).
void require_output(const char* op, const char* arg, const Array& out, const Array& a) {
  require_matrix(op, arg, out);
  require_like(op, arg, out, "a", a);
  if (out.dims() != a.dims())
    reject(op, arg, out.name() + " with dims " + out.dims().str(), "must have a's dims (" + a.dims().str() + ")");
}

// The frame of every ScaLAPACK operation: every member checks its arguments and all agree
// (which also makes earlier updates of A seen), then reset the times, apply the BLAS thread
// setting, run, and sync after (results visible).
template <class Checks, class F>
void run_synced(const char* op, const Array& a, const Array& out, Checks&& checks, F&& typed) {
  begin_collective(op, a, checks, {arrays::same_shape("a", a), arrays::same_shape("out", out)});
  g_times = {};
  reset_redistributions();
  apply_blas_threads();
  dispatch(a, typed);
  out.sync();
}

// run_synced for an operation from square matrix a into `out` (named out_arg) of a's kind.
template <class F>
void run_square_to(const char* op, const Array& a, Array& out, const char* out_arg, F&& typed) {
  run_synced(op, a, out, [&] {
    require_square(op, "a", a);
    require_output(op, out_arg, out, a);
  }, typed);
}

}  // namespace

void lu_solve(Op op, const Array& a, Array& b) {
  const char* name = "linalg::lu_solve";
  run_synced(name, a, b, [&] {
    require_op(name, "op", op);
    require_square(name, "a", a);
    require_rhs(name, a, b);
  }, [&]<class T>() { lu_solve_typed<T>(op, a, b); });
}

void cholesky_solve(const Array& a, Array& b) {
  const char* name = "linalg::cholesky_solve";
  run_synced(name, a, b, [&] {
    require_square(name, "a", a);
    require_rhs(name, a, b);
  }, [&]<class T>() { cholesky_solve_typed<T>(a, b); });
}

void inverse(const Array& a, Array& inv) {
  run_square_to("linalg::inverse", a, inv, "inv", [&]<class T>() { inverse_typed<T>(a, inv); });
}

void cholesky_inverse(const Array& a, Array& inv) {
  run_square_to("linalg::cholesky_inverse", a, inv, "inv", [&]<class T>() { cholesky_inverse_typed<T>(a, inv); });
}

void cholesky(const Array& a, Array& l) {
  run_square_to("linalg::cholesky", a, l, "l", [&]<class T>() { cholesky_typed<T>(a, l); });
}

void eigen_symmetric(const Array& a, Array& v, void* eigenvalues) {
  const char* name = "linalg::eigen_symmetric";
  run_synced(name, a, v, [&] {
    require_square(name, "a", a);
    require_output(name, "v", v, a);
    if (!eigenvalues) reject(name, "eigenvalues", "null", "must hold n values");
  }, [&]<class T>() { eigen_typed<T>(a, v, eigenvalues); });
}

}  // namespace detail
}  // namespace armada::linalg
