// The two ways armada-cg moves data, behind one interface: where the vectors live and how
// out = A in reaches the entries of `in` that other ranks own.
//  - rma: the vectors are 1-D GlobalArrays distributed like the rows, and the product is
//    arrays::spmv (one aggregated I/O-vector get per owner, overlapped with the local part).
//  - mpi: the vectors are plain local blocks; at every product each rank sends the entries
//    other ranks' rows need (told once at setup) as one MPI message per peer, overlapped with
//    the local part. Same matrix, same plan, same kernels (multiply_local / multiply_ghost).
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

/// Collective over the matrix's group (the world).
std::unique_ptr<CgComm> make_rma_comm(arrays::SparseMatrix<double>& A);
/// Collective over `comm` (the world): exchanges the lists of needed entries.
std::unique_ptr<CgComm> make_mpi_comm(arrays::SparseMatrix<double>& A, MPI_Comm comm);

}  // namespace armada::apps::cg
