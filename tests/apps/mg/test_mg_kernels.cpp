// armada-mg's pieces against the serial reference (mg_reference.hpp) on a 16^3 periodic grid:
// the layout of levels over the ranks, the ghost exchange (every cell of every rank's frame,
// faces, edges and corners), each kernel at every level (including the step between the
// distributed levels and those gathered on rank 0), the norm, zran3 and a whole V-cycle. Each
// runs with the one-sided exchange and with the MPI baseline, on 1, 2, 3 and 4 ranks.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "armada/rma/rma.hpp"
#include "grid.hpp"
#include "mg.hpp"
#include "mg_reference.hpp"
#include "zran3.hpp"

namespace rma = armada::rma;
using namespace armada::mg;
using armada::mg::test::Grid;
using armada::mg::test::random_grid;

// ---- layout ---------------------------------------------------------------------------------------
TEST(MgLayout, ProcessGridsSplitZThenY) {
  EXPECT_EQ(choose_process_grid(1, 32).p, (Dim3<int>{1, 1, 1}));
  EXPECT_EQ(choose_process_grid(2, 32).p, (Dim3<int>{2, 1, 1}));
  EXPECT_EQ(choose_process_grid(4, 32).p, (Dim3<int>{2, 2, 1}));
  EXPECT_EQ(choose_process_grid(8, 32).p, (Dim3<int>{2, 2, 2}));
  EXPECT_EQ(choose_process_grid(6, 32).p, (Dim3<int>{3, 2, 1}));
  EXPECT_EQ(choose_process_grid(16, 32).p, (Dim3<int>{4, 2, 2}));
  const ProcessGrid g = choose_process_grid(12, 64);
  for (int r = 0; r < g.size(); ++r) EXPECT_EQ(g.rank_at(g.coords(r)), r);
  EXPECT_EQ(g.rank_at({-1, 0, 0}), g.rank_at({g.p[0] - 1, 0, 0}));
}

TEST(MgLayout, RankCountsTheGridCannotUseAreErrors) {
  EXPECT_THROW(choose_process_grid(17, 32), LayoutError);  // a prime above n/2
  EXPECT_THROW(choose_process_grid(0, 32), LayoutError);
  EXPECT_THROW(choose_process_grid(3, 4), LayoutError);
  EXPECT_THROW(level_count(24), LayoutError);
  EXPECT_THROW(plan_levels(8, ProcessGrid{{5, 1, 1}}), LayoutError);
  try {
    choose_process_grid(17, 32);
  } catch (const LayoutError& e) {
    EXPECT_NE(std::string(e.what()).find("17 ranks"), std::string::npos) << e.what();
  }
}

TEST(MgLayout, LevelsNestAndCoarseOnesAreGathered) {
  for (int ranks : {1, 2, 3, 4, 6, 8}) {
    const ProcessGrid g = choose_process_grid(ranks, 32);
    const auto levels = plan_levels(32, g);
    ASSERT_EQ(levels.size(), 5u);
    for (const LevelLayout& L : levels) {
      bool fits = true;
      for (int d = 0; d < 3; ++d) fits = fits && L.n / 2 >= g.p[d];
      EXPECT_EQ(L.distributed, fits) << "ranks " << ranks << " level " << L.level;
      EXPECT_EQ(L.blocks(), L.distributed ? ranks : 1);
      for (int r = 0; r < L.blocks(); ++r) {
        Dim3<Index> lo, hi;
        L.block(r, lo, hi);
        for (int d = 0; d < 3; ++d) {
          EXPECT_EQ(lo[d] % 2, 0);
          EXPECT_GE(hi[d] - lo[d], 2) << "ranks " << ranks << " level " << L.level;
        }
      }
      if (L.level > 1 && levels[static_cast<std::size_t>(L.level - 2)].distributed) {
        const LevelLayout half = halved(L);
        EXPECT_EQ(half.starts, levels[static_cast<std::size_t>(L.level - 2)].starts);
      }
    }
    EXPECT_TRUE(levels.back().distributed);
  }
}

