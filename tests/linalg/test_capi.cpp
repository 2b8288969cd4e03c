// The C API: results equal the C++ API's, every error becomes its code, message and index.
#include "armada/linalg/c_api.h"

#include "armada/linalg/c_api_errors.hpp"
#include "linalg_test_util.hpp"

namespace armada::linalg::test {
namespace {

int create(int64_t rows, int64_t cols, int type = ARMADA_GA_DOUBLE) {
  const int64_t dims[2] = {rows, cols};
  int h = -1;
  EXPECT_EQ(armada_ga_create(type, 2, dims, "capi", nullptr, &h), ARMADA_GA_OK) << armada_ga_error_message();
  return h;
}

void put_all(int h, int64_t rows, int64_t cols, const std::vector<double>& v) {
  const int64_t lo[2] = {0, 0}, hi[2] = {rows, cols};
  EXPECT_EQ(armada_ga_sync_group(h), ARMADA_GA_OK);  // every rank has read the old contents
  if (rma::rank() == 0) {
    EXPECT_EQ(armada_ga_put(h, lo, hi, v.data(), nullptr), ARMADA_GA_OK);
  }
  EXPECT_EQ(armada_ga_sync_group(h), ARMADA_GA_OK);
}

std::vector<double> get_all(int h, int64_t rows, int64_t cols) {
  std::vector<double> v(static_cast<std::size_t>(rows * cols));
  const int64_t lo[2] = {0, 0}, hi[2] = {rows, cols};
  EXPECT_EQ(armada_ga_get(h, lo, hi, v.data(), nullptr), ARMADA_GA_OK);
  return v;
}

TEST(LinalgCapi, GemmPatchTransposeMatchTheCppApi) {
  LINALG_RNG(rng, 12);
  const int64_t m = 7, n = 5, k = 6;
  const auto va = random_matrix<double>(rng, k * m), vb = random_matrix<double>(rng, k * n);
  const int a = create(k, m), b = create(k, n), c = create(m, n), t = create(m, k);
  put_all(a, k, m, va);
  put_all(b, k, n, vb);
  const double alpha = 0.5, beta = 0;
  ASSERT_EQ(armada_la_gemm(ARMADA_LA_TRANS, ARMADA_LA_NOTRANS, &alpha, a, b, &beta, c), ARMADA_GA_OK)
      << armada_la_error_message();
  std::vector<double> want(static_cast<std::size_t>(m * n), 0.0);
  reference_gemm(1, 0, m, n, k, alpha, va, m, vb, n, beta, want);
  const auto got = get_all(c, m, n);
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-13);
  // The same through matmul_patch on the whole arrays, and transpose.
  const int64_t alo[2] = {0, 0}, ahi[2] = {k, m}, blo[2] = {0, 0}, bhi[2] = {k, n}, clo[2] = {0, 0}, chi[2] = {m, n};
  ASSERT_EQ(armada_la_matmul_patch(ARMADA_LA_TRANS, ARMADA_LA_NOTRANS, &alpha, a, alo, ahi, b, blo, bhi, &beta, c, clo,
                                   chi),
            ARMADA_GA_OK);
  EXPECT_EQ(get_all(c, m, n), got);
  ASSERT_EQ(armada_la_transpose(a, t), ARMADA_GA_OK);
  const auto tt = get_all(t, m, k);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < k; ++j) EXPECT_EQ(tt[static_cast<std::size_t>(i * k + j)], va[static_cast<std::size_t>(j * m + i)]);
  // Errors: a shape that does not conform, C aliasing A, an unknown handle, a bad op.
  EXPECT_EQ(armada_la_gemm(0, 0, &alpha, a, b, &beta, c), ARMADA_GA_ERR_ARG);
  EXPECT_NE(std::string(armada_la_error_message()).find("linalg::gemm"), std::string::npos) << armada_la_error_message();
  EXPECT_EQ(armada_la_gemm(1, 0, &alpha, a, b, &beta, a), ARMADA_GA_ERR_ARG);
  EXPECT_EQ(armada_la_gemm(1, 0, &alpha, a, b, &beta, 999999), ARMADA_GA_ERR_HANDLE);
  EXPECT_NE(std::string(armada_la_error_message()).find("armada_la_gemm: argument 'array' = 999999"), std::string::npos)
      << armada_la_error_message();
  EXPECT_EQ(armada_la_gemm(7, 0, &alpha, a, b, &beta, c), ARMADA_GA_ERR_ARG);
  EXPECT_EQ(armada_la_set_blas_threads(-2), ARMADA_GA_ERR_ARG);
  const int f = create(m, n, ARMADA_GA_FLOAT);
  EXPECT_EQ(armada_la_gemm(1, 0, &alpha, a, b, &beta, f), ARMADA_GA_ERR_TYPE);
  EXPECT_EQ(get_all(c, m, n), got);  // nothing moved
  for (int h : {a, b, c, t, f}) EXPECT_EQ(armada_ga_destroy(h), ARMADA_GA_OK);
}

