#pragma once

#include <mpi.h>

#include <vector>

#include "armada/rma/group.hpp"

namespace armada::rma {

struct Group::Impl {
  MPI_Comm comm = MPI_COMM_NULL;
  bool owns_comm = false;
  int rank = -1;                  // this process's group rank, -1 if not a member
  std::vector<int> world_ranks;   // group rank -> world rank
  std::vector<int> group_rank_of; // world rank -> group rank or -1
  MPI_Comm node_comm = MPI_COMM_NULL;  // members on this node; made at the first allocation

  ~Impl();
  /// The members of this group on this process's node (collective over the group the first time).
  MPI_Comm node_members();
};

}  // namespace armada::rma
