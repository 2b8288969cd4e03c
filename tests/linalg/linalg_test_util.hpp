// Helpers of the linalg tests: matrices of every distribution kind, random contents written by
// group rank 0 (every rank draws the same values from a generator seeded alike), whole-array
// reads, Frobenius norms, a serial reference gemm, and seeded generators.
#pragma once

#include <gtest/gtest.h>

#include <cblas.h>

#include <cmath>
#include <complex>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "../arrays/test_util.hpp"  // expect_error, PrintTo(Coord)
#include "armada/linalg/linalg.hpp"
#include "test_seed.hpp"

/// `name`: a generator seeded with ARMADA_TEST_SEED (default `fallback`); every failure in the
/// enclosing scope shows the seed.
#define LINALG_RNG(name, fallback)                                       \
  const std::uint64_t name##_seed = ::armada::test::test_seed(fallback); \
  SEED_TRACE(name##_seed);                                               \
  std::mt19937_64 name(name##_seed)

namespace armada::linalg::test {

using arrays::ArrayOptions;
using arrays::Coord;
using arrays::GlobalArray;
using arrays::Index;
using arrays::test::expect_error;
using arrays::test::expect_every_rank_fails;
using arrays::test::last_rank;

using Types = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;

template <class T>
using R = Real<T>;

template <class T>
constexpr R<T> eps() { return std::numeric_limits<R<T>>::epsilon(); }

/// How an array is cut: the arrays layer's balanced default, a chosen 1 x P grid, uneven
/// irregular blocks, and irregular blocks with empty ones and ranks that own nothing.
enum class Dist { regular, grid, irregular, empty_owner, cyclic, proc_grid, tiled };
inline const char* name(Dist d) {
  static const char* n[] = {"regular", "grid", "irregular", "empty-owner", "block-cyclic", "proc-grid", "tiled"};
  return n[static_cast<int>(d)];
}
inline constexpr Dist all_dists[] = {Dist::regular, Dist::grid, Dist::irregular, Dist::empty_owner};
/// arrays' block-cyclic layouts (small uneven blocks, a grid of all ranks).
inline constexpr Dist cyclic_dists[] = {Dist::cyclic, Dist::proc_grid, Dist::tiled};
/// Both kinds.
inline constexpr Dist every_dist[] = {Dist::regular, Dist::grid,      Dist::irregular, Dist::empty_owner,
                                      Dist::cyclic,  Dist::proc_grid, Dist::tiled};

inline ArrayOptions options_for(Dist d, const Coord& dims, int nprocs) {
  ArrayOptions o;
  o.name = name(d);
  switch (d) {
    case Dist::regular: break;
    case Dist::grid: o.grid = {1, nprocs}; break;
    case Dist::irregular: {
      // Rows in min(2, P) blocks (the first one row long), columns in the rest, uneven.
      const int pr = nprocs >= 2 ? 2 : 1, pc = nprocs / pr;
      std::vector<Index> rows{0}, cols{0};
      if (pr == 2) rows.push_back(std::min<Index>(1, dims[0]));
      for (int c = 1; c < pc; ++c) cols.push_back(std::min<Index>(dims[1], cols.back() + 1 + c));
      o.block_starts = {rows, cols};
      break;
    }
    case Dist::cyclic: o.distribution = arrays::Distribution::block_cyclic(dims, {3, 2}, nprocs); break;
    case Dist::proc_grid:
    case Dist::tiled:
      o.distribution = arrays::Distribution::block_cyclic(dims, {2, 3}, {nprocs >= 2 ? 2 : 1, nprocs / (nprocs >= 2 ? 2 : 1)},
                                                          nprocs, d == Dist::tiled);
      break;
    case Dist::empty_owner: {
      // One fewer block than ranks (the last rank owns nothing) and an empty middle row block.
      std::vector<Index> rows{0};
      if (nprocs >= 3) rows = {0, dims[0] / 2, dims[0] / 2};
      o.block_starts = {rows, {0}};
      break;
    }
  }
  return o;
}

template <class T>
T random_value(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
    return static_cast<T>(u(rng));
  else
    return T(static_cast<R<T>>(u(rng)), static_cast<R<T>>(u(rng)));
}

template <class T>
std::vector<T> random_matrix(std::mt19937_64& rng, Index elements) {
  std::vector<T> v(static_cast<std::size_t>(elements));
  for (auto& x : v) x = random_value<T>(rng);
  return v;
}

/// A rows x cols array of distribution `d` holding `values` (row-major). Collective.
template <class T>
GlobalArray<T> make_matrix(Dist d, Index rows, Index cols, const std::vector<T>& values) {
  const Coord dims{rows, cols};
  auto a = GlobalArray<T>::create(dims, options_for(d, dims, rma::size()));
  if (rma::rank() == 0) a.put({0, 0}, dims, values.data());
  a.sync();
  return a;
}

template <class T>
std::vector<T> read_all(const GlobalArray<T>& a) { return a.get({0, 0}, a.dims()); }

/// An n x n diagonal matrix, 2 on the diagonal but -1 in row `negative` (zero-based): its
/// leading minor of order negative + 1 is the first that is not positive definite.
template <class T>
std::vector<T> indefinite_diagonal(Index n, Index negative) {
  std::vector<T> v(static_cast<std::size_t>(n * n), T(0));
  for (Index i = 0; i < n; ++i) v[static_cast<std::size_t>(i * n + i)] = T(i == negative ? -1 : 2);
  return v;
}

/// f() must throw NotPositiveDefinite naming the minor of order `order`.
template <class F>
void expect_not_positive_definite(F&& f, Index order) {
  try {
    f();
    ADD_FAILURE() << "no NotPositiveDefinite";
  } catch (const NotPositiveDefinite& e) {
    EXPECT_EQ(e.index(), order);
    EXPECT_EQ(e.kind(), rma::ErrorKind::not_positive_definite);
    EXPECT_NE(std::string(e.what()).find("minor of order " + std::to_string(order)), std::string::npos) << e.what();
  }
}

template <class T>
double frobenius(const std::vector<T>& v) {
  double s = 0;
  for (const T& x : v) s += std::norm(std::complex<double>(x));
  return std::sqrt(s);
}

/// Element (i, j) of op(X) where X is rows x cols row-major (op: 0 none, 1 T, 2 H).
template <class T>
T op_at(const std::vector<T>& x, Index cols, int op, Index i, Index j) {
  const T v = op == 0 ? x[static_cast<std::size_t>(i * cols + j)] : x[static_cast<std::size_t>(j * cols + i)];
  if constexpr (!std::is_same_v<T, float> && !std::is_same_v<T, double>)
    if (op == 2) return std::conj(v);
  return v;
}

/// Serial BLAS reference of C = alpha op(A) op(B) + beta C (row-major, dense).
template <class T>
void reference_gemm(int op_a, int op_b, Index m, Index n, Index k, T alpha, const std::vector<T>& a, Index lda,
                    const std::vector<T>& b, Index ldb, T beta, std::vector<T>& c) {
  const auto ta = op_a == 0 ? CblasNoTrans : op_a == 1 ? CblasTrans : CblasConjTrans;
  const auto tb = op_b == 0 ? CblasNoTrans : op_b == 1 ? CblasTrans : CblasConjTrans;
  const int M = static_cast<int>(m), N = static_cast<int>(n), K = static_cast<int>(k);
  const int la = static_cast<int>(std::max<Index>(1, lda)), lb = static_cast<int>(std::max<Index>(1, ldb));
  const int lc = std::max(1, N);
  if (m == 0 || n == 0) return;
  if constexpr (std::is_same_v<T, float>)
    cblas_sgemm(CblasRowMajor, ta, tb, M, N, K, alpha, a.data(), la, b.data(), lb, beta, c.data(), lc);
  else if constexpr (std::is_same_v<T, double>)
    cblas_dgemm(CblasRowMajor, ta, tb, M, N, K, alpha, a.data(), la, b.data(), lb, beta, c.data(), lc);
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    cblas_cgemm(CblasRowMajor, ta, tb, M, N, K, &alpha, a.data(), la, b.data(), lb, &beta, c.data(), lc);
  else
    cblas_zgemm(CblasRowMajor, ta, tb, M, N, K, &alpha, a.data(), la, b.data(), lb, &beta, c.data(), lc);
}

}  // namespace armada::linalg::test
