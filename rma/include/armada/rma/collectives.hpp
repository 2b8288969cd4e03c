// Thin collectives over MPI, with the operations ARMCI programs use (armci_msg_*gop).
#pragma once

#include <cstddef>
#include <span>

#include "armada/rma/group.hpp"

namespace armada::rma {

enum class ReduceOp : int {
  Sum, Prod, Min, Max,
  AbsMax,   ///< max |x|  (ARMCI "absmax")
  AbsMin,   ///< min |x|  (ARMCI "absmin")
  BitOr, BitAnd, BitXor,   ///< integer types only
  LogicalOr, LogicalAnd,   ///< integer types only
};

/// In-place reduction of `data` over `group`; every member gets the result. T is int, long,
/// long long, float or double. Collective over `group`.
template <class T>
void allreduce(std::span<T> data, ReduceOp op, const Group& group = Group::world());

/// Broadcasts `bytes` bytes from group rank `root` (any size: large buffers go in pieces).
void broadcast(void* buffer, std::size_t bytes, int root, const Group& group = Group::world());

}  // namespace armada::rma
