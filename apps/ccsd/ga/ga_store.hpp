// TileStore on Debian's Global Arrays (GA 5.8 over ARMCI-MPI): the same algorithm as on
// armada::arrays, through NGA_NbGet, NGA_NbAcc, NGA_NbWait and NGA_Read_inc.
//
// GA lives in the same program as armada::arrays: GA's ARMCI is ARMCI-MPI's C ARMCI_* symbols
// (libarmci-<mpi>.a), armada::rma is C++-namespaced, and armada's own ARMCI library
// (armada::armci) is not linked, so the two never meet (bench/arrays does the same).
#pragma once

#include <memory>

#include "../store.hpp"

namespace armada::apps::ccsd {

/// Collective: GA_Initialize and MA_init (MPI must be initialized with MPI_THREAD_MULTIPLE).
void ga_start();
/// Collective: GA_Terminate.
void ga_stop();
/// Needs ga_start().
std::unique_ptr<TileStore> make_ga_store();

}  // namespace armada::apps::ccsd
