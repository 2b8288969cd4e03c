// This process's rank and the number of ranks in MPI_COMM_WORLD (every part of armada-ccsd
// runs on the world).
#pragma once

#include <mpi.h>

namespace armada::apps::ccsd {

inline int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

inline int world_size() {
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

}  // namespace armada::apps::ccsd
