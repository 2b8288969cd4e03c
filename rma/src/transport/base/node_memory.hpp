// A node's memory primitives, shared by every transport that reads or modifies a node's
// segment memory on behalf of an origin: the shm transport (the origin itself, on the node),
// a node server or an RDMA transport's request handler (a helper thread acting for a remote
// origin). Whoever executes it, an accumulate takes the same stripe lock in node shared memory
// and an RMW is a hardware atomic on the same word, so both stay atomic across transports.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>

#include "armada/rma/atomic.hpp"
#include "armada/rma/types.hpp"
#include "transport/base/locks.hpp"
#include "transport/base/shm_region.hpp"

namespace armada::rma::detail {

class NodeMemory {
 public:
  /// Collective over `node_comm`: maps the node's stripe-lock region.
  NodeMemory(const char* op, MPI_Comm node_comm, int spin_limit);
  NodeMemory(const NodeMemory&) = delete;
  NodeMemory& operator=(const NodeMemory&) = delete;

  /// dst (this process's mapping of `owner`'s memory at `remote`, its owner's address) +=
  /// scale * src, `bytes` bytes of whole elements, under the stripe locks of [remote, remote +
  /// bytes). Atomic per element with every other accumulate on the node, whoever runs it.
  void accumulate(AccType type, const void* scale, const std::byte* src, std::byte* dst, std::uintptr_t remote,
                  int owner, std::size_t bytes) noexcept;
  /// RMW on a word this process maps (hardware atomics: atomic with respect to every other RMW
  /// on the word, whoever runs it). `result` receives the old value.
  static void rmw(RmwOp op, std::size_t width, std::byte* word, const void* operand, const void* compare,
                  void* result) noexcept;
  /// Busy-wait rounds before a waiter yields or sleeps (ARMADA_SPIN_LIMIT).
  int spin_limit() const noexcept { return spin_limit_; }
  /// What a process waiting for a lock in this memory does meanwhile (the core sets it while
  /// the transports run: serve what this process owes other ranks); nothing by default.
  void set_meanwhile(WaitHook hook) noexcept { meanwhile_ = hook; }
  WaitHook meanwhile() const noexcept { return meanwhile_; }

 private:
  ShmRegion region_;
  StripeLocks locks_;
  int spin_limit_;
  WaitHook meanwhile_;
};

}  // namespace armada::rma::detail
