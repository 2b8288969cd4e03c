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

/// Every rank reads every tensor and accumulates zeros into all of R, through the store, in
/// pieces of 4 MB. The first access of a process to a page of another process's shared memory
/// costs a fault; on the development VM, which maps guest pages lazily, about 1 ms per MB even
/// after the page tables are filled (MAP_POPULATE does not help there): 60 ms of the o = 24
/// case's 0.1 s on 2 ranks, paid by whichever term reads the page first. Collective.
void touch_every_page(const Tensors& tensors, TileStore& store) {
  constexpr std::int64_t piece = std::int64_t{1} << 19;  // doubles
  std::vector<double> scratch(static_cast<std::size_t>(piece)), zeros(static_cast<std::size_t>(piece), 0.0);
  for (const TiledTensor& t : tensors.all) {
    const TensorId id = t.spec().id;
    for (std::int64_t lo = 0; lo < t.elements(); lo += piece) {
      const std::int64_t n = std::min(piece, t.elements() - lo);
      if (id == TensorId::R) {
        store.acc_nb(0, id, lo, n, zeros.data());
        store.wait(0);
      } else {
        store.get(id, lo, n, scratch.data());
      }
    }
  }
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
  touch_every_page(tensors, store);
  RunResult result;
  // Memory the terms use, set up before them as the tensors are (its first touch is not theirs).
  Replicas replicas(store, tensors, plans);
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
