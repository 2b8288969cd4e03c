// The limit a contraction cannot beat: the dgemms of its tasks (every chunk's dgemm, at the
// same shapes and leading dimensions, the same task list) run locally, every rank at once on
// its round-robin share: no communication, no replica, no permutation. Its inputs are one buffer
// per operand, reused by every chunk (in cache), or, streamed, every chunk's streamed operand at
// its own address (read from memory once, as the contraction reads each streamed block once).
#pragma once

#include <array>

#include "contraction.hpp"

namespace armada::apps::ccsd {

/// What this rank's share took.
struct DgemmRun {
  double flops = 0;
  double seconds = 0;
  std::array<double, term_count> term_flops{}, term_seconds{};  ///< the same, per term
  double checksum = 0;  ///< sum of the last product of each term (keeps the work observable)
};

/// What the task list must move besides its dgemms (bytes, 8 per element): every chunk's
/// streamed blocks (gets: m x k of an A-streamed chunk, k x n of a B-streamed one) and every
/// task's product added into R (accumulates: m x n), for this rank's round-robin share of the
/// tasks (as the limit's share) or for all of them.
struct TaskListBytes {
  double gets = 0, accumulates = 0;
};
TaskListBytes task_list_bytes(const TermPlans& plans, int rank, int ranks);

/// Runs this rank's share (task numbers rank, rank + P, ...) of every term's dgemms. Starts and
/// ends with an MPI barrier, so all ranks compute at the same time.
/// `streamed`: each chunk's streamed operand at its own address.
DgemmRun run_dgemm_limit(const TermPlans& plans, bool streamed);

}  // namespace armada::apps::ccsd
