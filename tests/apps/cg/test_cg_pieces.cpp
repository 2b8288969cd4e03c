// The pieces of armada-cg against what NPB's specification says of them: the matrix rows a
// rank generates are exactly the whole matrix's rows in that range (every rank draws the same
// random sequence), the matrix is symmetric with every diagonal entry present, the class table
// holds the official values, and the two communication variants give the same products.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

#include "armada/apps/memory_floor.hpp"
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

// Products in a row, each input made from the last output (as CG's iterations do): the
// one-sided exchange with its two alternating halves and with one half freed by credits gives
// the MPI exchange's bits at every product (a message landing in the wrong half, or a peer
// overwriting slots still being read, shows as a difference).
TEST(CgComm, ProductsInARowMatchWithEitherSlotUse) {
  const CgClass& s = *find_cg_class('S');
  auto A = build_cg_matrix(s);
  auto halves = make_rma_comm(A, RmaSlots::Auto);
  auto credits = make_rma_comm(A, RmaSlots::OneHalf);
  auto mpi = make_mpi_comm(A, MPI_COMM_WORLD);
  const std::array<CgComm*, 3> comms = {halves.get(), credits.get(), mpi.get()};
  const auto [r0, r1] = A.local_rows();
  for (CgComm* c : comms) {
    const CgVectors v = c->vectors();
    for (std::size_t i = 0; i < v.n; ++i) v[Vec::z][i] = std::cos(static_cast<double>(r0) + static_cast<double>(i));
  }
  constexpr int kProducts = 9;  // odd: each half ends once on the last product
  for (int k = 0; k < kProducts; ++k) {
    for (CgComm* c : comms) {
      const CgVectors v = c->vectors();
      c->multiply(Vec::z, Vec::r);
      for (std::size_t i = 0; i < v.n; ++i) v[Vec::z][i] = v[Vec::r][i] * 1e-2 + static_cast<double>(k);  // bounded
    }
    const CgVectors want = mpi->vectors();
    for (CgComm* c : {halves.get(), credits.get()}) {
      const CgVectors got = c->vectors();
      for (std::size_t i = 0; i < got.n; ++i)
        ASSERT_EQ(got[Vec::r][i], want[Vec::r][i]) << "product " << k << ", row " << r0 + static_cast<long>(i)
                                                   << (c == halves.get() ? " (two halves)" : " (credits)");
    }
  }
}

// conj_grad with its breakdown clock computes exactly what it computes without (the same code
// with one clock read per phase), and the phases account for the call: 25 iterations, 26
// products, every phase timed, none negative, together no more than the call's wall time.
TEST(CgSolver, BreakdownTimesEveryPhaseAndChangesNothing) {
  const CgClass& s = *find_cg_class('S');
  auto A = build_cg_matrix(s);
  auto plain = make_mpi_comm(A, MPI_COMM_WORLD);
  auto timed = make_mpi_comm(A, MPI_COMM_WORLD);
  const Multiply mp = [&](Vec in, Vec out) { plain->multiply(in, out); };
  const Multiply mt = [&](Vec in, Vec out) { timed->multiply(in, out); };
  reset_start_vector(plain->vectors());
  reset_start_vector(timed->vectors());
  const double want = conj_grad(plain->vectors(), mp, MPI_COMM_WORLD);
  CgBreakdown b;
  const double t0 = MPI_Wtime();
  const double got = conj_grad(timed->vectors(), mt, MPI_COMM_WORLD, b);
  const double wall = MPI_Wtime() - t0;
  EXPECT_EQ(got, want);
  const CgVectors x = plain->vectors(), y = timed->vectors();
  for (std::size_t i = 0; i < x.n; ++i) ASSERT_EQ(x[Vec::z][i], y[Vec::z][i]) << "z entry " << i;
  EXPECT_EQ(b.iterations, cg_inner_iterations);
  EXPECT_EQ(b.products, cg_inner_iterations + 1);
  for (double phase : {b.spmv, b.dot, b.reduce, b.update}) EXPECT_GT(phase, 0.0);
  EXPECT_LE(b.spmv + b.dot + b.reduce + b.update, wall);
}

// The bytes CG must move, summed over the ranks, by the formula of cg_program.hpp from the
// whole matrix's figures: class S (1400 rows: 16-bit column indices at any rank count).
TEST(CgFloor, BytesFollowTheFormula) {
  const CgClass& s = *find_cg_class('S');
  auto A = build_cg_matrix(s);
  const CgBytes b = cg_rank_bytes(A);
  double sums[4] = {b.product, b.iteration, b.step, static_cast<double>(A.ghost_columns().size())};
  MPI_Allreduce(MPI_IN_PLACE, sums, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  const double e = static_cast<double>(A.nonzeros()), n = static_cast<double>(s.na), g = sums[3];
  EXPECT_DOUBLE_EQ(sums[0], 10 * e + 20 * n + 16 * g);
  EXPECT_DOUBLE_EQ(sums[1], sums[0] + 88 * n);
  EXPECT_DOUBLE_EQ(sums[2], 25 * sums[1] + sums[0] + 96 * n);
  if (rma::size() > 1) {
    EXPECT_GT(g, 0.0);  // NPB's random matrix: every rank needs others' entries
  }
}

// The memory floor: every rank's share counted once, both kernels measured, the floor the
// faster one's time for those bytes, scaled linearly; the same on every rank. The better of two
// measurements keeps the faster bandwidth.
TEST(CgFloor, MemoryFloorMeasuresTheRanksBytes) {
  const double mine = 1e6 * (1 + rma::rank());
  const MemoryFloor f = measure_memory_floor(mine, MPI_COMM_WORLD, 3);
  const double p = rma::size();
  EXPECT_DOUBLE_EQ(f.bytes, 1e6 * p * (p + 1) / 2);
  EXPECT_GT(f.copy_bw, 0.0);
  EXPECT_GT(f.triad_bw, 0.0);
  EXPECT_TRUE(std::isfinite(f.seconds));
  EXPECT_DOUBLE_EQ(f.seconds, f.bytes / std::max(f.copy_bw, f.triad_bw));
  EXPECT_DOUBLE_EQ(f.seconds_for(3 * f.bytes), 3 * f.seconds);
  double same[2] = {f.seconds, -f.seconds};
  MPI_Allreduce(MPI_IN_PLACE, same, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_EQ(same[0], -same[1]);
  MemoryFloor slower = f;
  slower.copy_bw /= 2;
  slower.triad_bw /= 2;
  EXPECT_DOUBLE_EQ(slower.best(f).seconds, f.seconds);
  EXPECT_DOUBLE_EQ(f.best(slower).copy_bw, f.copy_bw);
  // A volume past the cap is measured on the cap's volume and still counted whole.
  const MemoryFloor big = measure_memory_floor(1e12, MPI_COMM_WORLD, 2, 1e5);
  EXPECT_DOUBLE_EQ(big.bytes, 1e12 * p);
  EXPECT_GT(big.copy_bw, 0.0);
  EXPECT_DOUBLE_EQ(big.seconds, big.bytes / std::max(big.copy_bw, big.triad_bw));
}

}  // namespace
}  // namespace armada::apps::cg
