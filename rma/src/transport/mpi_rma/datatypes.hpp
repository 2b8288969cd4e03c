// MPI datatypes for the mpi-rma transport: one side of a strided shape, and one side of an I/O
// vector, so that a strided or vector operation is a single MPI call (the "direct" method of
// ARMCI-MPI) and the MPI library picks how to move it.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "armada/rma/types.hpp"
#include "desc/strided.hpp"

namespace armada::rma::detail::mpi_rma {

/// A committed derived datatype, freed on destruction (MPI keeps it alive for pending
/// operations that use it, so freeing right after the call is allowed).
class Datatype {
 public:
  Datatype() = default;
  explicit Datatype(MPI_Datatype t) noexcept : type_(t) {}
  Datatype(Datatype&& o) noexcept : type_(o.type_) { o.type_ = MPI_DATATYPE_NULL; }
  Datatype& operator=(Datatype&& o) noexcept;
  Datatype(const Datatype&) = delete;
  Datatype& operator=(const Datatype&) = delete;
  ~Datatype();
  MPI_Datatype get() const noexcept { return type_; }

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

/// The MPI element type of an accumulate type (complex types are MPI_C_*_COMPLEX).
MPI_Datatype element_type(AccType type) noexcept;

/// `count` elements of `element` (size `element_size`) as one (count, type) pair usable in an
/// MPI call: (count, element) when count fits in an int, otherwise (1, derived type).
struct Buffer {
  int count = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  Datatype owned;  // the derived type, if one was needed
};
Buffer element_buffer(std::size_t count, MPI_Datatype element, std::size_t element_size);

/// One side of a strided shape: count[0] bytes (as elements of `element`) repeated at that
/// side's strides. `dst_side` picks dst_stride or src_stride. Throws Unsupported (naming `op`)
/// for a level count above INT_MAX, which MPI's vector constructors cannot express.
Datatype strided_side(const char* op, const Shape& shape, bool dst_side, MPI_Datatype element,
                      std::size_t element_size);

/// Segments of an I/O vector as an hindexed type: `displacements` in bytes (absolute addresses
/// for the origin side, used with MPI_BOTTOM; window displacements for the target side) and
/// `lengths` in elements of `element`.
Datatype indexed(std::span<const MPI_Aint> displacements, std::span<const int> lengths,
                 MPI_Datatype element);

}  // namespace armada::rma::detail::mpi_rma
