// Collective allocation of remotely accessible memory, and local allocation.
//
// On a node, segments live in POSIX shared memory mapped by every rank of the node, private to
// the user (mode 0600) and unlinked as soon as every local rank has mapped it, so that nothing
// stays in /dev/shm even if the job is killed. Under the mpi-rma transport with
// ARMADA_MPI_MEMORY=mpi (its default), MPI_Win_allocate provides each rank's slice instead.
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

#include <cstddef>
#include <optional>
#include <vector>

#include "armada/rma/global_ptr.hpp"
#include "armada/rma/group.hpp"
#include "armada/rma/symmetric_layout.hpp"

namespace armada::rma {

/// Allocates `bytes` (may differ per rank, may be 0) on every rank of `group`.
/// Collective over `group`. Returns each member's base address in its own address space,
/// indexed by group rank; a rank that asked for 0 bytes has a null base.
std::vector<void*> allocate(std::size_t bytes, const Group& group = Group::world());

/// Frees the segment whose local base is `my_base` (null on ranks that allocated 0 bytes).
/// Collective over `group`, which must be the group the segment was allocated on.
void free(void* my_base, const Group& group = Group::world());

/// Size in bytes of the local slice of the segment with local base `my_base`.
std::size_t segment_size(void* my_base);

/// The layout (symmetric_layout.hpp) of the segment whose local base is `my_base`, or nothing (its bases differ per
/// member: keep allocate's). InvalidArgument for a pointer that is no segment's local base.
std::optional<SymmetricLayout> symmetric_layout(void* my_base);

/// This process's address of [remote, remote + bytes) of `target`'s memory when this process
/// maps it, else null. A rank maps its own slice, and those of the ranks of its node
/// (ARMADA_NODE_SIZE's virtual nodes count as nodes) where the node's shared memory holds them:
/// not under mpi-rma with ARMADA_MPI_MEMORY=mpi, and under rdma's UCX memory only where UCX
/// maps a peer's keys. There a put or get to the range is a memcpy by the calling CPU,
/// and loads and stores through this address do the same without the copy. They are ordered
/// with the other ranks' accesses by the synchronization the program already uses (a barrier
/// or a fence, as for a get), and are not atomic with accumulates. The range must lie in one
/// segment of `target` from rma::allocate (InvalidArgument otherwise). Not collective.
void* node_address(int target, const void* remote, std::size_t bytes);

/// Local memory for source and destination buffers (any memory works; this is page aligned).
/// Needs no runtime; bytes == 0 gives null.
void* allocate_local(std::size_t bytes);
/// Frees memory from allocate_local; null does nothing. Any other pointer (memory the library
/// did not allocate, or freed already) is an InvalidArgument and nothing is freed.
void free_local(void* ptr);

}  // namespace armada::rma
