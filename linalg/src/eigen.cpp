// The symmetric (Hermitian) eigensolver: p?syevd / p?heevd on a block-cyclic copy.
#include <mpi.h>

#include <algorithm>
#include <complex>

#include "armada/linalg/settings.hpp"
#include "armada/rma/collectives.hpp"
#include "armada/linalg/solve.hpp"
#include "block_cyclic.hpp"
#include "scalapack.hpp"

namespace armada::linalg::detail {

namespace {

constexpr int kOne = 1;

// A is loaded as its transpose M (Holds::transpose: blocks land in place), whose upper
// triangle holds A's lower one: M = conj(A) as a Hermitian matrix, with A's eigenvalues and
// the conjugates of A's eigenvectors (conjugated back before V is stored).
template <class T>
const char* uplo_of(const CyclicMatrix<T>& a) {
  return a.holds == Holds::transpose ? "U" : "L";
}

// Workspace beyond what the p?syevd / p?heevd queries return. The routines inside get what the
// query left them, and for matrices not much larger than a block that is too little: the
// back-transformation p?ormtr (p?unmtr) rejects LWORK ("parameter number 16 had an illegal
// value", e.g. n = 26 with the default nb = 64) and the eigenvector sort p?lasrt rejects it
// ("parameter number 9", from the real workspace of the complex routines, e.g. n = 26, nb = 16
// on 2 ranks); both return, the driver still reports success, and the eigenvectors are wrong.
// Their documented needs: p?ormtr (SIDE = 'L') max(nb (nb - 1) / 2, (NqC0 + MpC0) nb) + nb²,
// with NqC0, MpC0 at most the local columns and rows plus a block; p?lasrt max(n, NP (nb + NQ))
// with NP, NQ the local rows and columns. Adding the larger to both workspaces covers either.
template <class T>
int workspace_margin(const CyclicMatrix<T>& a) {
  const long nb = a.nb, rows = a.locr, cols = a.locc;
  const long ormtr = std::max(nb * (nb - 1) / 2, (rows + cols + 2 * nb) * nb) + nb * nb;
  const long lasrt = std::max<long>(a.rows, rows * (nb + cols));
  return static_cast<int>(std::min<long>(std::max(ormtr, lasrt), 1L << 30));
}

// Divide and conquer: a workspace query (lwork = -1), then the solve. Real types.
template <class T>
int syevd(void (*routine)(const char*, const char*, const int*, T*, const int*, const int*, const int*, T*, T*,
                          const int*, const int*, const int*, T*, const int*, int*, const int*, int*, std::size_t,
                          std::size_t),
          CyclicMatrix<T>& a, CyclicMatrix<T>& z, T* w) {
  const int n = static_cast<int>(a.rows), query = -1;
  int info = 0, liwork = 0;
  T lwork_t{};
  routine("V", uplo_of(a), &n, a.local.data(), &kOne, &kOne, a.desc, w, z.local.data(), &kOne, &kOne, z.desc, &lwork_t,
          &query, &liwork, &query, &info, 1, 1);
  if (info != 0) return info;
  const int lwork = static_cast<int>(lwork_t) + 1 + workspace_margin(a);
  std::vector<T> work(static_cast<std::size_t>(lwork));
  std::vector<int> iwork(static_cast<std::size_t>(std::max(liwork, 1)));
  routine("V", uplo_of(a), &n, a.local.data(), &kOne, &kOne, a.desc, w, z.local.data(), &kOne, &kOne, z.desc, work.data(),
          &lwork, iwork.data(), &liwork, &info, 1, 1);
  return info;
}

// The same for complex types (Hermitian), which also take a real workspace.
template <class R>
int heevd(void (*routine)(const char*, const char*, const int*, std::complex<R>*, const int*, const int*, const int*,
                          R*, std::complex<R>*, const int*, const int*, const int*, std::complex<R>*, const int*, R*,
                          const int*, int*, const int*, int*, std::size_t, std::size_t),
          CyclicMatrix<std::complex<R>>& a, CyclicMatrix<std::complex<R>>& z, R* w) {
  const int n = static_cast<int>(a.rows), query = -1;
  int info = 0, liwork = 0;
  std::complex<R> lwork_t{};
  R lrwork_t{};
  routine("V", uplo_of(a), &n, a.local.data(), &kOne, &kOne, a.desc, w, z.local.data(), &kOne, &kOne, z.desc, &lwork_t,
          &query, &lrwork_t, &query, &liwork, &query, &info, 1, 1);
  if (info != 0) return info;
  const int lwork = static_cast<int>(lwork_t.real()) + 1 + workspace_margin(a);
  const int lrwork = static_cast<int>(lrwork_t) + 1 + workspace_margin(a);
  std::vector<std::complex<R>> work(static_cast<std::size_t>(lwork));
  std::vector<R> rwork(static_cast<std::size_t>(lrwork));
  std::vector<int> iwork(static_cast<std::size_t>(std::max(liwork, 1)));
  routine("V", uplo_of(a), &n, a.local.data(), &kOne, &kOne, a.desc, w, z.local.data(), &kOne, &kOne, z.desc, work.data(),
          &lwork, rwork.data(), &lrwork, iwork.data(), &liwork, &info, 1, 1);
  return info;
}

int solve(CyclicMatrix<float>& a, CyclicMatrix<float>& z, float* w) { return syevd(pssyevd_, a, z, w); }
int solve(CyclicMatrix<double>& a, CyclicMatrix<double>& z, double* w) { return syevd(pdsyevd_, a, z, w); }
int solve(CyclicMatrix<std::complex<float>>& a, CyclicMatrix<std::complex<float>>& z, float* w) {
  return heevd(pcheevd_, a, z, w);
}
int solve(CyclicMatrix<std::complex<double>>& a, CyclicMatrix<std::complex<double>>& z, double* w) {
  return heevd(pzheevd_, a, z, w);
}

}  // namespace

template <class T>
void eigen_typed(const Array& a, Array& v, void* eigenvalues) {
  const char* name = "linalg::eigen_symmetric";
  BlacsGrid grid(a.group(), &a);
  const Index n = a.dims()[0];
  CyclicMatrix<T> ca(grid, n, n, scalapack_block(), Holds::transpose), cz(grid, n, n, scalapack_block());
  Redistribution<T> fetch;
  fetch.fetch(a, ca);
  fetch.complete_fetches();
  require_finite(name, "a", a, ca, a.group().comm(), Reads::lower_triangle);
  std::vector<Real<T>> w(static_cast<std::size_t>(n));
  int info = solve(ca, cz, w.data());
  // A matrix of at most one block is solved by the process holding it alone (p?stedc calls the
  // serial ?stedc there), and only that process has the eigenvalues and the status: grid
  // process (0, 0), group rank 0, hands them to the others.
  rma::collective_serving(name, [&](MPI_Request* r) { return MPI_Ibcast(&info, 1, MPI_INT, 0, a.group().comm(), r); });
  rma::collective_serving(name, [&](MPI_Request* r) {
    return MPI_Ibcast(w.data(), static_cast<int>(w.size() * sizeof(Real<T>)), MPI_BYTE, 0, a.group().comm(), r);
  });
  require_ok_arguments(name, "p?syevd/p?heevd", info);
  if (info > 0) throw NoConvergence(name, info);
  if constexpr (!std::is_floating_point_v<T>)
    for (T& z : cz.local) z = std::conj(z);  // M's eigenvectors are A's conjugated
  Redistribution<T>::store(cz, v);
  std::copy(w.begin(), w.end(), static_cast<Real<T>*>(eigenvalues));
}

template void eigen_typed<float>(const Array&, Array&, void*);
template void eigen_typed<double>(const Array&, Array&, void*);
template void eigen_typed<std::complex<float>>(const Array&, Array&, void*);
template void eigen_typed<std::complex<double>>(const Array&, Array&, void*);

}  // namespace armada::linalg::detail
