#include "transport/mpi_rma/datatypes.hpp"

#include <climits>
#include <string>
#include <utility>

#include "common/check.hpp"

namespace armada::rma::detail::mpi_rma {

Datatype& Datatype::operator=(Datatype&& o) noexcept {
  std::swap(type_, o.type_);
  return *this;
}

Datatype::~Datatype() {
  if (type_ != MPI_DATATYPE_NULL) MPI_Type_free(&type_);
}

MPI_Datatype element_type(AccType type) noexcept {
  switch (type) {
    case AccType::Int: return MPI_INT;
    case AccType::Long: return MPI_LONG;
    case AccType::Float: return MPI_FLOAT;
    case AccType::Double: return MPI_DOUBLE;
    case AccType::ComplexFloat: return MPI_C_FLOAT_COMPLEX;
    case AccType::ComplexDouble: return MPI_C_DOUBLE_COMPLEX;
  }
  return MPI_DATATYPE_NULL;
}

namespace {
MPI_Datatype committed(MPI_Datatype t) {
  MPI_Type_commit(&t);
  return t;
}
}  // namespace

Buffer element_buffer(std::size_t count, MPI_Datatype element, std::size_t element_size) {
  Buffer b;
  if (count <= static_cast<std::size_t>(INT_MAX)) {
    b.count = static_cast<int>(count);
    b.type = element;
    return b;
  }
  // More than INT_MAX elements: blocks of 2^30 elements, plus the remainder as a struct member.
  constexpr std::size_t kBlock = std::size_t{1} << 30;
  const std::size_t blocks = count / kBlock, rest = count % kBlock;
  MPI_Datatype block, body;
  MPI_Type_contiguous(static_cast<int>(kBlock), element, &block);
  MPI_Type_contiguous(static_cast<int>(blocks), block, &body);
  MPI_Type_free(&block);
  MPI_Datatype whole = body;
  if (rest) {
    MPI_Datatype tail;
    MPI_Type_contiguous(static_cast<int>(rest), element, &tail);
    int lengths[2] = {1, 1};
    MPI_Aint displacements[2] = {0, static_cast<MPI_Aint>(blocks * kBlock * element_size)};
    MPI_Datatype types[2] = {body, tail};
    MPI_Type_create_struct(2, lengths, displacements, types, &whole);
    MPI_Type_free(&body);
    MPI_Type_free(&tail);
  }
  b.owned = Datatype(committed(whole));
  b.count = 1;
  b.type = b.owned.get();
  return b;
}

Datatype strided_side(const char* op, const Shape& shape, bool dst_side, MPI_Datatype element,
                      std::size_t element_size) {
  for (int l = 1; l <= shape.levels; ++l)
    if (shape.count[l] > static_cast<std::size_t>(INT_MAX))
      throw_unsupported(op, "count[" + std::to_string(l) + "] = " + std::to_string(shape.count[l]) +
                                " exceeds what one MPI datatype level can describe (INT_MAX) on the mpi-rma transport");
  Buffer run = element_buffer(shape.count[0] / element_size, element, element_size);
  MPI_Datatype t;
  if (run.count == 1 && run.owned.get() != MPI_DATATYPE_NULL) {
    MPI_Type_dup(run.type, &t);
  } else {
    MPI_Type_contiguous(run.count, run.type, &t);
  }
  const std::size_t* stride = dst_side ? shape.dst_stride : shape.src_stride;
  for (int l = 0; l < shape.levels; ++l) {
    MPI_Datatype outer;
    MPI_Type_create_hvector(static_cast<int>(shape.count[l + 1]), 1, static_cast<MPI_Aint>(stride[l]), t, &outer);
    MPI_Type_free(&t);
    t = outer;
  }
  return Datatype(committed(t));
}

Datatype indexed(std::span<const MPI_Aint> displacements, std::span<const int> lengths,
                 MPI_Datatype element) {
  MPI_Datatype t;
  MPI_Type_create_hindexed(static_cast<int>(displacements.size()), lengths.data(), displacements.data(),
                           element, &t);
  return Datatype(committed(t));
}

}  // namespace armada::rma::detail::mpi_rma
