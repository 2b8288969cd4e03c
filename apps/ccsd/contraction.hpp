// One complete run of the three terms on a TileStore: create and fill the tensors, touch every
// page of them from every rank (untimed), run the terms one after the other (each between two
// syncs, so each has its own time), sum R.
#pragma once

#include <array>
#include <vector>

#include "scheduler.hpp"
#include "store.hpp"
#include "tasks.hpp"

namespace armada::apps::ccsd {

/// The plans (sectors and task lists) of the three terms (the same on every rank).
TermPlans plan_all_terms(const Tensors& tensors);

/// This rank's view of a run.
struct RunResult {
  std::array<TermStats, term_count> terms;  ///< this rank's work per term
  std::array<double, term_count> seconds{}; ///< wall time per term (the slowest rank's)
  double checksum = 0;                      ///< sum of every element of R (all ranks)
};

/// Creates V, T, W, X (filled from element_value) and R (zero) in `store`, reads every tensor
/// once on every rank and accumulates zeros into all of R (the first touch of each page of the
/// other ranks' memory, paid untimed: a CCSD code pays it in its first iteration only, as NPB's
/// benchmarks pay theirs in an untimed iteration), then runs the terms (each rank fetching its
/// replica of T in the first). Collective. The arrays stay in the
/// store (read R for a check, then destroy_all()).
RunResult run_contraction(const Tensors& tensors, const TermPlans& plans, TileStore& store, Schedule schedule,
                          bool record_executed = false);

/// R as stored (every nonzero block), read from the store. Not collective.
std::vector<double> read_residual(const Tensors& tensors, TileStore& store);

}  // namespace armada::apps::ccsd