// ---- kernels on the ranks -------------------------------------------------------------------------
namespace {

constexpr Index n = 16;
constexpr double tolerance = 1e-12;

// This rank's block of `g`, into the interior of `a`.
void load(Multigrid& mg, LevelArray& a, const Grid& g) {
  mg.prepare_write(a);
  const Frame& f = a.frame;
  if (f.empty()) return;
  for (Index k = 1; k <= f.n[0]; ++k)
    for (Index j = 1; j <= f.n[1]; ++j)
      for (Index i = 1; i <= f.n[2]; ++i) f.at(k, j, i) = g(a.lo[0] + k - 1, a.lo[1] + j - 1, a.lo[2] + i - 1);
}

// Every cell of this rank's frame, ghosts included (they hold the periodic neighbours' values),
// against the reference.
void expect_frame(const LevelArray& a, const Grid& want, double tol, const std::string& what) {
  const Frame& f = a.frame;
  if (f.empty()) return;
  long bad = 0;
  std::string first;
  for (Index k = 0; k <= f.n[0] + 1; ++k)
    for (Index j = 0; j <= f.n[1] + 1; ++j)
      for (Index i = 0; i <= f.n[2] + 1; ++i) {
        const double got = f.at(k, j, i), ref = want(a.lo[0] + k - 1, a.lo[1] + j - 1, a.lo[2] + i - 1);
        if (std::fabs(got - ref) > tol * (1 + std::fabs(ref))) {
          if (bad++ == 0)
            first = "frame (" + std::to_string(k) + ", " + std::to_string(j) + ", " + std::to_string(i) +
                    ") got " + std::to_string(got) + " want " + std::to_string(ref);
        }
      }
  EXPECT_EQ(bad, 0) << "[rank " << rma::rank() << "] " << what << ": " << bad << " cells differ, first " << first;
}

class MgKernels : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    exchange_ = GetParam() == "mpi" ? make_mpi_exchange(rma::world_comm()) : make_rma_exchange();
    mg_ = std::make_unique<Multigrid>(n, choose_process_grid(rma::size(), n), smoother_sa, *exchange_,
                                      rma::world_comm());
  }
  void TearDown() override { mg_->destroy(); }
  Index size(int k) const { return mg_->layout(k).n; }
  // u(k) or r(k) = a random grid, ghosts exchanged.
  Grid fill(int k, LevelArray& a, unsigned seed) {
    Grid g = random_grid(size(k), seed);
    load(*mg_, a, g);
    mg_->exchange_ghosts(k, a);
    return g;
  }

  std::unique_ptr<Exchange> exchange_;
  std::unique_ptr<Multigrid> mg_;
};

}  // namespace

TEST_P(MgKernels, GhostExchangeFillsFacesEdgesAndCorners) {
  for (int k = 1; k <= mg_->levels(); ++k) {
    const Grid g = fill(k, mg_->u(k), 100u + static_cast<unsigned>(k));
    expect_frame(mg_->u(k), g, 0.0, "exchange level " + std::to_string(k));
  }
}

TEST_P(MgKernels, ResidAtEveryLevel) {
  const int lt = mg_->levels();
  for (int k = 1; k <= lt; ++k) {
    const Grid u = fill(k, mg_->u(k), 200u + static_cast<unsigned>(k));
    const Grid v = random_grid(size(k), 300u + static_cast<unsigned>(k));
    load(*mg_, k == lt ? mg_->v() : mg_->r(k), v);
    mg_->resid(k);
    expect_frame(mg_->r(k), test::resid_ref(u, v, operator_a), tolerance, "resid level " + std::to_string(k));
  }
}

TEST_P(MgKernels, PsinvAtEveryLevel) {
  for (const Stencil& c : {smoother_sa, smoother_sb}) {
    auto solver = Multigrid(n, choose_process_grid(rma::size(), n), c, *exchange_, rma::world_comm());
    for (int k = 1; k <= solver.levels(); ++k) {
      const Index m = solver.layout(k).n;
      const Grid r = random_grid(m, 400u + static_cast<unsigned>(k)), u = random_grid(m, 500u + static_cast<unsigned>(k));
      load(solver, solver.r(k), r);
      solver.exchange_ghosts(k, solver.r(k));
      load(solver, solver.u(k), u);
      solver.psinv(k);
      expect_frame(solver.u(k), test::psinv_ref(r, u, c), tolerance, "psinv level " + std::to_string(k));
    }
    solver.destroy();
  }
}

