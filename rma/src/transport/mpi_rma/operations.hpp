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
/// `rank`'s part of `win`, accumulates with MPI_SUM. Blocking: MPI_Put/Get/Accumulate, not
/// flushed, and MPI_REQUEST_NULL; otherwise the request of MPI_Rput/Rget/Raccumulate.
inline MPI_Request call(OpKind kind, bool blocking, const void* origin, int origin_count, MPI_Datatype origin_type,
                        int rank, MPI_Aint disp, int target_count, MPI_Datatype target_type, MPI_Win win) {
  MPI_Request r = MPI_REQUEST_NULL;
  switch (kind) {
    case OpKind::Put:
      if (blocking) MPI_Put(origin, origin_count, origin_type, rank, disp, target_count, target_type, win);
      else MPI_Rput(origin, origin_count, origin_type, rank, disp, target_count, target_type, win, &r);
      break;
    case OpKind::Get: {
      void* into = const_cast<void*>(origin);
      if (blocking) MPI_Get(into, origin_count, origin_type, rank, disp, target_count, target_type, win);
      else MPI_Rget(into, origin_count, origin_type, rank, disp, target_count, target_type, win, &r);
      break;
    }
    case OpKind::Acc:
      if (blocking) MPI_Accumulate(origin, origin_count, origin_type, rank, disp, target_count, target_type, MPI_SUM, win);
      else MPI_Raccumulate(origin, origin_count, origin_type, rank, disp, target_count, target_type, MPI_SUM, win, &r);
      break;
  }
  return r;
}

}  // namespace armada::rma::detail::mpi_rma
