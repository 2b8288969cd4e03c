// Runs the tasks of one term across the ranks, each exactly once.
//
// Dynamic schedule: a rank takes the next task number from the term's shared counter
// (read_inc, the NXTVAL of coupled-cluster codes) until the number passes the end of the list.
// Static schedule: rank r takes tasks r, r + P, r + 2P, ... (round-robin, no counter).
// Either way a rank pipelines its tasks: while the dgemm of the current task runs, the gets of
// its next task's input blocks are in flight, and the accumulate of the previous product
// into R completes; two sets of buffers alternate.
#pragma once

#include <cstdint>
#include <vector>

#include "store.hpp"
#include "tasks.hpp"

namespace armada::apps::ccsd {

enum class Schedule { dynamic, static_round_robin };
const char* to_string(Schedule s);

/// What one rank did in one term.
struct TermStats {
  std::int64_t tasks = 0;   ///< tasks executed by this rank
  double flops = 0;         ///< their useful flops
  double bytes = 0;         ///< input bytes fetched
  double busy = 0;          ///< seconds from the start of the term to this rank's last accumulate
  std::vector<std::int64_t> executed;  ///< task numbers executed (only when recorded)
};

/// Executes the tasks of `term` on this rank's share. Not collective itself (the caller
/// brackets it with syncs); the dynamic schedule needs the term's counter at 0.
TermStats run_term(TileStore& store, Term term, const std::vector<Task>& tasks, Schedule schedule,
                   bool record_executed);

}  // namespace armada::apps::ccsd
