// The mpi-rma transport's I/O vector paths: batched per-segment calls for small sets, the direct
// method (one call with hindexed datatypes) when every remote segment lies in one window and none
// overlap, and per-segment calls otherwise.
#include <complex>
#include <cstring>
#include <limits>
#include <map>

#include "common/check.hpp"
#include "desc/accumulate.hpp"
#include "desc/iov.hpp"
#include "transport/mpi_rma/datatypes.hpp"
#include "transport/mpi_rma/operations.hpp"

namespace armada::rma::detail {

using namespace mpi_rma;  // the transport's shared pieces (datatypes.hpp, operations.hpp) by their short names

std::uint64_t MpiRmaTransport::vector(const VectorOp& op, bool blocking) {
  // The direct method needs every remote segment in one window and no two remote segments
  // overlapping (MPI forbids overlapping target entries in one operation): the conflict check.
  const bool one_window = op.slices == nullptr;
  if (one_window && !side_overlaps(op.sets, op.kind != OpKind::Get)) {
    std::size_t segments = 0;
    for (const IoSet& set : op.sets) segments += set.src.size();
    return segments <= settings_.batched_segments ? vector_batched(op, blocking) : vector_direct(op, blocking);
  }
  vector_per_segment(op);
  return 0;
}

std::uint64_t MpiRmaTransport::vector_batched(const VectorOp& op, bool blocking) {
  // ARMCI-MPI's batched method: one MPI call per segment on a predefined type, one completion
  // for all (the segments were checked not to overlap). Building an hindexed type costs Open MPI
  // more than issuing a thousand calls on shared memory (measured: 1024 segments of 16 B took
  // 20-130 us through hindexed types, depending on malloc's state, against 10-15 us batched).
  std::size_t bytes = 0;
  for (const IoSet& set : op.sets) bytes += set.src.size() * set.bytes;
  Batch batch(*this, op.kind, op.type, op.scale, *op.slice, true, bytes);
  const bool get = op.kind == OpKind::Get;
  for (const IoSet& set : op.sets) {
    const std::span<void* const> local = get ? set.dst : set.src;
    const std::span<void* const> remote = get ? set.src : set.dst;
    for (std::size_t i = 0; i < local.size(); ++i) batch.add(local[i], remote[i], set.bytes);
  }
  return batch.finish(blocking);
}

MpiRmaTransport::Batch::Batch(MpiRmaTransport& t, OpKind kind, AccType type, const void* scale, const Slice& slice,
                              bool vector, std::size_t bytes)
    : t_(t), kind_(kind), type_(type), scale_(scale), slice_(slice) {
  check_window(op_name(kind, vector), slice);
  const bool acc = kind == OpKind::Acc;
  element_ = acc ? element_type(type) : MPI_BYTE;
  esize_ = acc ? size_of(type) : 1;
  if (acc && !is_one(type, scale)) {
    staging_ = std::make_unique<std::byte[]>(bytes);
    scaled_ = staging_.get();
  }
}

void MpiRmaTransport::Batch::add(const void* local, const void* remote, std::size_t bytes) {
  if (scaled_) {
    accumulate(type_, scale_, static_cast<const std::byte*>(local), scaled_, bytes);
    local = scaled_;
    scaled_ += bytes;
  }
  const int count = static_cast<int>(bytes / esize_);
  mpi_rma::call(kind_, local, count, element_, window_rank_of(slice_), window_displacement(slice_, remote), count,
                element_, window_of(slice_));
}

std::uint64_t MpiRmaTransport::Batch::finish(bool blocking) {
  return t_.finish(blocking, slice_, kind_ != OpKind::Get, std::move(staging_));
}

std::uint64_t MpiRmaTransport::vector_direct(const VectorOp& op, bool blocking) {
  const char* name = op_name(op.kind, true);
  const Slice& slice = *op.slice;
  check_window(name, slice);
  const bool acc = op.kind == OpKind::Acc;
  const bool remote_is_dst = op.kind != OpKind::Get;
  const MPI_Datatype element = acc ? element_type(op.type) : MPI_BYTE;
  const std::size_t esize = acc ? size_of(op.type) : 1;

  std::size_t n = 0, bytes = 0;
  for (const IoSet& set : op.sets) {
    n += set.src.size();
    bytes += set.src.size() * set.bytes;
  }
  std::vector<MPI_Aint> local_disp, remote_disp;
  std::vector<int> lengths;
  local_disp.reserve(n);
  remote_disp.reserve(n);
  lengths.reserve(n);
  std::unique_ptr<std::byte[]> staging;
  const bool scaled = acc && !is_one(op.type, op.scale);
  if (scaled) staging = std::make_unique<std::byte[]>(bytes);
  std::byte* out = staging.get();
  for (const IoSet& set : op.sets) {
    const std::span<void* const> local = remote_is_dst ? set.src : set.dst;
    const std::span<void* const> remote = remote_is_dst ? set.dst : set.src;
    for (std::size_t i = 0; i < local.size(); ++i) {
      if (scaled) {
        accumulate(op.type, op.scale, static_cast<const std::byte*>(local[i]), out, set.bytes);
        out += set.bytes;
      } else {
        MPI_Aint a;
        MPI_Get_address(local[i], &a);
        local_disp.push_back(a);
      }
      remote_disp.push_back(window_displacement(slice, remote[i]));
      lengths.push_back(static_cast<int>(set.bytes / esize));
    }
  }
  Datatype remote_type = mpi_rma::indexed(remote_disp, lengths, element);
  Datatype local_type;
  Buffer flat;
  const void* origin = MPI_BOTTOM;
  int origin_count = 1;
  MPI_Datatype otype;
  if (scaled) {
    flat = mpi_rma::element_buffer(bytes / esize, element, esize);
    origin = staging.get();
    origin_count = flat.count;
    otype = flat.type;
  } else {
    local_type = mpi_rma::indexed(local_disp, lengths, element);
    otype = local_type.get();
  }
  const int rank = window_rank_of(slice);
  mpi_rma::call(op.kind, origin, origin_count, otype, rank, 0, 1, remote_type.get(), window_of(slice));
  return finish(blocking, slice, op.kind != OpKind::Get, std::move(staging));
}

void MpiRmaTransport::vector_per_segment(const VectorOp& op) {
  // The conservative method: one MPI call per segment. Puts to overlapping locations are
  // flushed one by one so the later one wins, as in sequential order; accumulates are
  // ordered by MPI's default accumulate ordering; gets only read.
  const char* name = op_name(op.kind, true);
  const bool remote_is_dst = op.kind != OpKind::Get;
  std::vector<std::pair<MPI_Win, int>> touched;
  std::vector<std::byte> scaled;
  const bool scale = op.kind == OpKind::Acc && !is_one(op.type, op.scale);
  std::size_t k = 0;
  for (const IoSet& set : op.sets) {
    const std::span<void* const> local = remote_is_dst ? set.src : set.dst;
    const std::span<void* const> remote = remote_is_dst ? set.dst : set.src;
    for (std::size_t i = 0; i < local.size(); ++i, ++k) {
      const Slice& slice = op.slice_of(k);
      check_window(name, slice);
      const MPI_Aint disp = window_displacement(slice, remote[i]);
      const int rank = window_rank_of(slice);
      if (touched.empty() || touched.back() != std::make_pair(window_of(slice), rank))
        touched.emplace_back(window_of(slice), rank);
      switch (op.kind) {
        case OpKind::Put: {
          Buffer b = mpi_rma::element_buffer(set.bytes, MPI_BYTE, 1);
          MPI_Put(local[i], b.count, b.type, rank, disp, b.count, b.type, window_of(slice));
          MPI_Win_flush(rank, window_of(slice));
          break;
        }
        case OpKind::Get: {
          Buffer b = mpi_rma::element_buffer(set.bytes, MPI_BYTE, 1);
          MPI_Get(local[i], b.count, b.type, rank, disp, b.count, b.type, window_of(slice));
          break;
        }
        case OpKind::Acc: {
          const void* src = local[i];
          if (scale) {
            scaled.assign(set.bytes, std::byte{0});
            accumulate(op.type, op.scale, static_cast<const std::byte*>(local[i]), scaled.data(), set.bytes);
            src = scaled.data();
          }
          const std::size_t esize = size_of(op.type);
          Buffer b = mpi_rma::element_buffer(set.bytes / esize, element_type(op.type), esize);
          MPI_Accumulate(src, b.count, b.type, rank, disp, b.count, b.type, MPI_SUM, window_of(slice));
          // The staging buffer is reused for the next segment: complete this one locally.
          if (scale) MPI_Win_flush_local(rank, window_of(slice));
          break;
        }
      }
    }
  }
  for (const auto& [win, rank] : touched) {
    if (op.kind == OpKind::Get) MPI_Win_flush_local(rank, win);
    else MPI_Win_flush(rank, win);
  }
}
}  // namespace armada::rma::detail
