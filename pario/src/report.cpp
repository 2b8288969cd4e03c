#include "report.hpp"

#include <mpi.h>

#include <cstdio>

namespace armada::pario {

int refuse(int code, const std::string& function, const std::string& argument, const std::string& value,
           const std::string& why) {
  int rank = 0, up = 0;
  MPI_Initialized(&up);
  if (up) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  // One write per message, so that the lines of several ranks do not interleave.
  const std::string line =
      "[rank " + std::to_string(rank) + "] " + function + ": argument '" + argument + "' = " + value + ": " + why + "\n";
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
  return code;
}

std::string quoted(const char* s) { return s ? "\"" + std::string(s) + "\"" : "NULL"; }

std::string Caller::entry(const char* base, int d, int ndim) const {
  if (fortran) return std::string(base) + "(" + std::to_string(ndim - d) + ")";
  return std::string(base) + "[" + std::to_string(d) + "]";
}

}  // namespace armada::pario
