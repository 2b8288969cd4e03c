// TileStore on armada::arrays (GlobalArray<double> per tensor, GlobalArray<long> counters).
#pragma once

#include <memory>

#include "store.hpp"

namespace armada::apps::ccsd {

/// Needs an initialized armada::rma runtime on MPI_COMM_WORLD.
std::unique_ptr<TileStore> make_armada_store();

}  // namespace armada::apps::ccsd
