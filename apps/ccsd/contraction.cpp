#include "contraction.hpp"

#include <mpi.h>

#include <algorithm>
#include <numeric>

#include "world.hpp"

namespace armada::apps::ccsd {

TermPlans plan_all_terms(const Tensors& tensors) {
  TermPlans plans;
  for (const TermSpec& s : term_specs) plans[static_cast<std::size_t>(s.term)] = plan_term(tensors, s.term);
  return plans;
}

namespace {

/// Every rank writes its own part: inputs from the formula, R zero.
void create_and_fill(const Tensors& tensors, TileStore& store) {
  const int ranks = world_size();
  for (const TiledTensor& t : tensors.all) {
    const TensorId id = t.spec().id;
    store.create(id, t.splits(ranks));
    std::int64_t first = 0;
    std::span<double> mine = store.local(id, first);
    if (id == TensorId::R)
      std::fill(mine.begin(), mine.end(), 0.0);
    else if (!mine.empty())
      t.fill(first, first + static_cast<std::int64_t>(mine.size()), mine.data());
    store.release_local(id, /*updated=*/true);
  }
  store.reset_counters();
  store.sync();
}

double sum_of_residual(TileStore& store) {
  std::int64_t first = 0;
  std::span<double> mine = store.local(TensorId::R, first);
  double local = std::accumulate(mine.begin(), mine.end(), 0.0), total = 0;
  store.release_local(TensorId::R, /*updated=*/false);
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

}  // namespace

RunResult run_contraction(const Tensors& tensors, const TermPlans& plans, TileStore& store, Schedule schedule,
                          bool record_executed) {
  create_and_fill(tensors, store);
  RunResult result;
  // Memory the terms use, set up before them as the tensors are (its first touch is not theirs).
  Replicas replicas(tensors, plans);
  TaskBuffers buffers(plans);
  for (const TermSpec& s : term_specs) {
    const auto i = static_cast<std::size_t>(s.term);
    store.sync();
    const double t0 = MPI_Wtime();
    result.terms[i] = run_term(store, tensors, plans[i], replicas, buffers, schedule, record_executed);
    store.sync();  // every accumulate of the term is in R
    double mine = MPI_Wtime() - t0;
    MPI_Allreduce(&mine, &result.seconds[i], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  }
  result.checksum = sum_of_residual(store);
  return result;
}

std::vector<double> read_residual(const Tensors& tensors, TileStore& store) {
  std::vector<double> r(static_cast<std::size_t>(tensors[TensorId::R].elements()));
  store.get(TensorId::R, 0, static_cast<std::int64_t>(r.size()), r.data());
  return r;
}

}  // namespace armada::apps::ccsd