TEST(LinalgCapi, SolvesAndNumericalErrors) {
  const int64_t n = 6;
  std::vector<double> va(static_cast<std::size_t>(n * n), 0.0), vb(static_cast<std::size_t>(n), 1.0);
  for (int64_t i = 0; i < n; ++i) va[static_cast<std::size_t>(i * n + i)] = static_cast<double>(i + 1);
  const int a = create(n, n), b = create(n, 1), v = create(n, n);
  put_all(a, n, n, va);
  put_all(b, n, 1, vb);
  ASSERT_EQ(armada_la_cholesky_solve(a, b), ARMADA_GA_OK) << armada_la_error_message();
  auto expect_solution = [&](const std::vector<double>& x) {
    for (int64_t i = 0; i < n; ++i) EXPECT_NEAR(x[static_cast<std::size_t>(i)], 1.0 / static_cast<double>(i + 1), 1e-14);
  };
  expect_solution(get_all(b, n, 1));
  put_all(b, n, 1, vb);
  ASSERT_EQ(armada_la_lu_solve(ARMADA_LA_NOTRANS, a, b), ARMADA_GA_OK);
  const auto x = get_all(b, n, 1);
  expect_solution(x);
  std::vector<double> w(static_cast<std::size_t>(n));
  ASSERT_EQ(armada_la_eigen_symmetric(a, v, w.data()), ARMADA_GA_OK);
  for (int64_t i = 0; i < n; ++i) EXPECT_NEAR(w[static_cast<std::size_t>(i)], static_cast<double>(i + 1), 1e-13);
  ASSERT_EQ(armada_la_inverse(a, v), ARMADA_GA_OK);
  EXPECT_NEAR(get_all(v, n, n)[static_cast<std::size_t>(n * n - 1)], 1.0 / static_cast<double>(n), 1e-14);
  ASSERT_EQ(armada_la_cholesky_inverse(a, v), ARMADA_GA_OK);
  EXPECT_NEAR(get_all(v, n, n)[static_cast<std::size_t>(n * n - 1)], 1.0 / static_cast<double>(n), 1e-14);
  // Singular (row 4 zero) and not positive definite (a negative entry at 4): codes and index.
  va[static_cast<std::size_t>(3 * n + 3)] = 0;
  put_all(a, n, n, va);
  EXPECT_EQ(armada_la_lu_solve(ARMADA_LA_NOTRANS, a, b), ARMADA_LA_ERR_SINGULAR);
  EXPECT_EQ(armada_la_error_index(), 4);
  va[static_cast<std::size_t>(3 * n + 3)] = -1;
  put_all(a, n, n, va);
  EXPECT_EQ(armada_la_cholesky_solve(a, b), ARMADA_LA_ERR_NOT_POSITIVE_DEFINITE);
  EXPECT_EQ(armada_la_cholesky_inverse(a, v), ARMADA_LA_ERR_NOT_POSITIVE_DEFINITE);
  EXPECT_EQ(armada_la_error_index(), 4);
  EXPECT_NE(std::string(armada_la_error_message()).find("minor of order 4"), std::string::npos);
  EXPECT_EQ(get_all(b, n, 1), x);
  for (int h : {a, b, v}) EXPECT_EQ(armada_ga_destroy(h), ARMADA_GA_OK);
}

// One rank passing a bad handle to a collective fails every rank (regression: the others hung).
TEST(LinalgCapi, CollectiveWithOneBadMemberFailsOnEveryMember) {
  const int a = create(3, 3), b = create(3, 3), c = create(3, 3);
  const bool last = rma::rank() == rma::size() - 1;
  const double one = 1, zero = 0;
  EXPECT_NE(armada_la_gemm(0, 0, &one, last ? 987654 : a, b, &zero, c), ARMADA_GA_OK);
  EXPECT_NE(std::string(armada_la_error_message()).find("armada_la_gemm"), std::string::npos) << armada_la_error_message();
  EXPECT_NE(armada_la_gemm(0, 0, &one, a, b, &zero, last ? a : c), ARMADA_GA_OK);  // C aliasing A on one rank
  EXPECT_NE(armada_la_lu_solve(0, a, last ? 987654 : b), ARMADA_GA_OK);
  EXPECT_EQ(armada_la_gemm(0, 0, &one, a, b, &zero, c), ARMADA_GA_OK) << armada_la_error_message();  // still usable
  for (int h : {a, b, c}) EXPECT_EQ(armada_ga_destroy(h), ARMADA_GA_OK);
}

// Every error kind has its code, from the API's one table: the arrays API's codes (checked in
// tests/arrays) and the three numerical ones.
TEST(LinalgCApi, EachErrorKindHasItsCode) {
  using K = rma::ErrorKind;
  for (std::size_t i = 0; i < rma::error_kind_count; ++i) {
    const auto kind = static_cast<K>(i);
    if (kind != K::singular && kind != K::not_positive_definite && kind != K::no_convergence)
      EXPECT_EQ(capi::error_codes[kind], arrays::capi::error_codes[kind]) << rma::to_string(kind);
  }
  EXPECT_EQ(capi::error_codes[K::singular], ARMADA_LA_ERR_SINGULAR);
  EXPECT_EQ(capi::error_codes[K::not_positive_definite], ARMADA_LA_ERR_NOT_POSITIVE_DEFINITE);
  EXPECT_EQ(capi::error_codes[K::no_convergence], ARMADA_LA_ERR_NO_CONVERGENCE);
  EXPECT_EQ(capi::error_codes[K::handle], ARMADA_GA_ERR_HANDLE);
  // The numerical errors carry their kinds.
  EXPECT_EQ(SingularMatrix("op", 2).kind(), K::singular);
  EXPECT_EQ(NotPositiveDefinite("op", 2).kind(), K::not_positive_definite);
  EXPECT_EQ(NoConvergence("op", 2).kind(), K::no_convergence);
  EXPECT_EQ(NoConvergence("op", 2).index(), 2);
}

}  // namespace
}  // namespace armada::linalg::test
