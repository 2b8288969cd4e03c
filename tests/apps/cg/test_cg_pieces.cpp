// The pieces of armada-cg against what NPB's specification says of them: the matrix rows a
// rank generates are exactly the whole matrix's rows in that range (every rank draws the same
// random sequence), the matrix is symmetric with every diagonal entry present, the class table
// holds the official values, and the two communication variants give the same products.
#include <gtest/gtest.h>

#include <map>

#include "armada/rma/rma.hpp"
#include "cg_comm.hpp"
#include "cg_program.hpp"
#include "npb_cg.hpp"

namespace armada::apps::cg {
namespace {

TEST(CgMatrix, RowRangesAreSlicesOfTheWholeMatrix) {
  const CgClass& s = *find_cg_class('S');
  const auto whole = make_cg_matrix(s, 0, s.na);
  for (auto [lo, hi] : {std::pair<long, long>{0, 1}, {1, 700}, {700, 1399}, {1399, 1400}, {600, 600}}) {
    const auto part = make_cg_matrix(s, lo, hi);
    std::vector<arrays::Triplet<double>> want;
    for (const auto& t : whole)
      if (t.row >= lo && t.row < hi) want.push_back(t);
    ASSERT_EQ(part.size(), want.size()) << "rows [" << lo << ", " << hi << ")";
    for (std::size_t k = 0; k < part.size(); ++k) {
      EXPECT_EQ(part[k].row, want[k].row);
      EXPECT_EQ(part[k].col, want[k].col);
      EXPECT_EQ(part[k].value, want[k].value);  // bit for bit
    }
  }
}

TEST(CgMatrix, SymmetricWithShiftedDiagonal) {
  const CgClass& s = *find_cg_class('S');
  std::map<std::pair<long, long>, double> a;
  for (const auto& t : make_cg_matrix(s, 0, s.na)) a[{t.row, t.col}] += t.value;
  for (long i = 0; i < s.na; ++i) ASSERT_TRUE(a.count({i, i})) << "diagonal entry " << i << " missing";
  for (const auto& [ij, v] : a) {
    const auto it = a.find({ij.second, ij.first});
    ASSERT_NE(it, a.end()) << "(" << ij.first << ", " << ij.second << ") has no mirror";
    EXPECT_NEAR(it->second, v, 1e-14 * (1 + std::abs(v)));
  }
  // Each diagonal entry is rcond - shift plus squares (size_i v_k^2 > 0) from outer products.
  for (long i = 0; i < s.na; ++i) {
    const double d = a[{i, i}];
    EXPECT_GE(d, cg_rcond - s.shift) << "diagonal entry " << i;
  }
}

TEST(CgClasses, OfficialTable) {
  EXPECT_EQ(cg_class_letters(), "SWABC");
  const CgClass& b = *find_cg_class('B');
  EXPECT_EQ(b.na, 75000);
  EXPECT_EQ(b.nonzer, 13);
  EXPECT_EQ(b.niter, 75);
  EXPECT_EQ(b.shift, 60.0);
  EXPECT_EQ(b.zeta, 22.712745482631);
  EXPECT_EQ(find_cg_class('D'), nullptr);
  // NPB's operation count: 2 niter na (3 + nz(nz+1) + 25 (5 + nz(nz+1)) + 3) per second / 1e6.
  const CgClass& s = *find_cg_class('S');
  EXPECT_DOUBLE_EQ(cg_mops(s, 1.0), 2.0 * 15 * 1400 * (3 + 56 + 25 * (5 + 56) + 3) / 1e6);
}

// q = A p through arrays::spmv and through the MPI exchange: the same bits on every rank.
TEST(CgComm, BothVariantsGiveTheSameProduct) {
  const CgClass& s = *find_cg_class('S');
  auto A = build_cg_matrix(s);
  const auto [r0, r1] = A.local_rows();
  auto one = make_rma_comm(A);
  auto two = make_mpi_comm(A, MPI_COMM_WORLD);
  for (auto* c : {one.get(), two.get()}) {
    const CgVectors v = c->vectors();
    ASSERT_EQ(v.n, static_cast<std::size_t>(r1 - r0));
    for (std::size_t i = 0; i < v.n; ++i) v[Vec::z][i] = std::sin(static_cast<double>(r0) + static_cast<double>(i));
    c->multiply(Vec::z, Vec::r);
  }
  // Against a serial product of the whole matrix.
  std::vector<double> z(static_cast<std::size_t>(s.na)), want(static_cast<std::size_t>(s.na), 0.0);
  for (long i = 0; i < s.na; ++i) z[static_cast<std::size_t>(i)] = std::sin(static_cast<double>(i));
  for (const auto& t : make_cg_matrix(s, r0, r1)) want[static_cast<std::size_t>(t.row)] += t.value * z[static_cast<std::size_t>(t.col)];
  const CgVectors a = one->vectors(), b = two->vectors();
  for (std::size_t i = 0; i < a.n; ++i) {
    EXPECT_EQ(a[Vec::r][i], b[Vec::r][i]) << "row " << r0 + static_cast<long>(i);
    EXPECT_NEAR(a[Vec::r][i], want[static_cast<std::size_t>(r0) + i], 1e-10) << "row " << r0 + static_cast<long>(i);
  }
}

}  // namespace
}  // namespace armada::apps::cg
