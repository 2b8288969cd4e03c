// The same-node transport: every operation is a memory copy, an accumulate under the node's
// stripe locks, or a hardware atomic on this process's mapping of the target's segment.
// Everything completes before the call returns, so tokens are always 0 and fences are memory
// fences.
#pragma once

#include "transport/base/locks.hpp"
#include "transport/transport.hpp"

namespace armada::rma::detail {

class ShmTransport final : public Transport {
 public:
  ShmTransport(StripeLocks locks, int spin_limit, int my_rank) noexcept
      : locks_(locks), spin_limit_(spin_limit), my_rank_(my_rank) {}

  const char* name() const noexcept override { return "shm"; }

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

  /// dst (this process's mapping of target memory at `remote`) += scale * src, taking the
  /// stripe locks of [remote, remote + bytes). Shared with transports that execute accumulates
  /// into this node's memory on behalf of remote origins.
  void accumulate_into(AccType type, const void* scale, const std::byte* src, std::byte* dst,
                       std::uintptr_t remote, int owner, std::size_t bytes) noexcept;
  /// RMW on a word this process maps (hardware atomics: atomic with respect to every other).
  static void rmw_at(RmwOp op, std::size_t width, std::byte* word, const void* operand,
                     const void* compare, void* result) noexcept;

 private:
  StripeLocks locks_;
  int spin_limit_;
  int my_rank_;
};

}  // namespace armada::rma::detail
