// How BLAS threads and ranks share the cores, and linalg's other settings.
//
// Policy: one BLAS thread per rank by default. Armada runs one rank per core (or more ranks
// than cores in tests); OpenBLAS's default of one thread per core in every rank would
// oversubscribe the node by a factor of the ranks per node and make gemm slower, not faster.
// A job that runs fewer ranks than cores per node (e.g. one rank per socket) raises it with
// ARMADA_LINALG_BLAS_THREADS or set_blas_threads().
//
// linalg's settings are read from the environment on the first linalg call of the process; they
// belong to linalg (rma's own table knows nothing of linalg) but are rows of rma's form
// (rma::SettingRule), read and checked by rma::read_settings with rma's rules and messages;
// armada-info and docs/configuration.md list them after rma's, docs/linalg.md explains them.
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

#include <span>

#include "armada/rma/config.hpp"

namespace armada::linalg {

/// linalg's rows of settings (rma's row form: documentation, range).
std::span<const rma::SettingRule> settings() noexcept;

/// BLAS threads each rank uses for its local multiplies and ScaLAPACK's local work
/// (ARMADA_LINALG_BLAS_THREADS, default 1).
int blas_threads();
/// Changes it for this process (n >= 1; throws InvalidArgument otherwise). Not collective, but
/// ranks normally agree.
void set_blas_threads(int n);

/// The k-panel of gemm and the ScaLAPACK block size (ARMADA_LINALG_GEMM_PANEL, default 256;
/// ARMADA_LINALG_BLOCK, default 64).
int gemm_panel();
int scalapack_block();

}  // namespace armada::linalg
