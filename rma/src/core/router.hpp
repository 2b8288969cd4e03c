// The router: which transport carries an operation. This is the one place of the rule
//
//   plain put/get to a slice this process maps (its node's shared memory) -> the node-memory
//     transport (shm): a memcpy, whatever transport reaches the target otherwise;
//   everything else (put/get to unmapped memory, accumulates, RMW, mutexes, waits, fences) ->
//     the target's primary transport: on the same node shm, unless the inter-node transport
//     declares exclusive_atomics (its read-modify-writes are atomic only with its own, so it
//     takes every one of them, on-node ones too); on other nodes the inter-node transport.
//
// so that every read-modify-write of one location takes one path. Each operation is: check,
// look up (registry, then this table), hand off (one virtual call).
#pragma once

#include <memory>
#include <vector>

#include "transport/transport.hpp"

namespace armada::rma::detail {

struct Routes {
  Transport* node = nullptr;              // the node-memory transport (always started)
  Transport* inter = nullptr;             // the inter-node transport, or null (one node, or "none")
  std::vector<Transport*> primary;        // per world rank; null: no transport reaches it
  std::vector<std::unique_ptr<Transport>> started;  // in start order (stopped in reverse)
};

/// Fills routes.primary for this rank by the rule above.
void build_routes(Routes& routes, const std::vector<int>& node_of, int my_rank);

/// The transport for an operation of `kind` whose remote side lies in `slice` of `target` (null:
/// nothing reaches the target). Atomics, mutexes, waits and fences use primary[target].
inline Transport* route_of(const Routes& routes, OpKind kind, const Slice& slice, int target) noexcept {
  if (kind != OpKind::Acc && slice.local) return routes.node;  // plain put/get to mapped memory
  return routes.primary[static_cast<std::size_t>(target)];
}

}  // namespace armada::rma::detail