// The memory floor's count (Multigrid::rank_bytes_*), summed over the ranks: every point of a
// level is some rank's once (34, 74 or 32 bytes by level), and each rank's ghost frame around
// its block is moved by 4 exchanges per level (2 on level 1), 16 bytes a cell.
TEST_P(MgKernels, FloorBytesCountEveryPointAndFrame) {
  auto solver = Multigrid(n, choose_process_grid(rma::size(), n), smoother_sa, *exchange_, rma::world_comm());
  const int lt = solver.levels();
  double points = 0, frames = 0, fine_points = 0, fine_frames = 0;
  for (int k = 1; k <= lt; ++k) {
    const LevelLayout& L = solver.layout(k);
    const double per_point = k == lt ? 34 : k == 1 ? 32 : 74, exchanges = k == 1 ? 2 : 4;
    points += per_point * std::pow(static_cast<double>(L.n), 3);
    for (int r = 0; r < rma::size(); ++r) {
      Dim3<Index> lo, hi;
      L.block(r, lo, hi);
      const double bz = static_cast<double>(hi[0] - lo[0]), by = static_cast<double>(hi[1] - lo[1]),
                   bx = static_cast<double>(hi[2] - lo[2]);
      const double frame = bz * by * bx > 0 ? (bz + 2) * (by + 2) * (bx + 2) - bz * by * bx : 0;
      frames += 16 * exchanges * frame;
      if (k == lt) fine_points += bz * by * bx, fine_frames += frame;
    }
  }
  double sums[2] = {solver.rank_bytes_per_iteration(), solver.rank_bytes_fixed()};
  MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_DOUBLE, MPI_SUM, rma::world_comm());
  EXPECT_DOUBLE_EQ(sums[0], points + frames);
  EXPECT_DOUBLE_EQ(sums[1], 48 * fine_points + 16 * fine_frames);
  EXPECT_EQ(fine_points, std::pow(static_cast<double>(n), 3));
  solver.destroy();
}

TEST_P(MgKernels, Rprj3FromEveryLevel) {
  for (int k = mg_->levels(); k >= 2; --k) {
    const Grid r = fill(k, mg_->r(k), 600u + static_cast<unsigned>(k));
    mg_->rprj3(k);
    expect_frame(mg_->r(k - 1), test::rprj3_ref(r), tolerance, "rprj3 onto level " + std::to_string(k - 1));
  }
}

TEST_P(MgKernels, InterpOntoEveryLevel) {
  for (int k = 2; k <= mg_->levels(); ++k) {
    const Grid z = fill(k - 1, mg_->u(k - 1), 700u + static_cast<unsigned>(k));
    const Grid u = fill(k, mg_->u(k), 800u + static_cast<unsigned>(k));
    mg_->interp(k);
    expect_frame(mg_->u(k), test::interp_ref(z, u), tolerance, "interp onto level " + std::to_string(k));
  }
}

// The V-cycle's fused step: u(k) += Q u(k-1), then r(k) = v - A u(k), v = v() at the finest level
// and r(k) itself below (in place), across the step to the gathered levels too.
TEST_P(MgKernels, InterpResidOntoEveryLevel) {
  const int lt = mg_->levels();
  for (int k = 2; k <= lt; ++k) {
    const Grid z = fill(k - 1, mg_->u(k - 1), 1000u + static_cast<unsigned>(k));
    const Grid u = fill(k, mg_->u(k), 1100u + static_cast<unsigned>(k));
    const Grid v = random_grid(size(k), 1200u + static_cast<unsigned>(k));
    load(*mg_, k == lt ? mg_->v() : mg_->r(k), v);
    mg_->interp_resid(k);
    const Grid u_after = test::interp_ref(z, u);
    expect_frame(mg_->u(k), u_after, tolerance, "interp_resid's u on level " + std::to_string(k));
    expect_frame(mg_->r(k), test::resid_ref(u_after, v, operator_a), tolerance, "interp_resid's r on level " + std::to_string(k));
  }
}

