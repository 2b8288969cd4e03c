#include "armada/rma/atomic.hpp"

#include <string>

#include "common/check.hpp"
#include "core/state.hpp"

namespace armada::rma::detail {

void rmw(RmwOp op, std::size_t width, void* remote, int target, const void* operand,
         const void* compare, void* result) {
  static constexpr const char* kNames[] = {"rma::fetch_add", "rma::swap", "rma::compare_swap"};
  const int code = static_cast<int>(op);
  if (code < 0 || code > 2)
    throw_invalid("rma::rmw", "op", std::to_string(code), "not an RmwOp (FetchAdd, Swap, CompareSwap)");
  const char* name = kNames[code];
  State& s = state(name);
  check_rank(name, "target", s, target);
  if (width != 4 && width != 8)
    throw_invalid(name, "width", std::to_string(width), "atomics work on 4-byte int and 8-byte long");
  if (reinterpret_cast<std::uintptr_t>(remote) % width != 0)
    throw_invalid(name, "location", to_hex(remote) + " on rank " + std::to_string(target),
                  "not aligned to its " + std::to_string(width) + "-byte size");
  const Slice* slice = s.registry->find(target, remote, width);
  // Formatted only for an error: an atomic is a few hundred nanoseconds on one node.
  auto value = [&] { return to_hex(remote) + " on rank " + std::to_string(target); };
  if (!slice)
    throw_invalid(name, "location", value(),
                  "not inside a segment of rank " + std::to_string(target) + " allocated with rma::allocate");
  if (slice->internal) throw_internal_memory(name, "location", value(), *slice);
  route(name, s, target).rmw(op, width, remote, *slice, target, operand, compare, result);
}

}  // namespace armada::rma::detail
