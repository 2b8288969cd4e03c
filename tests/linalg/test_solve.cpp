// LU and Cholesky solves (backward error), the symmetric eigensolver (residual, orthogonality,
// eigenvalues against serial LAPACK) and the inverse, on every element type, with a small
// ScaLAPACK block (ARMADA_LINALG_BLOCK in CMakeLists.txt) so that the block-cyclic layout and
// the redistribution have many blocks on every grid.
#include <limits>

#include "linalg_test_util.hpp"

extern "C" {
void ssyev_(const char*, const char*, const int*, float*, const int*, float*, float*, const int*, int*, std::size_t,
            std::size_t);
void dsyev_(const char*, const char*, const int*, double*, const int*, double*, double*, const int*, int*,
            std::size_t, std::size_t);
void cheev_(const char*, const char*, const int*, std::complex<float>*, const int*, float*, std::complex<float>*,
            const int*, float*, int*, std::size_t, std::size_t);
void zheev_(const char*, const char*, const int*, std::complex<double>*, const int*, double*, std::complex<double>*,
            const int*, double*, int*, std::size_t, std::size_t);
}

namespace armada::linalg::test {
namespace {

template <class T>
class Solve : public ::testing::Test {};
TYPED_TEST_SUITE(Solve, Types);

// Dense row-major products and norms on every rank (the matrices are small).
template <class T>
std::vector<T> multiply(int op_a, const std::vector<T>& a, Index n, const std::vector<T>& x, Index nrhs) {
  std::vector<T> y(static_cast<std::size_t>(n * nrhs), T(0));
  reference_gemm(op_a, 0, n, nrhs, n, T(1), a, n, x, nrhs, T(0), y);
  return y;
}

template <class T>
double backward_error(int op, const std::vector<T>& a, Index n, const std::vector<T>& x, const std::vector<T>& b,
                      Index nrhs) {
  std::vector<T> r = multiply(op, a, n, x, nrhs);
  for (std::size_t i = 0; i < r.size(); ++i) r[i] -= b[i];
  return frobenius(r) / (frobenius(a) * frobenius(x) * static_cast<double>(n) * eps<T>());
}

// A Hermitian positive definite matrix: M Mᴴ + n I.
template <class T>
std::vector<T> spd(std::mt19937_64& rng, Index n) {
  const auto m = random_matrix<T>(rng, n * n);
  std::vector<T> a(static_cast<std::size_t>(n * n), T(0));
  reference_gemm(0, 2, n, n, n, T(1), m, n, m, n, T(0), a);
  for (Index i = 0; i < n; ++i) a[static_cast<std::size_t>(i * n + i)] += T(static_cast<R<T>>(n));
  return a;
}

// Bound on the scaled backward errors: LAPACK's own tests accept up to 30.
constexpr double kBound = 30.0;

TYPED_TEST(Solve, LuManyRightHandSidesEveryOp) {
  using T = TypeParam;
  LINALG_RNG(rng, 1);
  const Index n = 37, nrhs = 6;
  for (int op = 0; op < 3; ++op) {
    const Dist d = all_dists[op % 4];
    const auto va = random_matrix<T>(rng, n * n), vb = random_matrix<T>(rng, n * nrhs);
    auto a = make_matrix(d, n, n, va);
    auto b = make_matrix(all_dists[(op + 2) % 4], n, nrhs, vb);
    lu_solve(a, b, static_cast<Op>(op));
    const auto x = read_all(b);
    EXPECT_LE(backward_error(op, va, n, x, vb, nrhs), kBound) << "op " << op << " A " << name(d);
    EXPECT_EQ(read_all(a), va);  // A is not modified
    const auto t = last_solve_times();
    EXPECT_GT(t.redistribute_s, 0.0);
    EXPECT_GT(t.compute_s, 0.0);
    a.destroy();
    b.destroy();
  }
}

TYPED_TEST(Solve, CholeskyEveryDistribution) {
  using T = TypeParam;
  LINALG_RNG(rng, 2);
  const Index n = 29, nrhs = 3;
  for (Dist d : every_dist) {
    const auto va = spd<T>(rng, n), vb = random_matrix<T>(rng, n * nrhs);
    auto a = make_matrix(d, n, n, va);
    auto b = make_matrix(Dist::regular, n, nrhs, vb);
    cholesky_solve(a, b);
    EXPECT_LE(backward_error(0, va, n, read_all(b), vb, nrhs), kBound) << name(d);
    EXPECT_EQ(read_all(a), va);
    a.destroy();
    b.destroy();
  }
}

template <class T>
std::vector<R<T>> serial_eigenvalues(std::vector<T> a, Index n) {
  // LAPACK is column-major: the row-major Hermitian A is its conjugate there, same eigenvalues.
  const int nn = static_cast<int>(n);
  std::vector<R<T>> w(static_cast<std::size_t>(n));
  int info = 0, lwork = static_cast<int>(4 * n);
  std::vector<T> work(static_cast<std::size_t>(lwork));
  std::vector<R<T>> rwork(static_cast<std::size_t>(3 * n));
  if constexpr (std::is_same_v<T, float>) ssyev_("N", "L", &nn, a.data(), &nn, w.data(), work.data(), &lwork, &info, 1, 1);
  if constexpr (std::is_same_v<T, double>) dsyev_("N", "L", &nn, a.data(), &nn, w.data(), work.data(), &lwork, &info, 1, 1);
  if constexpr (std::is_same_v<T, std::complex<float>>)
    cheev_("N", "L", &nn, a.data(), &nn, w.data(), work.data(), &lwork, rwork.data(), &info, 1, 1);
  if constexpr (std::is_same_v<T, std::complex<double>>)
    zheev_("N", "L", &nn, a.data(), &nn, w.data(), work.data(), &lwork, rwork.data(), &info, 1, 1);
  EXPECT_EQ(info, 0);
  return w;
}

// Cholesky and eigen read A's lower triangle only: a strict upper triangle of NaNs changes
// neither the solution nor the eigenvalues (the factorizations load A as its transpose and
// must then read its other triangle).
TYPED_TEST(Solve, CholeskyAndEigenReadOnlyTheLowerTriangle) {
  using T = TypeParam;
  LINALG_RNG(rng, 5);
  const Index n = 21, nrhs = 2;
  const auto full = spd<T>(rng, n), vb = random_matrix<T>(rng, n * nrhs);
  auto lower = full;
  for (Index i = 0; i < n; ++i)
    for (Index j = i + 1; j < n; ++j) lower[static_cast<std::size_t>(i * n + j)] = T(std::numeric_limits<R<T>>::quiet_NaN());
  auto a = make_matrix(Dist::grid, n, n, lower);
  auto b = make_matrix(Dist::regular, n, nrhs, vb);
  cholesky_solve(a, b);
  EXPECT_LE(backward_error(0, full, n, read_all(b), vb, nrhs), kBound);
  auto v = make_matrix(Dist::regular, n, n, std::vector<T>(full.size()));
  const std::vector<R<T>> w = eigen_symmetric(a, v);
  const auto ws = serial_eigenvalues(full, n);
  for (Index i = 0; i < n; ++i)
    EXPECT_LE(std::abs(w[static_cast<std::size_t>(i)] - ws[static_cast<std::size_t>(i)]),
              kBound * n * eps<T>() * frobenius(full)) << "eigenvalue " << i;
  for (auto* x : {&a, &b, &v}) x->destroy();
}

TYPED_TEST(Solve, EigenResidualOrthogonalityAndSerialEigenvalues) {
  using T = TypeParam;
  LINALG_RNG(rng, 3);
  const Index n = 26;
  for (Dist d : {Dist::regular, Dist::empty_owner}) {
    // Hermitian: (M + Mᴴ) / 2.
    const auto m = random_matrix<T>(rng, n * n);
    std::vector<T> va(m.size());
    for (Index i = 0; i < n; ++i)
      for (Index j = 0; j < n; ++j)
        va[static_cast<std::size_t>(i * n + j)] = (op_at(m, n, 0, i, j) + op_at(m, n, 2, i, j)) * T(0.5);
    auto a = make_matrix(d, n, n, va);
    auto v = make_matrix(Dist::irregular, n, n, std::vector<T>(va.size()));
    const std::vector<R<T>> w = eigen_symmetric(a, v);
    const auto vv = read_all(v);
    // ‖AV − VΛ‖ / (‖A‖ n ε) and ‖VᴴV − I‖ / (n ε).
    std::vector<T> av = multiply(0, va, n, vv, n);
    for (Index i = 0; i < n; ++i)
      for (Index j = 0; j < n; ++j) av[static_cast<std::size_t>(i * n + j)] -= vv[static_cast<std::size_t>(i * n + j)] * w[static_cast<std::size_t>(j)];
    EXPECT_LE(frobenius(av) / (frobenius(va) * n * eps<T>()), kBound) << name(d);
    std::vector<T> vhv(va.size(), T(0));
    reference_gemm(2, 0, n, n, n, T(1), vv, n, vv, n, T(0), vhv);
    for (Index i = 0; i < n; ++i) vhv[static_cast<std::size_t>(i * n + i)] -= T(1);
    EXPECT_LE(frobenius(vhv) / (n * eps<T>()), kBound) << name(d);
    const auto ws = serial_eigenvalues(va, n);
    for (Index i = 0; i < n; ++i)
      EXPECT_LE(std::abs(w[static_cast<std::size_t>(i)] - ws[static_cast<std::size_t>(i)]),
                kBound * n * eps<T>() * frobenius(va)) << "eigenvalue " << i;
    EXPECT_EQ(read_all(a), va);
    a.destroy();
    v.destroy();
  }
}

TYPED_TEST(Solve, InverseOutOfPlaceAndInPlace) {
  using T = TypeParam;
  LINALG_RNG(rng, 4);
  const Index n = 21;
  const auto va = random_matrix<T>(rng, n * n);
  auto a = make_matrix(Dist::grid, n, n, va);
  auto inv = make_matrix(Dist::empty_owner, n, n, std::vector<T>(va.size()));
  inverse(a, inv);
  auto check = [&](const std::vector<T>& x, const char* what) {
    std::vector<T> r = multiply(0, va, n, x, n);
    for (Index i = 0; i < n; ++i) r[static_cast<std::size_t>(i * n + i)] -= T(1);
    EXPECT_LE(frobenius(r) / (frobenius(va) * frobenius(x) * n * eps<T>()), kBound) << what;
  };
  check(read_all(inv), "out of place");
  EXPECT_EQ(read_all(a), va);
  inverse(a, a);
  check(read_all(a), "in place");
  a.destroy();
  inv.destroy();
}

// A and the result in ScaLAPACK's own layout (arrays' Layout::proc_grid with ScaLAPACK's block,
// on a grid over the whole group) are handed over without redistribution; every array in
// another layout costs one redistribution each way (last_solve_times().redistributions).
TYPED_TEST(Solve, RedistributionsOnlyWhereTheLayoutsDiffer) {
  using arrays::Distribution;
  using T = TypeParam;
  LINALG_RNG(rng, 9);
  const Index n = 23, nrhs = 4, nb = scalapack_block();
  const int P = rma::size();
  std::vector<Coord> grids{{P, 1}, {1, P}};
  if (P == 4) grids.push_back({2, 2});
  auto check = [&](const std::vector<T>& va, const std::vector<T>& x, const std::string& what) {
    std::vector<T> r = multiply(0, va, n, x, n);
    for (Index i = 0; i < n; ++i) r[static_cast<std::size_t>(i * n + i)] -= T(1);
    EXPECT_LE(frobenius(r) / (frobenius(va) * frobenius(x) * n * eps<T>()), kBound) << what;
  };
  auto create = [&](const Distribution& d, const std::vector<T>& v) {
    ArrayOptions o;
    o.distribution = d;
    auto x = GlobalArray<T>::create(d.dims(), o);
    if (rma::rank() == 0) x.put({0, 0}, d.dims(), v.data());
    x.sync();
    return x;
  };
  for (const Coord& g : grids) {
    SCOPED_TRACE("process grid " + g.str());
    const Distribution scalapack = Distribution::block_cyclic({n, n}, {nb, nb}, g, P);
    const auto va = random_matrix<T>(rng, n * n), vb = random_matrix<T>(rng, n * nrhs);
    const std::vector<T> zeros(va.size());
    auto a = create(scalapack, va), inv = create(scalapack, zeros);
    inverse(a, inv);
    EXPECT_EQ(last_solve_times().redistributions, 0) << "A and inv in ScaLAPACK's layout";
    check(va, read_all(inv), "inverse in ScaLAPACK's layout");
    EXPECT_EQ(read_all(a), va);
    auto regular = make_matrix(Dist::regular, n, n, zeros);
    inverse(a, regular);
    EXPECT_EQ(last_solve_times().redistributions, 1) << "the store into a regular array";
    check(va, read_all(regular), "inverse into a regular array");
    // The same blocks and grid, tiled (tiles one after another): another layout, both ways
    // redistributed.
    auto other = create(Distribution::block_cyclic({n, n}, {nb, nb}, g, P, true), va);
    inverse(other, other);
    EXPECT_EQ(last_solve_times().redistributions, 2) << "tiled";
    check(va, read_all(other), "inverse of a tiled array, in place");
    // A solve: A in place, B (regular) loaded and stored.
    auto b = make_matrix(Dist::regular, n, nrhs, vb);
    lu_solve(a, b, Op::none);
    EXPECT_EQ(last_solve_times().redistributions, 2) << "lu_solve: B in and out";
    EXPECT_LE(backward_error(0, va, n, read_all(b), vb, nrhs), kBound);
    inverse(a, a);
    EXPECT_EQ(last_solve_times().redistributions, 0) << "in place";
    check(va, read_all(a), "inverse in place in ScaLAPACK's layout");
    for (auto* x : {&a, &inv, &regular, &other, &b}) x->destroy();
  }
}

template <class T>
T conj_of(const T& x) {
  if constexpr (std::is_floating_point_v<T>) return x;
  else return std::conj(x);
}

// The Cholesky inverse reads A's lower triangle only (the upper one holds garbage here), gives
// the whole Hermitian inverse, and works in place; every distribution of A and of the result.
TYPED_TEST(Solve, CholeskyInverseFromTheLowerTriangle) {
  using T = TypeParam;
  LINALG_RNG(rng, 5);
  const Index n = 23;
  const auto va = spd<T>(rng, n);
  auto garbage = va;
  for (Index i = 0; i < n; ++i)
    for (Index j = i + 1; j < n; ++j) garbage[static_cast<std::size_t>(i * n + j)] = T(1000 + i + j);
  auto check = [&](const std::vector<T>& x, const std::string& what) {
    std::vector<T> r = multiply(0, va, n, x, n);
    for (Index i = 0; i < n; ++i) r[static_cast<std::size_t>(i * n + i)] -= T(1);
    EXPECT_LE(frobenius(r) / (frobenius(va) * frobenius(x) * n * eps<T>()), kBound) << what;
    for (Index i = 0; i < n; ++i)  // Hermitian to the last bit: one triangle is the other's mirror
      for (Index j = 0; j < i; ++j)
        EXPECT_EQ(x[static_cast<std::size_t>(i * n + j)], conj_of(x[static_cast<std::size_t>(j * n + i)])) << what;
  };
  for (int k = 0; k < 4; ++k) {
    auto a = make_matrix(all_dists[k], n, n, garbage);
    auto inv = make_matrix(all_dists[(k + 1) % 4], n, n, std::vector<T>(va.size()));
    cholesky_inverse(a, inv);
    check(read_all(inv), std::string("out of place, A ") + name(all_dists[k]));
    EXPECT_EQ(read_all(a), garbage);
    cholesky_inverse(a, a);
    check(read_all(a), std::string("in place, A ") + name(all_dists[k]));
    a.destroy();
    inv.destroy();
  }
}

TYPED_TEST(Solve, CholeskyInverseOfAnIndefiniteMatrixNamesTheMinorAndWritesNothing) {
  using T = TypeParam;
  const Index n = 9;
  const auto va = indefinite_diagonal<T>(n, 4);
  auto a = make_matrix(Dist::grid, n, n, va);
  auto inv = make_matrix(Dist::regular, n, n, std::vector<T>(va.size(), T(7)));
  expect_not_positive_definite([&] { cholesky_inverse(a, inv); }, 5);
  EXPECT_EQ(read_all(inv), std::vector<T>(va.size(), T(7)));
  EXPECT_EQ(read_all(a), va);
  a.destroy();
  inv.destroy();
}

// The Cholesky factor itself (GA's ga_cholesky): L lower with A = L Lᴴ, its strict upper triangle
// zero, from A's lower triangle (garbage above), out of place and in place on every distribution;
// an indefinite A names its minor and writes nothing.
TYPED_TEST(Solve, CholeskyFactorIsLowerAndReproducesA) {
  using T = TypeParam;
  LINALG_RNG(rng, 6);
  const Index n = 21;
  const auto va = spd<T>(rng, n);
  auto garbage = va;
  for (Index i = 0; i < n; ++i)
    for (Index j = i + 1; j < n; ++j) garbage[static_cast<std::size_t>(i * n + j)] = T(500 + i - j);
  auto check = [&](const std::vector<T>& l, const std::string& what) {
    for (Index i = 0; i < n; ++i)
      for (Index j = i + 1; j < n; ++j) EXPECT_EQ(l[static_cast<std::size_t>(i * n + j)], T(0)) << what;
    std::vector<T> r(va.size(), T(0));
    reference_gemm(0, 2, n, n, n, T(1), l, n, l, n, T(0), r);
    for (std::size_t k = 0; k < r.size(); ++k) r[k] -= va[k];
    EXPECT_LE(frobenius(r) / (frobenius(va) * n * eps<T>()), kBound) << what;
  };
  for (int k = 0; k < 4; ++k) {
    auto a = make_matrix(all_dists[k], n, n, garbage);
    auto l = make_matrix(all_dists[(k + 1) % 4], n, n, std::vector<T>(va.size(), T(3)));
    cholesky(a, l);
    check(read_all(l), std::string("out of place, A ") + name(all_dists[k]));
    EXPECT_EQ(read_all(a), garbage);
    cholesky(a, a);
    check(read_all(a), std::string("in place, A ") + name(all_dists[k]));
    a.destroy();
    l.destroy();
  }
  const auto bad = indefinite_diagonal<T>(n, 6);
  auto a = make_matrix(Dist::grid, n, n, bad);
  auto l = make_matrix(Dist::regular, n, n, std::vector<T>(bad.size(), T(7)));
  expect_not_positive_definite([&] { cholesky(a, l); }, 7);
  EXPECT_EQ(read_all(l), std::vector<T>(bad.size(), T(7)));
  a.destroy();
  l.destroy();
}

}  // namespace
}  // namespace armada::linalg::test
