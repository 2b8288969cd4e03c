// The main() of a benchmark that runs inside one rma runtime session.
#pragma once

#include <mpi.h>

#include <cstdio>
#include <exception>

#include "armada/rma/runtime.hpp"

namespace armada::bench {

/// Initializes MPI and the rma runtime, returns run(argc, argv) and finalizes; an exception on
/// any rank is printed with the program and the rank and aborts the job (status 3).
inline int run_in_session(const char* program, int argc, char** argv, int (*run)(int, char**)) {
  rma::Session session(&argc, &argv);
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: rank %d: %s\n", program, rma::rank(), e.what());
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  return 3;
}

}  // namespace armada::bench
