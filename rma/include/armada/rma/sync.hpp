// Completion and synchronization.
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

namespace armada::rma {

/// Returns when every put and accumulate this process issued to `target` has completed there.
void fence(int target);
/// fence() for every target.
void fence_all();
/// fence_all() followed by an MPI barrier over the world: afterwards every rank sees every
/// update issued before the barrier. Collective.
void barrier();

}  // namespace armada::rma
