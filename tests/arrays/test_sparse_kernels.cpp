// The product's row kernels (arrays/src/sparse/kernels.cpp): every build this CPU runs gives the
// rows' sums within rounding of a long double reference, for rows of 0 to 40 entries (the vector
// build's 16-entry steps, its 4-entry steps and its scalar tail) and both stored index widths;
// where the CPU has AVX2 and FMA, products use that build by default.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <random>

#include "sparse/sparse_internal.hpp"

namespace armada::arrays::test {
namespace {

using sparse_detail::PlanCsr;
using sparse_detail::RowKernel;

/// Rows of 0, 1, ..., max_length entries at random columns below `columns`, values in [-1, 1).
PlanCsr<double> rows_of_every_length(std::mt19937_64& rng, int max_length, sparse_detail::Local columns) {
  PlanCsr<double> c;
  std::uniform_int_distribution<sparse_detail::Local> col(0, columns - 1);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  for (int length = 0; length <= max_length; ++length) {
    for (int k = 0; k < length; ++k) {
      c.col.push_back(col(rng));
      c.val.push_back(value(rng));
    }
    c.ptr.push_back(static_cast<std::int64_t>(c.val.size()));
  }
  c.col.narrow_if_within(columns);
  return c;
}

/// Restores the kernel in use when the test ends.
struct KernelGuard {
  RowKernel saved = sparse_detail::row_kernel();
  ~KernelGuard() { sparse_detail::use_row_kernel(saved); }
};

void check_kernels(sparse_detail::Local columns) {
  std::mt19937_64 rng(7 + static_cast<unsigned>(columns));
  const PlanCsr<double> c = rows_of_every_length(rng, 40, columns);
  std::vector<double> x(static_cast<std::size_t>(columns));
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  for (double& v : x) v = value(rng);
  std::vector<sparse_detail::Local> rows(c.rows());
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = static_cast<sparse_detail::Local>(rows.size() - 1 - i);

  KernelGuard guard;
  for (RowKernel kernel : sparse_detail::supported_row_kernels()) {
    SCOPED_TRACE(sparse_detail::row_kernel_name(kernel));
    sparse_detail::use_row_kernel(kernel);
    std::vector<double> y(c.rows(), 0.25), added(c.rows(), 0.5);
    sparse_detail::csr_rows(c, x.data(), y.data(), 2.0, 3.0);            // y = 2 A x + 3 y
    sparse_detail::csr_rows_add(c, rows.data(), x.data(), added.data(), -1.0);  // added[rows[r]] -= (A x)[r]
    for (std::size_t r = 0; r < c.rows(); ++r) {
      long double dot = 0, magnitude = 0;
      for (auto k = static_cast<std::size_t>(c.ptr[r]); k < static_cast<std::size_t>(c.ptr[r + 1]); ++k) {
        dot += static_cast<long double>(c.val[k]) * x[static_cast<std::size_t>(c.col[k])];
        magnitude += std::fabs(static_cast<long double>(c.val[k]) * x[static_cast<std::size_t>(c.col[k])]);
      }
      // Each build's rounding: at most 64 epsilons of the terms' magnitudes (40 terms a row).
      const double tolerance = 64 * DBL_EPSILON * static_cast<double>(magnitude);
      EXPECT_NEAR(y[r], static_cast<double>(2 * dot + 0.75L), 2 * tolerance) << "csr_rows, row of " << r << " entries";
      EXPECT_NEAR(added[static_cast<std::size_t>(rows[r])], static_cast<double>(0.5L - dot), tolerance)
          << "csr_rows_add, row of " << r << " entries";
    }
  }
}

TEST(SparseKernels, EveryBuildSumsRowsOfEveryLengthWithNarrowIndices) { check_kernels(1000); }

TEST(SparseKernels, EveryBuildSumsRowsOfEveryLengthWithWideIndices) { check_kernels(70000); }

TEST(SparseKernels, ProductsUseTheVectorBuildWhereTheCpuHasIt) {
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  EXPECT_EQ(sparse_detail::supported_row_kernels().size(), avx2 ? 2u : 1u);
  EXPECT_EQ(sparse_detail::row_kernel(), avx2 ? RowKernel::avx2 : RowKernel::baseline);
  if (!avx2) {
    EXPECT_THROW(sparse_detail::use_row_kernel(RowKernel::avx2), std::invalid_argument);
  }
}

}  // namespace
}  // namespace armada::arrays::test