TEST_P(MgKernels, Norm2u3) {
  const int lt = mg_->levels();
  const Grid r = fill(lt, mg_->r(lt), 900u);
  const Norms got = mg_->norm2u3(lt);
  EXPECT_NEAR(got.l2, test::l2_ref(r), 1e-14);
  double max = 0;
  for (double x : r.v) max = std::max(max, std::fabs(x));
  EXPECT_EQ(got.max_abs, max);
}

TEST_P(MgKernels, Zran3MatchesTheContinuousSequence) {
  mg_->initialize();
  const int lt = mg_->levels();
  expect_frame(mg_->v(), test::zran3_ref(size(lt)), 0.0, "zran3");
  expect_frame(mg_->u(lt), Grid(size(lt)), 0.0, "u after initialize");
  // Every charge exists once: +10 and -10 over the whole grid.
  const std::vector<Charge> charges = zran3_charges(mg_->layout(lt), rma::world_comm());
  EXPECT_EQ(charges.size(), 2u * zran3_charge_count);
}

// The timed loop's fused steps (the finest smoothing, the residual after the V-cycle and the
// next cycle's first restriction in one pass where the blocks span x and y whole: 1, 2 and 3
// ranks; unfused at 4) give mg3p() then resid()'s u and r on every level to the bit, ghosts
// included, from random u, r and v; and call their hooks around each iteration.
TEST_P(MgKernels, IterationsGiveTheBitsOfVCyclesThenResiduals) {
  const int lt = mg_->levels();
  auto other = Multigrid(n, choose_process_grid(rma::size(), n), smoother_sa, *exchange_, rma::world_comm());
  for (Multigrid* m : {mg_.get(), &other}) {
    for (int k = 1; k <= lt; ++k) {
      load(*m, m->u(k), random_grid(size(k), 1300u + static_cast<unsigned>(k)));
      m->exchange_ghosts(k, m->u(k));
      load(*m, m->r(k), random_grid(size(k), 1400u + static_cast<unsigned>(k)));
      m->exchange_ghosts(k, m->r(k));
    }
    load(*m, m->v(), random_grid(size(lt), 1500u));
    m->exchange_ghosts(lt, m->v());
  }
  for (int i = 0; i < 3; ++i) {
    mg_->mg3p();
    mg_->resid(lt);
  }
  std::string hooks;
  other.iterations(
      3, [&](int i) { hooks += "b" + std::to_string(i); }, [&](int i) { hooks += "a" + std::to_string(i); });
  EXPECT_EQ(hooks, "b1a1b2a2b3a3");
  for (int k = 1; k <= lt; ++k)
    for (auto [a, b, what] : {std::tuple{&mg_->u(k), &other.u(k), "u"}, std::tuple{&mg_->r(k), &other.r(k), "r"}}) {
      const Frame& f = a->frame;
      const std::size_t cells = f.empty() ? 0 : static_cast<std::size_t>((f.n[0] + 2) * f.sz);
      EXPECT_EQ(f.empty(), b->frame.empty());
      if (cells) {
        EXPECT_EQ(std::memcmp(f.data, b->frame.data, cells * sizeof(double)), 0)
            << what << " of level " << k << " on rank " << rma::rank();
      }
    }
  other.destroy();
}

