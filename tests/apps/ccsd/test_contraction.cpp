// The distributed contraction on armada::arrays: every element of R against the serial
// reference, every schedule, several tile sizes and irrep counts; every task executed exactly
// once, also with many small tasks and the ranks competing for the counter. Run on 1, 2 and 4
// ranks, on shared memory, the server transport and mpi-rma (tests/apps/ccsd/CMakeLists.txt).
#include <gtest/gtest.h>
#include <mpi.h>

#include <numeric>

#include "armada/rma/rma.hpp"
#include "armada_store.hpp"
#include "contraction.hpp"
#include "kernels.hpp"
#include "reference.hpp"
#include "tce.hpp"
#include "world.hpp"

namespace armada::apps::ccsd {
namespace {

struct Case {
  Settings settings;
  Schedule schedule;
};

std::string label(const Case& c) {
  const Settings& s = c.settings;
  return "o=" + std::to_string(s.occ) + " v=" + std::to_string(s.virt) + " tile=" + std::to_string(s.tile) +
         " irreps=" + std::to_string(s.irreps) + " " + to_string(c.schedule);
}

class Contraction : public ::testing::TestWithParam<Case> {};

/// Whether every rank maps every other rank's memory (one node whose shared memory holds the
/// segments, rma::node_address): then armada's store reads every one-block chunk and all of T in
/// place, as a single rank does.
bool every_rank_maps_every_other() {
  const std::vector<void*> bases = rma::allocate(64);
  int all = 1;
  for (int t = 0; t < rma::size(); ++t) all &= rma::node_address(t, bases[static_cast<std::size_t>(t)], 64) != nullptr;
  MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  rma::free(bases[static_cast<std::size_t>(rma::rank())]);
  return all != 0;
}

/// The TCE schedule reads, over all ranks, one A block and one B block per task, nothing in
/// place: sum over the sectors of |P_g| K_g Q_g + |Q_g| P_g K_g elements (pairs, rows).
void expect_tce_reads(const TermPlan& plan, const RunResult& run, const std::string& what) {
  double needed = 0;
  for (std::size_t g = 0; g < plan.K.size(); ++g) {
    const auto p = static_cast<double>(plan.P[g].pairs.size()), q = static_cast<double>(plan.Q[g].pairs.size());
    needed += static_cast<double>(plan.K[g].extent) *
              (static_cast<double>(plan.P[g].extent) * q + static_cast<double>(plan.Q[g].extent) * p);
  }
  const TermStats& st = run.terms[static_cast<std::size_t>(plan.term)];
  double read[2] = {st.bytes, st.bytes_in_place}, all[2] = {0, 0};
  MPI_Allreduce(read, all, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(all[0], 8.0 * needed) << what << " " << plan.spec().name;
  EXPECT_EQ(all[1], 0.0) << what << " " << plan.spec().name << ": TCE reads nothing in place";
}

TEST_P(Contraction, EveryElementOfRMatchesTheSerialReference) {
  use_one_blas_thread();
  const Case& c = GetParam();
  const Problem p(c.settings);
  const Tensors tensors(p);
  const TermPlans plans = plan_all_terms(tensors);
  auto store = make_armada_store();
  const RunResult run = run_contraction(tensors, plans, *store, c.schedule);
  long long result[2] = {0, 0};  // compared, mismatches
  double max_rel = 0, ref_sum = 0;
  if (world_rank() == 0) {
    const DenseTensor want = reference_residual(p);
    const Comparison cmp = compare_residual(tensors[TensorId::R], read_residual(tensors, *store), want, 1e-12);
    result[0] = cmp.compared;
    result[1] = cmp.mismatches;
    max_rel = cmp.max_relative;
    ref_sum = std::accumulate(want.v.begin(), want.v.end(), 0.0);
    EXPECT_EQ(cmp.mismatches, 0) << label(c) << ": first mismatch " << cmp.first_mismatch;
  }
  MPI_Bcast(result, 2, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  MPI_Bcast(&ref_sum, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  EXPECT_EQ(result[0], p.virt.orbitals * p.virt.orbitals * p.occ.orbitals * p.occ.orbitals) << "every element compared";
  EXPECT_EQ(result[1], 0);
  EXPECT_NEAR(run.checksum, ref_sum, 1e-12 * ref_sum) << label(c);
  EXPECT_LE(max_rel, 1e-12);
  // Every streamed block a term needs (those of sectors with a nonzero product) is read once
  // per run over all ranks (fetched, or in place by its owner). T's two arrangements are one
  // copy per node (replica.hpp), its sectors spread over the node's ranks: each reads every
  // block of T once per node, the pp-ladder's (which the hh-ladder shares) and the ring's.
  const double ranks = world_size(), nodes = rma::node_count();
  const bool all_mapped = every_rank_maps_every_other();
  for (const TermPlan& plan : plans) {
    if (c.schedule == Schedule::tce) {
      expect_tce_reads(plan, run, label(c));
      continue;
    }
    double needed = 0;
    for (std::size_t g = 0; g < plan.K.size(); ++g)
      if (plan.P[g].extent > 0 && plan.K[g].extent > 0 && plan.Q[g].extent > 0)
        needed += static_cast<double>(plan.K[g].extent * (plan.a_streamed() ? plan.P[g].extent : plan.Q[g].extent));
    const TermStats& st = run.terms[static_cast<std::size_t>(plan.term)];
    double read[2] = {st.bytes, st.bytes_in_place}, all[2] = {0, 0};
    MPI_Allreduce(read, all, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    const double replica = plan.term == Term::hh_ladder ? 0 : nodes * static_cast<double>(tensors[TensorId::T].elements());
    EXPECT_EQ(all[0] + all[1], 8.0 * (needed + replica)) << label(c) << " " << plan.spec().name;
    // The steps divide the term's busy time (up to the clock reads between the last lap and
    // the end), and a rank that ran tasks spent time in their dgemms.
    double steps = 0;
    for (double v : st.steps) {
      EXPECT_GE(v, 0.0);
      steps += v;
    }
    EXPECT_LE(steps, st.busy) << label(c) << " " << plan.spec().name;
    EXPECT_GE(steps, 0.9 * st.busy - 1e-4) << label(c) << " " << plan.spec().name;
    if (st.tasks > 0) {
      EXPECT_GT(st.steps[static_cast<std::size_t>(Step::dgemm)], 0.0) << label(c) << " " << plan.spec().name;
    }
    if ((ranks == 1 || all_mapped) && plan.a_streamed()) {  // A-streamed chunks are single blocks
      EXPECT_EQ(all[0], 0.0) << label(c) << ": every one-block chunk and T read in place (ranks " << ranks
                             << ", every rank maps every other: " << all_mapped << ")";
    }
  }
  store->sync();
  store->destroy_all();
}

INSTANTIATE_TEST_SUITE_P(
    TilesAndIrreps, Contraction,
    ::testing::Values(Case{{5, 9, 2, 2}, Schedule::dynamic}, Case{{5, 9, 2, 2}, Schedule::static_round_robin},
                      Case{{6, 10, 3, 4}, Schedule::dynamic}, Case{{6, 10, 3, 4}, Schedule::static_round_robin},
                      Case{{4, 8, 4, 1}, Schedule::dynamic}, Case{{3, 5, 1, 8}, Schedule::dynamic},
                      Case{{7, 12, 5, 4}, Schedule::dynamic}, Case{{4, 6, 1, 2}, Schedule::static_round_robin},
                      Case{{6, 10, 3, 4}, Schedule::locality}, Case{{7, 12, 5, 4}, Schedule::locality},
                      Case{{5, 9, 2, 2}, Schedule::tce}, Case{{6, 10, 3, 4}, Schedule::tce},
                      Case{{3, 5, 1, 8}, Schedule::tce}),
    [](const auto& info) {
      const Settings& s = info.param.settings;
      return "o" + std::to_string(s.occ) + "v" + std::to_string(s.virt) + "t" + std::to_string(s.tile) + "i" +
             std::to_string(s.irreps) + to_string(info.param.schedule);
    });

/// Gathers every rank's executed task numbers of one term on every rank.
std::vector<std::int64_t> all_executed(const std::vector<std::int64_t>& mine) {
  const int ranks = world_size();
  int n = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(ranks)), displs(static_cast<std::size_t>(ranks), 0);
  MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  for (std::size_t r = 1; r < counts.size(); ++r) displs[r] = displs[r - 1] + counts[r - 1];
  std::vector<std::int64_t> all(static_cast<std::size_t>(displs.back() + counts.back()));
  MPI_Allgatherv(mine.data(), n, MPI_INT64_T, all.data(), counts.data(), displs.data(), MPI_INT64_T, MPI_COMM_WORLD);
  return all;
}

// Tile 1: over a hundred small tasks per term, so the ranks hit the counter as fast as they can.
TEST(Tasks, EveryTaskIsExecutedExactlyOnce) {
  use_one_blas_thread();
  for (Schedule schedule : {Schedule::dynamic, Schedule::static_round_robin, Schedule::locality, Schedule::tce}) {
    // TCE's tasks are (output, contraction) block pairs: a much smaller problem gives hundreds.
    const Problem p(schedule == Schedule::tce ? Settings{3, 3, 1, 2} : Settings{11, 12, 1, 2});
    const Tensors tensors(p);
    const TermPlans plans = plan_all_terms(tensors);
    auto store = make_armada_store();
    const RunResult run = run_contraction(tensors, plans, *store, schedule, /*record_executed=*/true);
    for (const TermSpec& t : term_specs) {
      const auto i = static_cast<std::size_t>(t.term);
      const bool tce = schedule == Schedule::tce;  // its own task list (tce.hpp)
      std::vector<int> times(tce ? static_cast<std::size_t>(tce_task_count(plans[i])) : plans[i].tasks.size(), 0);
      for (std::int64_t id : all_executed(run.terms[i].executed)) {
        ASSERT_GE(id, 0);
        ASSERT_LT(static_cast<std::size_t>(id), times.size());
        ++times[static_cast<std::size_t>(id)];
      }
      for (std::size_t k = 0; k < times.size(); ++k)
        EXPECT_EQ(times[k], 1) << t.name << " task " << k << " (" << to_string(schedule) << ")";
      EXPECT_EQ(run.terms[i].tasks, static_cast<std::int64_t>(run.terms[i].executed.size()));
      EXPECT_GT(times.size(), 100u) << "enough tasks for the ranks to compete";
    }
    store->sync();
    store->destroy_all();
  }
}

}  // namespace
}  // namespace armada::apps::ccsd
