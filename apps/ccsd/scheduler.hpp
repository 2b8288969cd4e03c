// Runs the tasks of one term across the ranks, each exactly once.
//
// A schedule hands out batches (TermPlan::batches): consecutive tasks of one sector, up to
// a_streamed_batch of them in the pp-ladder, single tasks in the other terms.
// Dynamic schedule: a rank takes the next batch number from the term's shared counter
// (read_inc, the NXTVAL of coupled-cluster codes) until the number passes the end of the list.
// Static schedule: rank r takes batches r, r + P, r + 2P, ... (round-robin, no counter).
// Locality schedule: the batches are split by owner (the rank holding most of a batch's
// streamed blocks), one counter per owner's list; a rank takes batches from its own list with
// read_inc on that list's counter, and when it is exhausted from the next ranks' lists
// (r + 1, r + 2, ... cyclically), so the owner reads its blocks in place and the others only
// take what is left.
// TCE schedule: NWChem's pattern, the baseline (tce.hpp): one task per (output block, contraction
// block) pair from the shared counter, blocking gets and accumulate, no replica, no pipeline.
//
// A rank first gets the term's replicated operand (replica.hpp: arranged by the node's ranks
// together), then walks the chunks of its tasks as one pipeline with two input buffer sets:
// while the dgemm of one chunk runs, the nonblocking gets of the next chunk are in flight. The
// tasks of a batch run side by side,
// chunk 0 of each, then chunk 1 of each, ..., each into its own product: in the pp-ladder they
// multiply the same rows of T's sector matrix with their own V blocks, so those rows are read
// from memory once for the batch rather than once per task. (A chunk of the hh-ladder or the
// ring multiplies a whole sector matrix of T, MBs that no batch keeps in cache.) A streamed
// block in a part of the tensor this rank reads in place (TileStore::in_place) is used there,
// with no get: by the dgemm itself when it is a chunk of its own in the dgemm's layout, else by
// the copy that permutes the chunk's blocks into the panel. At a task's end its product goes
// into R: added in place into the R blocks this rank maps (TileStore::in_place_update; a term's
// tasks write disjoint R blocks, so each has one writer until the term's closing sync), the
// others written into R's block layout and accumulated with nonblocking accumulates (one per
// contiguous run of R blocks), which complete while the next chunks run.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "replica.hpp"
#include "store.hpp"
#include "tasks.hpp"

namespace armada::apps::ccsd {

enum class Schedule { dynamic, static_round_robin, locality, tce };
const char* to_string(Schedule s);

/// Where a rank's time in a term goes (run_term's own schedules; the TCE schedule leaves it
/// zero): arranging the replicated operand, issuing the gets of the next chunk, waiting for
/// them, permuting the chunk's blocks into the panel, the dgemm, adding the product into R
/// (in place, or into the accumulate buffer and issuing the accumulate), completing the last
/// accumulates.
enum class Step { replica, gets, wait, permute, dgemm, update, drain };
inline constexpr std::size_t step_count = 7;
const char* to_string(Step s);

/// What one rank did in one term.
struct TermStats {
  std::int64_t tasks = 0;   ///< tasks executed by this rank
  double flops = 0;         ///< their useful flops
  double bytes = 0;         ///< input bytes fetched (streamed blocks and replicas)
  double bytes_in_place = 0;  ///< streamed and replica bytes read in place from this rank's own part
  double busy = 0;          ///< seconds from the start of the term to this rank's last accumulate
  std::array<double, step_count> steps{};  ///< seconds per Step (they divide `busy`)
  std::vector<std::int64_t> executed;  ///< task numbers executed (only when recorded)
};

/// The buffers of the task loop, sized for every term's tasks and allocated (and touched) once
/// before the terms run.
struct TaskBuffers {
  explicit TaskBuffers(const TermPlans& plans);
  std::array<std::vector<double>, 2> inputs, outputs;  ///< streamed blocks; products in R's layout
  std::vector<double> panel;                           ///< permuted blocks
  std::vector<std::vector<double>> products;           ///< the products of a batch's tasks
};

/// Executes the tasks of `plan` on this rank's share. Not collective itself (the caller
/// brackets it with syncs); the dynamic schedule needs the term's counter at 0.
TermStats run_term(TileStore& store, const Tensors& tensors, const TermPlan& plan, Replicas& replicas,
                   TaskBuffers& buffers, Schedule schedule, bool record_executed);

}  // namespace armada::apps::ccsd
