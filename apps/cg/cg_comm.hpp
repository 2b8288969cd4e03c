// The two ways armada-cg moves data, behind one interface: where the vectors live and how
// out = A in reaches the entries of `in` that other ranks own.
//  - rma: at every product each rank puts the entries other ranks' rows need (told once at
//    setup) into their ghost slots, an rma segment, with one rma::put_notify per peer (the
//    data, then an arrival count), overlapped with the local part, and waits on its own
//    count; credits (0-byte notifies) say when slots may be overwritten. No get, no barrier.
//  - mpi: the same entries as one MPI message per peer, overlapped with the local part.
// Both: the vectors are plain local blocks distributed like the rows; same matrix, same plan,
// same kernels (multiply_local / multiply_ghost).
#pragma once

#include <mpi.h>

#include <memory>

#include "armada/arrays/sparse.hpp"
#include "cg_solver.hpp"

namespace armada::apps::cg {

class CgComm {
 public:
  virtual ~CgComm() = default;
  /// This rank's blocks of x, z, p, q, r.
  virtual CgVectors vectors() = 0;
  /// out = A in (collective).
  virtual void multiply(Vec in, Vec out) = 0;
};

/// How the one-sided exchange reuses its ghost slots (cg_comm.cpp): two halves alternating
/// where every rank sends to exactly the ranks it receives from (no credit messages), else one
/// half freed by credits; OneHalf forces the latter (for tests).
enum class RmaSlots { Auto, OneHalf };

/// Collective over the matrix's group (the world).
std::unique_ptr<CgComm> make_rma_comm(arrays::SparseMatrix<double>& A, RmaSlots slots = RmaSlots::Auto);
/// Collective over `comm` (the world): exchanges the lists of needed entries.
std::unique_ptr<CgComm> make_mpi_comm(arrays::SparseMatrix<double>& A, MPI_Comm comm);

}  // namespace armada::apps::cg
