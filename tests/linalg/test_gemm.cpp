// gemm and matmul_patch against serial BLAS: every element type, every op combination,
// non-square shapes, every distribution kind, alpha and beta including 0. The tests run with a
// small k-panel (ARMADA_LINALG_GEMM_PANEL in CMakeLists.txt) so that the double-buffered panel
// loop and its staggered start are exercised, as well as the single-panel case (k <= panel).
#include <cmath>

#include "linalg_test_util.hpp"

namespace armada::linalg::test {
namespace {

template <class T>
class Gemm : public ::testing::Test {};
TYPED_TEST_SUITE(Gemm, Types);

// ‖C − Cref‖_F ≤ 8 (k + 2) ε (|alpha| ‖A‖_F ‖B‖_F + |beta| ‖C0‖_F): the standard forward bound of
// a sum of k products, with a small constant.
template <class T>
void expect_close(const std::vector<T>& got, const std::vector<T>& want, Index k, T alpha, double norm_a,
                  double norm_b, T beta, double norm_c0, const std::string& what) {
  std::vector<T> diff(got.size());
  for (std::size_t i = 0; i < got.size(); ++i) diff[i] = got[i] - want[i];
  const double scale = std::abs(alpha) * norm_a * norm_b + std::abs(beta) * norm_c0;
  const double bound = 8.0 * static_cast<double>(k + 2) * eps<T>() * std::max(scale, 1e-30);
  EXPECT_LE(frobenius(diff), bound) << what;
}

struct Case {
  int op_a, op_b;
  Index m, n, k;
};

template <class T>
void run_whole(Dist da, Dist db, Dist dc, const Case& c, T alpha, T beta, std::mt19937_64& rng) {
  const Index ar = c.op_a ? c.k : c.m, ac = c.op_a ? c.m : c.k;
  const Index br = c.op_b ? c.n : c.k, bc = c.op_b ? c.k : c.n;
  const auto va = random_matrix<T>(rng, ar * ac), vb = random_matrix<T>(rng, br * bc),
             vc = random_matrix<T>(rng, c.m * c.n);
  auto a = make_matrix(da, ar, ac, va);
  auto b = make_matrix(db, br, bc, vb);
  auto cc = make_matrix(dc, c.m, c.n, vc);
  gemm(static_cast<Op>(c.op_a), static_cast<Op>(c.op_b), alpha, a, b, beta, cc);
  std::vector<T> want = vc;
  reference_gemm(c.op_a, c.op_b, c.m, c.n, c.k, alpha, va, ac, vb, bc, beta, want);
  expect_close(read_all(cc), want, c.k, alpha, frobenius(va), frobenius(vb), beta, frobenius(vc),
               std::string("A ") + name(da) + " B " + name(db) + " C " + name(dc) + " op " + std::to_string(c.op_a) +
                   std::to_string(c.op_b) + " m n k " + std::to_string(c.m) + " " + std::to_string(c.n) + " " +
                   std::to_string(c.k));
  EXPECT_EQ(read_all(a), va);  // A and B are only read
  EXPECT_EQ(read_all(b), vb);
  a.destroy();
  b.destroy();
  cc.destroy();
}

TYPED_TEST(Gemm, EveryOpEveryDistributionAgainstBlas) {
  using T = TypeParam;
  LINALG_RNG(rng, 14);
  int count = 0;
  for (Dist d : all_dists)
    for (int op_a = 0; op_a < 3; ++op_a)
      for (int op_b = 0; op_b < 3; ++op_b) {
        // Non-square, k spanning several panels; the distributions of A, B, C rotate.
        const Case c{op_a, op_b, 13, 9, 21};
        const Dist db = all_dists[(static_cast<int>(d) + 1) % 4], dc = all_dists[(static_cast<int>(d) + 2) % 4];
        const T alpha = random_value<T>(rng);
        const T beta = count % 3 == 0 ? T(0) : count % 3 == 1 ? T(1) : random_value<T>(rng);
        run_whole<T>(d, db, dc, c, alpha, beta, rng);
        ++count;
      }
}

// A, B and C block-cyclic (each layout in each place) and mixed with a regular one: C's blocks
// are computed in place, A's and B's panels fetched.
TYPED_TEST(Gemm, BlockCyclicOperandsAgainstBlas) {
  using T = TypeParam;
  LINALG_RNG(rng, 15);
  for (int i = 0; i < 3; ++i)
    for (int op = 0; op < 3; ++op) {
      const Dist da = cyclic_dists[i], db = cyclic_dists[(i + 1) % 3], dc = cyclic_dists[(i + 2) % 3];
      run_whole<T>(da, db, dc, Case{op, (op + 1) % 3, 13, 9, 21}, random_value<T>(rng), random_value<T>(rng), rng);
      run_whole<T>(Dist::regular, da, dc, Case{op, 0, 7, 11, 5}, T(1), T(0), rng);
    }
}

TYPED_TEST(Gemm, ShapesAndScalars) {
  using T = TypeParam;
  LINALG_RNG(rng, 41);
  // Single panel, one row, one column, k = 1, a tall skinny product, and alpha = 0.
  const Case cases[] = {{0, 0, 5, 6, 7}, {1, 0, 1, 17, 4}, {0, 2, 19, 1, 30}, {2, 1, 6, 6, 1}, {0, 1, 40, 3, 5}};
  for (const Case& c : cases) {
    run_whole<T>(Dist::regular, Dist::irregular, Dist::empty_owner, c, random_value<T>(rng), random_value<T>(rng), rng);
    run_whole<T>(Dist::empty_owner, Dist::regular, Dist::grid, c, T(0), random_value<T>(rng), rng);
  }
}

TYPED_TEST(Gemm, BetaZeroOverwritesNaN) {
  using T = TypeParam;
  LINALG_RNG(rng, 7);
  const Index n = 11;
  const auto va = random_matrix<T>(rng, n * n), vb = random_matrix<T>(rng, n * n);
  std::vector<T> nan(static_cast<std::size_t>(n * n), T(std::numeric_limits<R<T>>::quiet_NaN()));
  auto a = make_matrix(Dist::regular, n, n, va), b = make_matrix(Dist::grid, n, n, vb);
  auto c = make_matrix(Dist::irregular, n, n, nan);  // with 2+ ranks, one rank owns a single row
  gemm(Op::none, Op::none, T(1), a, b, T(0), c);
  std::vector<T> want(nan.size(), T(0));
  reference_gemm(0, 0, n, n, n, T(1), va, n, vb, n, T(0), want);
  expect_close(read_all(c), want, n, T(1), frobenius(va), frobenius(vb), T(0), 0.0, "beta 0 over NaN");
  // alpha = 0 and beta = 0: C becomes exactly zero without reading A or B.
  c.sync();  // everybody has read C before it is refilled
  if (rma::rank() == 0) c.put({0, 0}, {n, n}, nan.data());
  c.sync();
  gemm(Op::none, Op::none, T(0), a, b, T(0), c);
  EXPECT_EQ(read_all(c), std::vector<T>(nan.size(), T(0)));
  a.destroy();
  b.destroy();
  c.destroy();
}

// matmul_patch: random sub-patches (GA's semantics: patches as stored, op applied to them), the
// rest of C untouched; A and B may be one array.
TYPED_TEST(Gemm, MatmulPatchAgainstBlas) {
  using T = TypeParam;
  LINALG_RNG(rng, 99);
  const Index dim = 23;
  int count = 0;
  for (int op_a = 0; op_a < 3; ++op_a)
    for (int op_b = 0; op_b < 3; ++op_b) {
      const Dist d = all_dists[count % 4];
      const Index m = 4 + count % 7, n = 3 + (count * 5) % 9, k = 2 + (count * 3) % 17;
      const Index ar = op_a ? k : m, ac = op_a ? m : k, br = op_b ? n : k, bc = op_b ? k : n;
      const auto va = random_matrix<T>(rng, dim * dim), vb = random_matrix<T>(rng, dim * dim),
                 vc = random_matrix<T>(rng, dim * dim);
      auto a = make_matrix(d, dim, dim, va);
      auto b = make_matrix(all_dists[(count + 1) % 4], dim, dim, vb);
      auto c = make_matrix(all_dists[(count + 3) % 4], dim, dim, vc);
      const bool same_ab = count % 4 == 1;  // op(A)·op(A-patch) reads one array twice
      const auto& bsrc = same_ab ? a : b;
      const auto& vbsrc = same_ab ? va : vb;
      const Coord alo{dim - ar - count % 3, count % 5}, blo{count % 4, dim - bc - 1}, clo{2, 3 + count % 2};
      const Coord ahi{alo[0] + ar, alo[1] + ac}, bhi{blo[0] + br, blo[1] + bc}, chi{clo[0] + m, clo[1] + n};
      const T alpha = random_value<T>(rng), beta = count % 2 ? random_value<T>(rng) : T(0);
      matmul_patch(static_cast<Op>(op_a), static_cast<Op>(op_b), alpha, a, alo, ahi, bsrc, blo, bhi, beta, c, clo,
                   chi);
      // Reference on the dense patches.
      auto sub = [&](const std::vector<T>& v, const Coord& lo, const Coord& hi) {
        std::vector<T> s;
        for (Index i = lo[0]; i < hi[0]; ++i)
          for (Index j = lo[1]; j < hi[1]; ++j) s.push_back(v[static_cast<std::size_t>(i * dim + j)]);
        return s;
      };
      const auto pa = sub(va, alo, ahi), pb = sub(vbsrc, blo, bhi), pc = sub(vc, clo, chi);
      std::vector<T> want_patch = pc;
      reference_gemm(op_a, op_b, m, n, k, alpha, pa, ac, pb, bc, beta, want_patch);
      const auto got = read_all(c);
      expect_close(sub(got, clo, chi), want_patch, k, alpha, frobenius(pa), frobenius(pb), beta, frobenius(pc),
                   "patch op " + std::to_string(op_a) + std::to_string(op_b));
      // Outside the C patch nothing changed, bit for bit.
      for (Index i = 0; i < dim; ++i)
        for (Index j = 0; j < dim; ++j)
          if (i < clo[0] || i >= chi[0] || j < clo[1] || j >= chi[1]) {
            EXPECT_EQ(got[static_cast<std::size_t>(i * dim + j)], vc[static_cast<std::size_t>(i * dim + j)]);
          }
      a.destroy();
      b.destroy();
      c.destroy();
      ++count;
    }
}

// An empty k (a 0-wide patch of A): C = beta C.
TYPED_TEST(Gemm, EmptyInnerDimensionScalesC) {
  using T = TypeParam;
  LINALG_RNG(rng, 3);
  const Index n = 9;
  const auto va = random_matrix<T>(rng, n * n), vc = random_matrix<T>(rng, n * n);
  auto a = make_matrix(Dist::regular, n, n, va), b = make_matrix(Dist::irregular, n, n, va);
  auto c = make_matrix(Dist::empty_owner, n, n, vc);
  const T beta = random_value<T>(rng);
  matmul_patch(Op::none, Op::none, T(1), a, {0, 4}, {n, 4}, b, {4, 0}, {4, n}, beta, c, {0, 0}, {n, n});
  const auto got = read_all(c);
  for (std::size_t i = 0; i < got.size(); ++i) {
    const T want = beta * vc[i];
    EXPECT_LE(std::abs(got[i] - want), 4 * eps<T>() * std::abs(want));
  }
  a.destroy();
  b.destroy();
  c.destroy();
}

}  // namespace
}  // namespace armada::linalg::test