TEST_P(MgKernels, TwoVCycles) {
  const int lt = mg_->levels();
  mg_->initialize();
  const long syncs = mg_->write_syncs();
  mg_->resid(lt);
  mg_->mg3p();
  mg_->resid(lt);
  mg_->iterations(1);  // the second cycle as the timed loop runs it
  // The V-cycle never writes a block another rank may still be reading (halo.hpp): its ghost
  // exchanges need no synchronization besides their own.
  EXPECT_EQ(mg_->write_syncs(), syncs);
  std::vector<Grid> u, r;
  for (int k = 1; k <= lt; ++k) {
    u.emplace_back(size(k));
    r.emplace_back(size(k));
  }
  const Grid v = test::zran3_ref(size(lt));
  r[lt - 1] = test::resid_ref(u[lt - 1], v, operator_a);
  for (int cycle = 0; cycle < 2; ++cycle) {
    test::mg3p_ref(u, r, v, smoother_sa);
    r[lt - 1] = test::resid_ref(u[lt - 1], v, operator_a);
  }
  expect_frame(mg_->u(lt), u[lt - 1], tolerance, "u after two V-cycles");
  expect_frame(mg_->r(lt), r[lt - 1], tolerance, "r after two V-cycles");
  EXPECT_NEAR(mg_->norm2u3(lt).l2, test::l2_ref(r[lt - 1]), 1e-14);
}

