#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "armada/rma/group.hpp"
#include "common/topology.hpp"

namespace armada::rma {

struct Group::Impl {
  MPI_Comm comm = MPI_COMM_NULL;
  bool owns_comm = false;
  int rank = -1;                  // this process's group rank, -1 if not a member
  std::vector<int> world_ranks;   // group rank -> world rank
  // World rank -> group rank: the members only, sorted by world rank (a table over the whole
  // world cost every group 4 bytes per world rank, members or not: docs/scaling.md). Empty in
  // the world group, whose ranks are the world's.
  std::vector<std::pair<int, int>> group_rank_by_world;
  int world_size = 0;
  bool is_world = false;
  MPI_Comm node_comm = MPI_COMM_NULL;  // members on this node; made at the first allocation

  ~Impl();
  /// The group rank of `world` (a world rank), or -1 if it is not a member.
  int group_rank_of(int world) const;
  /// Fills group_rank_by_world from world_ranks.
  void index_members();
  /// The members of this group on this process's node (collective over the group the first time).
  MPI_Comm node_members();
  /// Per group rank, its place among the group's members on its node, in group order (where
  /// its slice lies in its node's object when every member's slice has one size). Made at the
  /// first call, shared by every segment of the group (common/registry.hpp SymmetricBases).
  std::shared_ptr<const std::vector<std::uint32_t>> node_places(const detail::Topology& topology);

 private:
  std::once_flag places_made_;
  std::shared_ptr<const std::vector<std::uint32_t>> places_;
};

}  // namespace armada::rma
