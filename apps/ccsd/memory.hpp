// How much memory a problem needs, computed from the settings alone (no tile lists are built),
// so that a problem too large for the machine is refused before anything is allocated.
#pragma once

#include <string>

#include "problem.hpp"

namespace armada::apps::ccsd {

/// Bytes, as doubles (the sizes of absurd problems overflow 64-bit integers).
struct MemoryNeed {
  double tensors = 0;     ///< the stored (nonzero) blocks of V, T, W, X, R, all ranks together
  double per_rank = 0;    ///< each rank: its share of `tensors`, plus block tables, task lists, buffers
  double reference = 0;   ///< --check only: rank 0's dense tensors of the serial reference
  std::string breakdown;  ///< "V 1.2 GB, T 3.4 MB, ..."
};

MemoryNeed estimate_memory(const Settings& s, int ranks, bool with_reference);

/// Memory the operating system can still give to this node (MemAvailable), in bytes.
double available_memory();

/// "1.5 GB"
std::string human_bytes(double bytes);

}  // namespace armada::apps::ccsd
