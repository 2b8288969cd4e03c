// The NWChem TCE pattern (Schedule::tce): the baseline coupled-cluster codes run on Global
// Arrays, against which Armada's schedules are measured (docs/apps.md, "The TCE baseline").
//
// A task is one (output block, contraction block) pair of a term: in sector g, one pair p of
// A's free letters, one pair q of B's and one contraction pair k. Tasks are numbered sector by
// sector, k fastest (the loops of TCE's generated code: the output block outside, its
// contraction inside), and handed out by the term's shared counter (NXTVAL, read_inc). A task
// gets its A block and its B block into private buffers with blocking gets, permutes each into
// matrix layout, multiplies them with one dgemm and accumulates the product into its R block
// with one blocking accumulate. Nothing is replicated, prefetched or read in place.
#pragma once

#include <cstdint>

#include "scheduler.hpp"

namespace armada::apps::ccsd {

/// The TCE tasks of a term: the sum over its sectors of |P_g| |Q_g| |K_g|.
std::int64_t tce_task_count(const TermPlan& plan);

/// Executes this rank's share of the TCE tasks of `plan`. Not collective itself (the caller
/// brackets it with syncs); the term's counter must be at 0.
TermStats run_tce_term(TileStore& store, const Tensors& tensors, const TermPlan& plan, bool record_executed);

}  // namespace armada::apps::ccsd
