// What the mpi-rma transport's data paths share (strided.cpp, vector.cpp, mpi_rma_transport.cpp):
// the operation's name in messages, the identity-scale test, the window check, and the one MPI
// call of a put, get or accumulate.
#pragma once

#include <complex>
#include <string>

#include "common/check.hpp"
#include "transport/mpi_rma/mpi_rma_transport.hpp"

namespace armada::rma::detail::mpi_rma {

inline const char* op_name(OpKind kind, bool vector) {
  switch (kind) {
    case OpKind::Put: return vector ? "rma::put_vector (mpi-rma)" : "rma::put (mpi-rma)";
    case OpKind::Get: return vector ? "rma::get_vector (mpi-rma)" : "rma::get (mpi-rma)";
    case OpKind::Acc: return vector ? "rma::acc_vector (mpi-rma)" : "rma::acc (mpi-rma)";
  }
  return "rma (mpi-rma)";
}

/// Whether `scale` is the multiplicative identity of `type` (then no staging is needed).
inline bool is_one(AccType type, const void* scale) {
  switch (type) {
    case AccType::Int: return *static_cast<const int*>(scale) == 1;
    case AccType::Long: return *static_cast<const long*>(scale) == 1;
    case AccType::Float: return *static_cast<const float*>(scale) == 1.0f;
    case AccType::Double: return *static_cast<const double*>(scale) == 1.0;
    case AccType::ComplexFloat: return *static_cast<const std::complex<float>*>(scale) == std::complex<float>(1);
    case AccType::ComplexDouble: return *static_cast<const std::complex<double>*>(scale) == std::complex<double>(1);
  }
  return false;
}

inline void check_window(const char* op, const Slice& slice) {
  if (window_of(slice) == MPI_WIN_NULL) [[unlikely]]
    throw_state(op, "segment " + std::to_string(slice.segment) + " has no MPI window (allocated before the mpi-rma transport started?)");
}

/// One MPI call of `kind` from the origin (buffer, count, type) to (count, type) at `disp` in
/// `rank`'s part of `win`, accumulates with MPI_SUM: MPI_Put/Get/Accumulate, not flushed.
/// Blocking and nonblocking operations alike complete by a flush of (rank, win), never by
/// MPI_Rput/Rget/Raccumulate requests: Open MPI 4.1's osc ucx completes each such request with
/// an extra remote atomic, and over UCX's TCP transport a rank waiting for them in
/// MPI_Waitall, beside the progress thread, was seen never to return (docs/mpi-quirks.md).
inline void call(OpKind kind, const void* origin, int origin_count, MPI_Datatype origin_type, int rank, MPI_Aint disp,
                 int target_count, MPI_Datatype target_type, MPI_Win win) {
  switch (kind) {
    case OpKind::Put:
      MPI_Put(origin, origin_count, origin_type, rank, disp, target_count, target_type, win);
      break;
    case OpKind::Get:
      MPI_Get(const_cast<void*>(origin), origin_count, origin_type, rank, disp, target_count, target_type, win);
      break;
    case OpKind::Acc:
      MPI_Accumulate(origin, origin_count, origin_type, rank, disp, target_count, target_type, MPI_SUM, win);
      break;
  }
}

}  // namespace armada::rma::detail::mpi_rma
