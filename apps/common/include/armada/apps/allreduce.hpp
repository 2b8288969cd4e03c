// One double reduced over a communicator, every rank getting the result: the apps' dot products
// (cg), slowest times (cg) and report sums (ccsd).
#pragma once

#include <mpi.h>

namespace armada::apps {

/// `x` reduced with `op` (MPI_SUM, MPI_MAX, ..) over `comm`, on every rank of it.
inline double allreduce(double x, MPI_Op op, MPI_Comm comm = MPI_COMM_WORLD) {
  double y = 0;
  MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, op, comm);
  return y;
}

}  // namespace armada::apps
