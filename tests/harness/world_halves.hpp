// The world split into two halves (even and odd world ranks) for the tests that run a runtime on
// a sub-communicator; the halves' communicator is freed with the value.
#pragma once

#include <mpi.h>

namespace armada::test {

struct WorldHalves {
  int world_rank = 0, world_size = 0;
  MPI_Comm half = MPI_COMM_NULL;  // this rank's half, ranked as in the world
  int half_rank = 0, half_size = 0;

  WorldHalves() {
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, world_rank, &half);
    MPI_Comm_rank(half, &half_rank);
    MPI_Comm_size(half, &half_size);
  }
  ~WorldHalves() { MPI_Comm_free(&half); }
  WorldHalves(const WorldHalves&) = delete;
  WorldHalves& operator=(const WorldHalves&) = delete;
};

}  // namespace armada::test