INSTANTIATE_TEST_SUITE_P(Comm, MgKernels, ::testing::Values("rma", "mpi"),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

// ---- the row loops' builds (kernels.hpp, RowIsa) ---------------------------------------------------
namespace {

// A frame on plain memory with random values everywhere, ghosts included; x extents that leave
// remainders for every vector width (37 = 4 x 8 + 5).
struct OwnFrame {
  std::vector<double> data;
  Frame frame;
  OwnFrame(Dim3<Index> n, unsigned seed) : data(static_cast<std::size_t>((n[0] + 2) * (n[1] + 2) * (n[2] + 2))) {
    frame = {data.data(), n, n[2] + 2, (n[1] + 2) * (n[2] + 2)};
    unsigned x = seed;
    for (double& d : data) d = static_cast<double>((x = x * 1103515245u + 12345u) >> 8) / 16777216.0 - 0.5;
  }
};

// What every kernel writes from the same inputs, with the build in use.
std::vector<double> kernels_output() {
  const Dim3<Index> fine{6, 10, 74}, coarse{3, 5, 37};
  OwnFrame u(fine, 1), v(fine, 2), r(fine, 3), s(coarse, 4), z(coarse, 5), u2(fine, 6);
  resid(u.frame, v.frame, r.frame, operator_a);
  psinv(r.frame, u.frame, smoother_sb);
  rprj3(r.frame, s.frame);
  interp(z.frame, u2.frame);
  std::vector<double> all;
  for (const OwnFrame* f : {&r, &u, &s, &u2}) all.insert(all.end(), f->data.begin(), f->data.end());
  return all;
}

}  // namespace

TEST(MgRowIsa, EveryBuildGivesTheSameBits) {
  const RowIsa kept = row_isa();
  const std::vector<RowIsa> isas = supported_row_isas();
  ASSERT_EQ(isas.back(), RowIsa::baseline);
  EXPECT_EQ(kept, isas.front()) << "the widest build is the default";
  use_row_isa(RowIsa::baseline);
  const std::vector<double> want = kernels_output();
  for (RowIsa isa : isas) {
    use_row_isa(isa);
    const std::vector<double> got = kernels_output();
    ASSERT_EQ(got.size(), want.size());
    std::size_t differ = 0;
    for (std::size_t i = 0; i < got.size(); ++i) differ += std::memcmp(&got[i], &want[i], sizeof(double)) != 0;
    EXPECT_EQ(differ, 0u) << name(isa) << " against baseline";
  }
  use_row_isa(kept);
}

// The fused pass does what interp then resid do, to the bit, with v apart and with v = r (the
// levels below the finest), on extents with odd remainders for every vector width.
TEST(MgFused, InterpResidGivesTheBitsOfInterpThenResid) {
  const Dim3<Index> fine{6, 10, 74}, coarse{3, 5, 37};
  for (bool in_place : {false, true}) {
    OwnFrame z(coarse, 11), u1(fine, 12), u2(fine, 12), v(fine, 13), r1(fine, 14), r2(fine, 14);
    interp(z.frame, u1.frame);
    resid(u1.frame, in_place ? r1.frame : v.frame, r1.frame, operator_a);
    interp_resid(z.frame, u2.frame, in_place ? r2.frame : v.frame, r2.frame, operator_a);
    EXPECT_EQ(std::memcmp(u1.data.data(), u2.data.data(), u1.data.size() * sizeof(double)), 0) << "u, in place " << in_place;
    EXPECT_EQ(std::memcmp(r1.data.data(), r2.data.data(), r1.data.size() * sizeof(double)), 0) << "r, in place " << in_place;
    EXPECT_NE(std::memcmp(r1.data.data(), OwnFrame(fine, 14).data.data(), r1.data.size() * sizeof(double)), 0)
        << "the residual was written";
  }
}

TEST(MgRowIsa, TimingEachBuildLeavesTheChoiceAlone) {
  const RowIsa kept = row_isa();
  OwnFrame u({4, 6, 40}, 7), v({4, 6, 40}, 8), r({4, 6, 40}, 9);
  const std::vector<IsaTime> times = time_row_isas(u.frame, v.frame, r.frame, operator_a, 3);
  ASSERT_EQ(times.size(), supported_row_isas().size());
  for (std::size_t i = 0; i < times.size(); ++i) {
    EXPECT_EQ(times[i].isa, supported_row_isas()[i]);
    EXPECT_GT(times[i].seconds, 0.0) << name(times[i].isa);
    EXPECT_LT(times[i].seconds, 1.0) << name(times[i].isa);
  }
  EXPECT_EQ(row_isa(), kept);
  EXPECT_EQ(row_isa_named("avx2"), RowIsa::avx2);
  EXPECT_EQ(row_isa_named("baseline"), RowIsa::baseline);
  EXPECT_FALSE(row_isa_named("sse9"));
}

// The probe's rule: the fastest vector build, the baseline only when it beats that by more than
// the probe's noise (a launch that picked it on a tie ran MG B 15 % slower).
TEST(MgRowIsa, BaselineIsPickedOnlyWhenClearlyFaster) {
  constexpr double none = std::numeric_limits<double>::infinity();
  auto pick = [](double avx512, double avx2, double baseline) {
    const double seconds[kRowIsaCount] = {avx512, avx2, baseline};  // by RowIsa
    return pick_row_isa(seconds);
  };
  EXPECT_EQ(pick(1.85, 1.24, 1.49), RowIsa::avx2);      // the AMD VM's report
  EXPECT_EQ(pick(1.00, 1.10, 1.20), RowIsa::avx512);    // a faster wide build wins by any margin
  EXPECT_EQ(pick(none, 1.00, 0.95), RowIsa::avx2);      // 5 %: within the probe's spread
  EXPECT_EQ(pick(none, 1.00, 0.85), RowIsa::baseline);  // 15 %
  EXPECT_EQ(pick(1.00, 1.20, 0.95), RowIsa::avx512);    // measured against the fastest vector build
  EXPECT_EQ(pick(none, none, 1.00), RowIsa::baseline);  // a CPU without AVX2
  EXPECT_EQ(pick(0.0, 0.0, 0.0), RowIsa::avx2);         // a rank that owns nothing times nothing
}

// Collective: every rank takes the same build, and --row-isa's choice is taken as given.
TEST(MgRowIsa, ChoiceIsTheSameOnEveryRank) {
  auto exchange = make_rma_exchange();
  Multigrid mg(n, choose_process_grid(rma::size(), n), smoother_sa, *exchange, rma::world_comm());
  mg.initialize();
  const RowIsa kept = row_isa();
  const std::string said = mg.choose_row_isa(std::nullopt);
  EXPECT_EQ(said.rfind(name(row_isa()), 0), 0u) << said;
  EXPECT_NE(said.find("slowest rank: "), std::string::npos) << said;
  int mine = static_cast<int>(row_isa()), lowest = mine;
  MPI_Allreduce(MPI_IN_PLACE, &lowest, 1, MPI_INT, MPI_MIN, rma::world_comm());
  EXPECT_EQ(mine, lowest);
  EXPECT_EQ(mg.choose_row_isa(RowIsa::baseline), "baseline (--row-isa)");
  EXPECT_EQ(row_isa(), RowIsa::baseline);
  use_row_isa(kept);
  mg.destroy();
}
