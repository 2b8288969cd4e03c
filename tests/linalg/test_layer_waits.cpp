// The waits of the layers above rma serve this process's node as rma's own waits do
// (tests/rma/server_waits.hpp): with rank 0's node server thread held, each call below must
// complete. The arrays each call reads live on rank 0 alone (one block), so inside the call the
// other ranks' fetches need rank 0's node while rank 0, whose own reads are local, already waits
// in the call's next collective: a barrier before writing (copy), the zero-divisor check of an
// integer division (a reduction), the summaries of a scan, the barrier of a transposed sparse
// product, and linalg's check after its redistribution (eigen_symmetric). A blocking MPI
// collective there never serves them: the watchdog ends the job. Before they served, each of
// these hung here. The last rank also first gets an element from rank 0 (server_waits.hpp's
// pattern), served by rank 0 in the call's opening agreement.
#include <gtest/gtest.h>

#include <functional>
#include <span>
#include <vector>

#include "armada/arrays/arrays.hpp"
#include "armada/arrays/scan.hpp"
#include "armada/arrays/sparse.hpp"
#include "armada/linalg/linalg.hpp"
#include "armada/rma/rma.hpp"
#include "server_waits.hpp"

namespace {

using namespace armada;
using arrays::Coord;
using arrays::GlobalArray;
using arrays::Index;

constexpr Index kN = 12;

class LayerWaits : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!rma::test::server_shape())
      GTEST_SKIP() << "needs the server transport with rank 0 and the last rank on different nodes";
  }
};

// An array of `dims` held by rank 0 alone, with `values` (row-major) put by rank 0.
template <class T>
GlobalArray<T> on_rank0(const Coord& dims, const std::vector<T>& values) {
  arrays::ArrayOptions o;
  o.name = "on_rank0";
  for (int d = 0; d < dims.size(); ++d) o.block_starts.push_back({0});
  auto a = GlobalArray<T>::create(dims, o);
  if (rma::rank() == 0) a.put(Coord::filled(dims.size(), 0), dims, values.data());
  a.sync();
  return a;
}

// Runs `call` with rank 0's node server held; the last rank first gets element 0 of `a`.
template <class T>
void while_held(const char* what, const GlobalArray<T>& a, const std::function<void()>& call) {
  rma::test::while_held_then(what, call, [&] {
    const std::vector<T> got = a.get(Coord::filled(a.ndim(), 0), Coord::filled(a.ndim(), 1));
    EXPECT_EQ(got.size(), 1u);
  });
}

std::vector<long> iota_values(Index n, long first) {
  std::vector<long> v(static_cast<std::size_t>(n));
  for (Index i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = first + i;
  return v;
}

TEST_F(LayerWaits, CopyBarrier) {
  const std::vector<long> v = iota_values(kN, 1);
  auto a = on_rank0<long>(Coord{kN}, v);
  auto b = GlobalArray<long>::create(Coord{kN});
  while_held("arrays::copy", a, [&] { arrays::copy(a, b); });
  EXPECT_EQ(b.get(Coord{0}, Coord{kN}), v);
}

TEST_F(LayerWaits, DivisionZeroCheckReduction) {
  std::vector<long> num = iota_values(kN, 1), den = iota_values(kN, 1);
  for (long& x : num) x *= 10;
  auto a = on_rank0<long>(Coord{kN}, num);
  auto b = on_rank0<long>(Coord{kN}, den);
  auto c = GlobalArray<long>::create(Coord{kN});
  while_held("arrays::elem_divide", a, [&] { arrays::elem_divide(a, b, c); });
  EXPECT_EQ(c.get(Coord{0}, Coord{kN}), std::vector<long>(static_cast<std::size_t>(kN), 10));
}

TEST_F(LayerWaits, ScanSummaries) {
  const std::vector<long> v = iota_values(kN, 1);
  std::vector<int> mask(static_cast<std::size_t>(kN), 0);
  mask[0] = 1;  // one segment: the inclusive prefix sums
  auto src = on_rank0<long>(Coord{kN}, v);
  auto m = on_rank0<int>(Coord{kN}, mask);
  auto dst = GlobalArray<long>::create(Coord{kN});
  while_held("arrays::scan_add", src, [&] { arrays::scan_add(src, dst, m, 0, kN); });
  std::vector<long> want(static_cast<std::size_t>(kN));
  for (Index i = 0; i < kN; ++i) want[static_cast<std::size_t>(i)] = (i + 1) * (i + 2) / 2;
  EXPECT_EQ(dst.get(Coord{0}, Coord{kN}), want);
}

// Assembly itself (its triplet exchange waits serving too) and y = A^T x with x on rank 0.
TEST_F(LayerWaits, SparseAssemblyAndTransposedProduct) {
  std::vector<arrays::Triplet<double>> mine;  // rank 0 passes every row's triplet: they travel
  if (rma::rank() == 0)
    for (Index i = 0; i < kN; ++i) mine.push_back({i, kN - 1 - i, 2.0});
  std::vector<double> xv(static_cast<std::size_t>(kN));
  for (Index i = 0; i < kN; ++i) xv[static_cast<std::size_t>(i)] = static_cast<double>(i);
  auto x = on_rank0<double>(Coord{kN}, xv);
  arrays::SparseMatrix<double> A;
  while_held("arrays::SparseMatrix::create", x,
             [&] { A = arrays::SparseMatrix<double>::create(kN, kN, std::span<const arrays::Triplet<double>>(mine)); });
  auto y = GlobalArray<double>::create(Coord{kN});
  while_held("arrays::spmv_transposed", x, [&] { arrays::spmv_transposed(A, x, y); });
  std::vector<double> want(static_cast<std::size_t>(kN));
  for (Index j = 0; j < kN; ++j) want[static_cast<std::size_t>(j)] = 2.0 * static_cast<double>(kN - 1 - j);
  EXPECT_EQ(y.get(Coord{0}, Coord{kN}), want);
}

TEST_F(LayerWaits, EigenAfterRedistribution) {
  const Index n = 8;
  std::vector<double> av(static_cast<std::size_t>(n * n), 0.0);
  for (Index i = 0; i < n; ++i) av[static_cast<std::size_t>(i * n + i)] = static_cast<double>(n - i);
  auto a = on_rank0<double>(Coord{n, n}, av);
  auto v = GlobalArray<double>::create(Coord{n, n});
  std::vector<double> w;
  while_held("linalg::eigen_symmetric", a, [&] { w = linalg::eigen_symmetric(a, v); });
  ASSERT_EQ(w.size(), static_cast<std::size_t>(n));
  for (Index i = 0; i < n; ++i) EXPECT_DOUBLE_EQ(w[static_cast<std::size_t>(i)], static_cast<double>(i + 1));
}

}  // namespace
