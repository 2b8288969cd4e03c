// The same-node transport: every operation is a memory copy, an accumulate under the node's
// stripe locks, or a hardware atomic on this process's mapping of the target's segment
// (NodeMemory). Everything completes before the call returns, so tokens are always 0 and fences
// are memory fences. It is the node-memory transport of the router (core/router.hpp).
#pragma once

#include "transport/base/node_memory.hpp"
#include "transport/transport.hpp"

namespace armada::rma::detail {

class ShmTransport final : public Transport {
 public:
  ShmTransport(NodeMemory& memory, int my_rank) noexcept : memory_(memory), my_rank_(my_rank) {}

  TransportCaps caps() const noexcept override;

  std::uint64_t strided(const StridedOp& op, bool blocking) override;
  std::uint64_t vector(const VectorOp& op, bool blocking) override;

  void rmw(RmwOp op, std::size_t width, void* remote, const Slice& slice, int target,
           const void* operand, const void* compare, void* result) override;
  void mutex_lock(void* word, const Slice& slice, int target) override;
  bool mutex_try_lock(void* word, const Slice& slice, int target) override;
  void mutex_unlock(void* word, const Slice& slice, int target) override;

  void wait(std::uint64_t) override {}
  bool test(std::uint64_t) override { return true; }
  void fence(int) override;
  void fence_all() override;
  void poll() override {}

 private:
  NodeMemory& memory_;
  int my_rank_;
};

}  // namespace armada::rma::detail
