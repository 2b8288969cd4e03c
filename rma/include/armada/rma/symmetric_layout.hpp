// A segment's symmetric layout (rma::symmetric_layout in memory.hpp), apart: the registry uses
// it too, and it needs no MPI.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace armada::rma {

/// How a segment's member bases follow from one address, where they do: every member asked
/// for the same non-zero size, and the symmetric arena placed every node's shared object at one
/// address (ARMADA_SYMMETRIC_GIB, docs/scaling.md). Group rank g's base is then
/// origin + place[g] * slot; `place` (g's place among the group's members on its node) is the
/// group's, shared by all its segments. Where a transport allocates each rank's memory itself
/// and places it in the arena (rdma with UCX's memory), every member's slice lies at the origin
/// of its own address space: slot is 0. A layer that would keep allocate's base per member
/// keeps this instead: 8 B per member per segment less.
struct SymmetricLayout {
  std::uintptr_t origin = 0;
  std::size_t slot = 0;
  std::shared_ptr<const std::vector<std::uint32_t>> place;
  void* base(int group_rank) const noexcept {
    return reinterpret_cast<void*>(origin + (*place)[static_cast<std::size_t>(group_rank)] * slot);
  }
};

}  // namespace armada::rma
