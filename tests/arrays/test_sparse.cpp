// Sparse matrices: spmv and its transpose against a dense serial reference on random matrices
// (square and rectangular, empty rows and columns, ranks owning no rows, irregular row and
// vector distributions, both element types, beta != 0), the ghost plan, and bad input.
#include <gtest/gtest.h>

#include "armada/arrays/sparse.hpp"
#include "test_util.hpp"

namespace armada::arrays::test {
namespace {

template <class T>
T random_value(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  if constexpr (std::is_same_v<T, std::complex<double>>) return T(u(rng), u(rng));
  else return u(rng);
}

/// A random matrix, the same on every rank: the triplets (with duplicates) and its dense form.
template <class T>
struct RandomMatrix {
  Index rows, cols;
  std::vector<Triplet<T>> all;
  std::vector<T> dense;  // row-major
};

/// Rows in `empty_rows` and columns in `empty_cols` get no entries.
template <class T>
RandomMatrix<T> random_matrix(std::mt19937_64& rng, Index rows, Index cols, double density,
                              const std::vector<Index>& empty_rows = {}, const std::vector<Index>& empty_cols = {}) {
  RandomMatrix<T> m{rows, cols, {}, std::vector<T>(static_cast<std::size_t>(rows * cols), T(0))};
  const auto n = static_cast<std::size_t>(density * static_cast<double>(rows * cols)) + 1;
  std::uniform_int_distribution<Index> r(0, rows - 1), c(0, cols - 1);
  auto banned = [](const std::vector<Index>& v, Index i) { return std::find(v.begin(), v.end(), i) != v.end(); };
  for (std::size_t k = 0; k < n; ++k) {
    const Index i = r(rng), j = c(rng);
    if (banned(empty_rows, i) || banned(empty_cols, j)) continue;
    const T v = random_value<T>(rng);
    m.all.push_back({i, j, v});
    if (k % 5 == 0) m.all.push_back({i, j, v * 0.5});  // a duplicate: summed
  }
  for (const auto& t : m.all) m.dense[static_cast<std::size_t>(t.row * cols + t.col)] += t.value;
  return m;
}

/// This rank's share of the triplets: every size-th, so rows arrive from every rank.
template <class T>
std::vector<Triplet<T>> my_share(const RandomMatrix<T>& m) {
  std::vector<Triplet<T>> mine;
  for (std::size_t k = static_cast<std::size_t>(rma::rank()); k < m.all.size(); k += static_cast<std::size_t>(rma::size()))
    mine.push_back(m.all[k]);
  return mine;
}

/// Random row starts over `n` with some equal starts (ranks without rows).
std::vector<Index> random_starts(std::mt19937_64& rng, Index n, int nprocs) {
  std::vector<Index> s{0};
  for (int p = 1; p < nprocs; ++p) s.push_back(std::uniform_int_distribution<Index>(s.back(), n)(rng));
  if (nprocs > 1) s[1] = 0;  // rank 0 owns no rows
  return s;
}

template <class T>
GlobalArray<T> vector_of(const std::vector<T>& values, const ArrayOptions& o) {
  auto v = GlobalArray<T>::create({static_cast<Index>(values.size())}, o);
  if (rma::rank() == 0) v.put({0}, {static_cast<Index>(values.size())}, values.data());
  v.sync();
  return v;
}

template <class T>
void expect_near_all(const std::vector<T>& got, const std::vector<T>& want, const std::string& label) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    EXPECT_LE(std::abs(got[i] - want[i]), 1e-12 * (1.0 + std::abs(want[i]))) << label << " entry " << i;
}

/// alpha * M x + beta * y, or with M's transpose, serially.
template <class T>
std::vector<T> dense_product(const RandomMatrix<T>& m, bool transposed, T alpha, const std::vector<T>& x, T beta,
                             const std::vector<T>& y) {
  const Index n = transposed ? m.cols : m.rows, k = transposed ? m.rows : m.cols;
  std::vector<T> out(static_cast<std::size_t>(n));
  for (Index i = 0; i < n; ++i) {
    T s(0);
    for (Index j = 0; j < k; ++j)
      s += m.dense[static_cast<std::size_t>(transposed ? j * m.cols + i : i * m.cols + j)] * x[static_cast<std::size_t>(j)];
    out[static_cast<std::size_t>(i)] = alpha * s + beta * y[static_cast<std::size_t>(i)];
  }
  return out;
}

/// One case: builds the matrix, runs both products with alpha/beta, compares with the dense form.
template <class T>
void check_products(const RandomMatrix<T>& m, const SparseOptions& mo, const ArrayOptions& xo, const ArrayOptions& yo,
                    const std::string& label, std::mt19937_64& rng) {
  const auto mine = my_share(m);
  auto A = SparseMatrix<T>::create(m.rows, m.cols, mine, mo);
  Index stored = 0;
  for (const T& v : m.dense) stored += v != T(0) ? 1 : 0;
  EXPECT_LE(A.nonzeros(), static_cast<Index>(m.all.size())) << label;
  EXPECT_GE(A.nonzeros(), stored) << label;  // entries summing to zero stay stored

  std::vector<T> xv(static_cast<std::size_t>(m.cols)), yv(static_cast<std::size_t>(m.rows));
  for (auto& v : xv) v = random_value<T>(rng);
  for (auto& v : yv) v = random_value<T>(rng);
  const T alpha = random_value<T>(rng), beta = random_value<T>(rng);

  // y = alpha A x + beta y
  auto x = vector_of(xv, xo);
  auto y = vector_of(yv, yo);
  std::vector<T> want = dense_product(m, false, alpha, xv, beta, yv);
  spmv(A, x, y, alpha, beta);
  expect_near_all(y.get({0}, {m.rows}), want, label + " spmv");
  // Again (the cached transfers are reused), with beta = 0: y's old values are ignored.
  spmv(A, x, y, alpha);
  for (Index i = 0; i < m.rows; ++i) want[static_cast<std::size_t>(i)] -= beta * yv[static_cast<std::size_t>(i)];
  expect_near_all(y.get({0}, {m.rows}), want, label + " spmv again, beta 0");

  // y' = alpha A^T x' + beta y'  (x' over the rows, y' over the columns)
  auto xt = vector_of(yv, yo);
  auto yt = vector_of(xv, xo);
  const std::vector<T> want_t = dense_product(m, true, alpha, yv, beta, xv);
  spmv_transposed(A, xt, yt, alpha, beta);
  expect_near_all(yt.get({0}, {m.cols}), want_t, label + " spmv_transposed");
  for (auto* a : {&x, &y, &xt, &yt}) a->destroy();
}

template <class T>
class Sparse : public ::testing::Test {};
using SparseTypes = ::testing::Types<double, std::complex<double>>;
TYPED_TEST_SUITE(Sparse, SparseTypes);

TYPED_TEST(Sparse, SquareBalanced) {
  std::mt19937_64 rng(11);
  const auto m = random_matrix<TypeParam>(rng, 57, 57, 0.1);
  check_products(m, {}, {}, {}, "square balanced", rng);
}

TYPED_TEST(Sparse, RectangularWithEmptyRowsAndColumns) {
  std::mt19937_64 rng(12);
  for (auto [rows, cols] : {std::pair<Index, Index>{40, 93}, {101, 17}, {1, 30}, {25, 1}}) {
    const auto m = random_matrix<TypeParam>(rng, rows, cols, 0.15, {0, rows / 2, rows - 1}, {cols / 3});
    check_products(m, {}, {}, {}, "rectangular " + std::to_string(rows) + "x" + std::to_string(cols), rng);
  }
}

TYPED_TEST(Sparse, IrregularRowsAndRankWithoutRows) {
  std::mt19937_64 rng(13);
  for (int round = 0; round < 3; ++round) {
    const auto m = random_matrix<TypeParam>(rng, 64, 48, 0.08);
    SparseOptions mo;
    mo.name = "irregular";
    mo.row_starts = random_starts(rng, m.rows, rma::size());
    ArrayOptions yo;  // y distributed like the rows: the direct path
    yo.block_starts = {mo.row_starts};
    check_products(m, mo, {}, yo, "irregular rows, round " + std::to_string(round), rng);
  }
}

TYPED_TEST(Sparse, VectorsDistributedUnlikeTheMatrix) {
  std::mt19937_64 rng(14);
  const auto m = random_matrix<TypeParam>(rng, 70, 45, 0.1);
  ArrayOptions xo, yo;
  xo.block_starts = {random_starts(rng, m.cols, rma::size())};  // a new plan for x's distribution
  yo.block_starts = {random_starts(rng, m.rows, rma::size())};  // y patches through get/put
  check_products(m, {}, xo, yo, "irregular vectors", rng);
}

// Column indices are stored in 16 bits when a rank's x block (or its ghost slots) spans at most
// 2^16 columns, in 32 bits beyond: 300 000 columns give every rank (up to 4) a block wider than
// that, and 0.15 density on 4 rows gives ranks of a 2- or 4-rank run more than 2^16 ghosts.
TYPED_TEST(Sparse, ColumnBlocksBeyondSixteenBitIndices) {
  std::mt19937_64 rng(16);
  const auto m = random_matrix<TypeParam>(rng, 4, 300000, 0.15);
  check_products(m, {}, {}, {}, "300000 columns", rng);
}

// Row r holds r entries (0 .. 79), at scattered columns: the kernels take a row 4 entries at a
// time into interleaved sums and the rest one by one, so every split of a row (no 4-block, many,
// a tail of 0 .. 3) occurs, with local and ghost columns at every rank count.
TYPED_TEST(Sparse, RowsOfEveryLength) {
  std::mt19937_64 rng(17);
  const Index n = 80;
  RandomMatrix<TypeParam> m{n, n, {}, std::vector<TypeParam>(static_cast<std::size_t>(n * n), TypeParam(0))};
  for (Index r = 0; r < n; ++r)
    for (Index k = 0; k < r; ++k) {
      const Index c = (r * 31 + k * 37) % n;  // 37 is prime to 80: the r columns are distinct
      const TypeParam v = random_value<TypeParam>(rng);
      m.all.push_back({r, c, v});
      m.dense[static_cast<std::size_t>(r * n + c)] += v;
    }
  check_products(m, {}, {}, {}, "rows of every length", rng);
}

TYPED_TEST(Sparse, EmptyMatrix) {
  std::mt19937_64 rng(15);
  RandomMatrix<TypeParam> m{9, 6, {}, std::vector<TypeParam>(54, TypeParam(0))};
  check_products(m, {}, {}, {}, "no entries", rng);
}

// The plan: the ghost columns are exactly the columns this rank's rows touch outside its block
// of x, the runs are the maximal consecutive stretches per owner, and the traffic counts agree.
TEST(SparsePlan, GhostsAndRuns) {
  std::mt19937_64 rng(21);
  const auto m = random_matrix<double>(rng, 80, 80, 0.05);
  auto A = SparseMatrix<double>::create(m.rows, m.cols, my_share(m));
  const auto [r0, r1] = A.local_rows();
  const Patch xb = A.column_distribution().block(rma::rank());
  const Index xlo = xb.empty() ? 0 : xb.lo[0], xhi = xb.empty() ? 0 : xb.hi[0];
  std::vector<Index> want;
  for (Index j = 0; j < m.cols; ++j) {
    if (j >= xlo && j < xhi) continue;
    for (Index i = r0; i < r1; ++i)
      if (m.dense[static_cast<std::size_t>(i * m.cols + j)] != 0.0) { want.push_back(j); break; }
  }
  const auto got = A.ghost_columns();
  EXPECT_EQ(std::vector<Index>(got.begin(), got.end()), want);
  Index runs = 0, slots = 0;
  for (std::size_t k = 0; k < want.size(); ++k) {
    const bool same_owner = k > 0 && A.column_distribution().owner({want[k]}) == A.column_distribution().owner({want[k - 1]});
    if (!(k > 0 && want[k] == want[k - 1] + 1 && same_owner)) ++runs;
  }
  for (const auto& s : A.ghost_sources()) {
    EXPECT_EQ(s.first, slots);
    EXPECT_NE(s.rank, rma::rank());
    slots += s.count;
  }
  EXPECT_EQ(slots, static_cast<Index>(want.size()));
  const SpmvTraffic t = A.traffic();
  EXPECT_EQ(t.ghost_entries, static_cast<Index>(want.size()));
  EXPECT_EQ(t.runs, runs);
  EXPECT_EQ(t.bytes, want.size() * sizeof(double));
  if (rma::size() == 1) {
    EXPECT_EQ(t.sources, 0);
  }
}

// The split kernels give the product when the caller supplies the ghosts itself.
TEST(SparsePlan, SplitKernels) {
  std::mt19937_64 rng(22);
  const auto m = random_matrix<double>(rng, 50, 50, 0.1);
  auto A = SparseMatrix<double>::create(m.rows, m.cols, my_share(m));
  std::vector<double> xv(50);
  for (auto& v : xv) v = random_value<double>(rng);
  const auto [r0, r1] = A.local_rows();
  const Patch xb = A.column_distribution().block(rma::rank());
  std::vector<double> ghosts;
  for (Index c : A.ghost_columns()) ghosts.push_back(xv[static_cast<std::size_t>(c)]);
  std::vector<double> y(static_cast<std::size_t>(r1 - r0), 7.0);
  A.multiply_local(xb.empty() ? nullptr : xv.data() + xb.lo[0], y.data(), 2.0, 0.5);
  A.multiply_ghost(ghosts.data(), y.data(), 2.0);
  for (Index i = r0; i < r1; ++i) {
    double s = 0;
    for (Index j = 0; j < 50; ++j) s += m.dense[static_cast<std::size_t>(i * 50 + j)] * xv[static_cast<std::size_t>(j)];
    EXPECT_NEAR(y[static_cast<std::size_t>(i - r0)], 2.0 * s + 3.5, 1e-12) << "row " << i;
  }
}

// ---- bad input -----------------------------------------------------------------------------
TEST(SparseErrors, TripletOutOfBoundsOnOneRank) {
  std::vector<Triplet<double>> t{{0, 0, 1.0}, {1, 1, 1.0}};
  const bool culprit = rma::rank() == rma::size() - 1;
  if (culprit) t.push_back({2, 5, 1.0});  // column 5 of a 4 x 5 matrix
  SparseOptions o;
  o.name = "M";
  if (culprit)
    expect_error<rma::InvalidArgument>([&] { (void)SparseMatrix<double>::create(4, 5, t, o); },
                                       {"arrays::SparseMatrix::create", "sparse matrix 'M' (4 x 5)", "'triplets[2]' = (2, 5)",
                                        "column 5 is outside [0, 5)"});
  else
    expect_error<rma::InvalidArgument>([&] { (void)SparseMatrix<double>::create(4, 5, t, o); },
                                       {"arrays::SparseMatrix::create", "rank " + std::to_string(rma::size() - 1) +
                                        " failed, so the call failed on every member", "column 5 is outside [0, 5)"});
  std::vector<Triplet<double>> neg{{-1, 0, 1.0}};
  // Every rank passes a bad one: each reports its own.
  expect_error<rma::InvalidArgument>([&] { (void)SparseMatrix<double>::create(4, 5, neg, o); },
                                     {"'triplets[0]' = (-1, 0): sparse matrix 'M' (4 x 5): row -1 is outside [0, 4)"});
}

TEST(SparseErrors, BadShapeAndRowStarts) {
  std::vector<Triplet<double>> none;
  expect_error<rma::InvalidArgument>([&] { (void)SparseMatrix<double>::create(0, 5, none); }, {"'rows' = 0", "at least 1"});
  expect_error<rma::InvalidArgument>([&] { (void)SparseMatrix<double>::create(3, -2, none); }, {"'cols' = -2"});
  SparseOptions o;
  o.row_starts = {1};
  expect_error<rma::InvalidArgument>([&] { (void)SparseMatrix<double>::create(3, 3, none, o); }, {"'row_starts' = [1]", "start with 0"});
  o.row_starts = std::vector<Index>(static_cast<std::size_t>(rma::size()) + 1, 0);
  expect_error<rma::InvalidArgument>([&] { (void)SparseMatrix<double>::create(3, 3, none, o); }, {"'row_starts'", "blocks for a group of"});
}

TEST(SparseErrors, MismatchedVectors) {
  std::vector<Triplet<double>> t{{0, 0, 1.0}};
  SparseOptions o;
  o.name = "M";
  auto A = SparseMatrix<double>::create(4, 6, t, o);
  auto x6 = GlobalArray<double>::create({6}), y4 = GlobalArray<double>::create({4}), y5 = GlobalArray<double>::create({5});
  auto m2 = GlobalArray<double>::create({2, 2});
  expect_error<rma::InvalidArgument>([&] { spmv(A, y4, y4); }, {"arrays::spmv", "'x'", "needs a 1-D array of cols = 6"});
  expect_error<rma::InvalidArgument>([&] { spmv(A, x6, y5); }, {"arrays::spmv", "'y'", "dims [5]", "rows = 4"});
  expect_error<rma::InvalidArgument>([&] { spmv(A, x6, m2); }, {"arrays::spmv", "'y'", "dims [2, 2]"});
  expect_error<rma::InvalidArgument>([&] { spmv_transposed(A, x6, x6); }, {"arrays::spmv_transposed", "'x'", "rows = 4"});
  expect_error<rma::InvalidArgument>([&] { spmv_transposed(A, y4, y5); }, {"arrays::spmv_transposed", "'y'", "cols = 6"});
  auto sq = SparseMatrix<double>::create(6, 6, t, o);
  expect_error<rma::InvalidArgument>([&] { spmv(sq, x6, x6); }, {"arrays::spmv", "is x itself"});
  expect_error<rma::InvalidArgument>([&] { A.plan_for(Distribution::regular({5}, rma::size())); },
                                     {"arrays::SparseMatrix::plan_for", "'columns' = dims [5]", "cols = 6"});
  SparseMatrix<double> empty;
  expect_error<rma::InvalidArgument>([&] { spmv(empty, x6, y4); }, {"arrays::spmv", "'A' = null"});
  // Block-cyclic vectors: refused by name (the plan exchanges runs of one block per process).
  ArrayOptions cyclic;
  cyclic.distribution = Distribution::block_cyclic({6}, {2}, rma::size());
  auto c6 = GlobalArray<double>::create({6}, cyclic);
  expect_error<rma::InvalidArgument>([&] { spmv(A, c6, y4); }, {"arrays::spmv", "'x'", "block-cyclic"});
  expect_error<rma::InvalidArgument>([&] { A.plan_for(*cyclic.distribution); },
                                     {"arrays::SparseMatrix::plan_for", "'columns'", "block-cyclic"});
  for (auto* a : {&x6, &y4, &y5, &m2, &c6}) a->destroy();
}

}  // namespace
}  // namespace armada::arrays::test
