// Process groups: ordered subsets of the world with rank translation.
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

#include <mpi.h>

#include <memory>
#include <span>
#include <vector>

namespace armada::rma {

class Group {
 public:
  /// The whole world (every rank, in order).
  static Group world();

  /// A group of `ranks` (ranks of `parent`, listed in the new group's order; no duplicates).
  /// Collective over `parent`, with MPI_Comm_create's rule: every rank named in a list passes
  /// exactly that list. So either every parent rank passes the same list, or several disjoint
  /// groups are made at once (each rank passing its own group's list, as Global Arrays makes one
  /// group per node); a rank in no group passes an empty list (or a list it is not in). A caller
  /// not listed receives a group it is not a member of (rank() == -1). Lists that break the rule
  /// fail on every parent rank with InvalidArgument naming two ranks and their lists.
  static Group create(const Group& parent, std::span<const int> ranks);

  int size() const noexcept;
  /// This process's rank in the group, or -1 if it is not a member.
  int rank() const noexcept;
  bool is_member() const noexcept { return rank() >= 0; }

  /// World rank of group rank `group_rank` (throws InvalidArgument if out of range).
  int world_rank(int group_rank) const;
  /// Group rank of world rank `world_rank`, or -1 if that rank is not a member.
  int group_rank(int world_rank) const;
  /// World ranks of the members, in group order.
  std::span<const int> world_ranks() const noexcept;

  /// The group's communicator (MPI_COMM_NULL on non-members).
  MPI_Comm comm() const noexcept;

  bool operator==(const Group& other) const noexcept { return impl_ == other.impl_; }

  struct Impl;
  explicit Group(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  const std::shared_ptr<Impl>& impl() const noexcept { return impl_; }

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace armada::rma
