// Read-modify-write atomics on remote int and long locations (ARMCI_Rmw).
//
// Each is atomic with respect to every other rma atomic on the same location, whichever rank and
// transport issues it. The location must be naturally aligned and inside a segment.
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

#include "armada/rma/global_ptr.hpp"
#include "armada/rma/types.hpp"

namespace armada::rma {

enum class RmwOp : int { FetchAdd, Swap, CompareSwap };

namespace detail {
/// result = old value; operand = addend / new value; compare used by CompareSwap only.
void rmw(RmwOp op, std::size_t width, void* remote, int target, const void* operand,
         const void* compare, void* result);
}  // namespace detail

/// Adds `value` and returns the previous value.
template <AtomicType T>
T fetch_add(GlobalPtr<T> location, T value) {
  T old;
  detail::rmw(RmwOp::FetchAdd, sizeof(T), location.address(), location.rank(), &value, nullptr, &old);
  return old;
}
/// Stores `value` and returns the previous value.
template <AtomicType T>
T swap(GlobalPtr<T> location, T value) {
  T old;
  detail::rmw(RmwOp::Swap, sizeof(T), location.address(), location.rank(), &value, nullptr, &old);
  return old;
}
/// Stores `desired` if the location holds `expected`; returns the previous value either way.
template <AtomicType T>
T compare_swap(GlobalPtr<T> location, T expected, T desired) {
  T old;
  detail::rmw(RmwOp::CompareSwap, sizeof(T), location.address(), location.rank(), &desired,
              &expected, &old);
  return old;
}

}  // namespace armada::rma
