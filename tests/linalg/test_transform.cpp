// transpose and symmetrize: exact results on every element type and distribution.
#include "linalg_test_util.hpp"

namespace armada::linalg::test {
namespace {

template <class T>
class Transform : public ::testing::Test {};
TYPED_TEST_SUITE(Transform, Types);

TYPED_TEST(Transform, TransposeBetweenAnyDistributions) {
  using T = TypeParam;
  LINALG_RNG(rng, 5);
  for (Dist da : every_dist)
    for (Dist db : every_dist) {
      const Index m = 7 + static_cast<int>(da), n = 12 - static_cast<int>(db);
      const auto va = random_matrix<T>(rng, m * n);
      auto a = make_matrix(da, m, n, va);
      auto b = make_matrix(db, n, m, random_matrix<T>(rng, m * n));
      transpose(a, b);
      const auto got = read_all(b);
      for (Index i = 0; i < n; ++i)
        for (Index j = 0; j < m; ++j)
          EXPECT_EQ(got[static_cast<std::size_t>(i * m + j)], va[static_cast<std::size_t>(j * n + i)])
              << name(da) << " -> " << name(db) << " at " << i << "," << j;
      EXPECT_EQ(read_all(a), va);
      a.destroy();
      b.destroy();
    }
}

TYPED_TEST(Transform, SymmetrizeEveryDistribution) {
  using T = TypeParam;
  LINALG_RNG(rng, 6);
  for (Dist d : every_dist) {
    const Index n = 10 + static_cast<int>(d);
    const auto va = random_matrix<T>(rng, n * n);
    auto a = make_matrix(d, n, n, va);
    symmetrize(a);
    const auto got = read_all(a);
    for (Index i = 0; i < n; ++i)
      for (Index j = 0; j < n; ++j) {
        const T want = (va[static_cast<std::size_t>(i * n + j)] + va[static_cast<std::size_t>(j * n + i)]) * T(0.5);
        EXPECT_EQ(got[static_cast<std::size_t>(i * n + j)], want) << name(d) << " at " << i << "," << j;
      }
    a.destroy();
  }
}

// conj element by element on every distribution (real types: unchanged), also non-square.
TYPED_TEST(Transform, ConjugateEveryDistribution) {
  using T = TypeParam;
  LINALG_RNG(rng, 7);
  for (Dist d : every_dist) {
    const Index m = 9 + static_cast<int>(d), n = 7;
    const auto va = random_matrix<T>(rng, m * n);
    auto a = make_matrix(d, m, n, va);
    conjugate(a);
    const auto got = read_all(a);
    for (std::size_t k = 0; k < va.size(); ++k) {
      if constexpr (std::is_floating_point_v<T>) EXPECT_EQ(got[k], va[k]) << name(d) << " at " << k;
      else EXPECT_EQ(got[k], std::conj(va[k])) << name(d) << " at " << k;
    }
    a.destroy();
  }
}

}  // namespace
}  // namespace armada::linalg::test
