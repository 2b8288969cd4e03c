// The mpi-rma transport's contiguous and strided paths: one MPI call with derived datatypes
// (the direct method), a batch of per-run calls for few small runs, and accumulates with a
// scale staged into a packed buffer first.
#include <complex>
#include <cstring>
#include <limits>

#include "common/check.hpp"
#include "desc/accumulate.hpp"
#include "transport/mpi_rma/datatypes.hpp"
#include "transport/mpi_rma/operations.hpp"

namespace armada::rma::detail {

using namespace mpi_rma;  // the transport's shared pieces (datatypes.hpp, operations.hpp) by their short names

std::uint64_t MpiRmaTransport::strided(const StridedOp& op, bool blocking) {
  // (Plain put/get to memory this process maps never come here: the router gives them to shm.)
  if (op.shape.levels > 0 && op.shape.runs() <= kBatchedRuns && op.shape.count[0] <= kBatchedRunBytes)
    return strided_batched(op, blocking);
  if (op.kind == OpKind::Acc) return issue_acc(op, blocking);
  const char* name = op_name(op.kind, false);
  const Slice& slice = *op.slice;
  check_window(name, slice);
  const bool put = op.kind == OpKind::Put;
  const MPI_Aint disp = window_displacement(slice, op.remote);
  Buffer flat;
  Datatype local_type, remote_type;
  int count = 1;
  MPI_Datatype ltype, rtype;
  if (op.shape.levels == 0) {
    flat = mpi_rma::element_buffer(op.shape.count[0], MPI_BYTE, 1);
    count = flat.count;
    ltype = rtype = flat.type;
  } else {
    // The local side is src for a put and dst for a get; the remote side the other one.
    local_type = mpi_rma::strided_side(name, op.shape, !put, MPI_BYTE, 1);
    remote_type = mpi_rma::strided_side(name, op.shape, put, MPI_BYTE, 1);
    ltype = local_type.get();
    rtype = remote_type.get();
  }
  const int rank = window_rank_of(slice);
  mpi_rma::call(op.kind, op.local, count, ltype, rank, disp, count, rtype, window_of(slice));
  return finish(blocking, slice, put, nullptr);
}

std::uint64_t MpiRmaTransport::transfer_contiguous(OpKind kind, AccType type, const void* scale, std::byte* local,
                                                   std::byte* remote, std::size_t bytes, const Slice& slice, int target,
                                                   bool blocking) {
  // The latency path: one MPI call on a predefined type, nothing to build. Nonblocking, longer
  // than an int count or a scaled accumulate: the general strided path.
  const bool acc = kind == OpKind::Acc;
  if (!blocking || bytes > static_cast<std::size_t>(std::numeric_limits<int>::max()) || (acc && !is_one(type, scale))) [[unlikely]]
    return Transport::transfer_contiguous(kind, type, scale, local, remote, bytes, slice, target, blocking);
  check_window(op_name(kind, false), slice);
  const MPI_Aint disp = window_displacement(slice, remote);
  const int rank = window_rank_of(slice);
  if (acc) {
    const int n = static_cast<int>(bytes / size_of(type));
    const MPI_Datatype element = element_type(type);
    MPI_Accumulate(local, n, element, rank, disp, n, element, MPI_SUM, window_of(slice));
    MPI_Win_flush(rank, window_of(slice));
    return 0;
  }
  const int n = static_cast<int>(bytes);
  if (kind == OpKind::Put) {
    MPI_Put(local, n, MPI_BYTE, rank, disp, n, MPI_BYTE, window_of(slice));
    MPI_Win_flush(rank, window_of(slice));
  } else {
    MPI_Get(local, n, MPI_BYTE, rank, disp, n, MPI_BYTE, window_of(slice));
    MPI_Win_flush_local(rank, window_of(slice));
  }
  return 0;
}

std::uint64_t MpiRmaTransport::strided_batched(const StridedOp& op, bool blocking) {
  // A few short runs: one MPI call per run on a predefined type and one completion for all,
  // cheaper than building and committing a derived datatype for the operation (whose fixed
  // cost is ~1 us; ARMCI-MPI's "batched" method). The runs of one side never overlap.
  Batch batch(*this, op.kind, op.type, op.scale, *op.slice, false, op.shape.bytes());
  // for_each_run walks (src, dst) pairs; the remote side is dst for put/acc, src for get.
  const bool get = op.kind == OpKind::Get;
  const std::byte* from = get ? op.remote : op.local;
  std::byte* to = get ? op.local : op.remote;
  for_each_run(op.shape, from, to, [&](const std::byte* src, std::byte* dst, std::size_t bytes) {
    batch.add(get ? dst : src, get ? src : dst, bytes);
  });
  return batch.finish(blocking);
}

std::uint64_t MpiRmaTransport::issue_acc(const StridedOp& op, bool blocking) {
  const char* name = op_name(OpKind::Acc, false);
  const Slice& slice = *op.slice;
  check_window(name, slice);
  const MPI_Datatype element = element_type(op.type);
  const std::size_t esize = size_of(op.type);
  const MPI_Aint disp = window_displacement(slice, op.remote);
  const std::size_t bytes = op.shape.bytes();

  // MPI has no scaled accumulate: scale into a packed staging buffer, then add with MPI_SUM.
  std::unique_ptr<std::byte[]> staging;
  const void* origin = op.local;
  Buffer flat;
  Datatype local_type, remote_type;
  int origin_count = 1, target_count = 1;
  MPI_Datatype otype, ttype;
  if (!is_one(op.type, op.scale)) {
    staging = std::make_unique<std::byte[]>(bytes);  // value-initialized: zeros
    std::byte* out = staging.get();
    for_each_run(op.shape, op.local, op.remote, [&](const std::byte* src, std::byte*, std::size_t n) {
      accumulate(op.type, op.scale, src, out, n);
      out += n;
    });
    origin = staging.get();
    flat = mpi_rma::element_buffer(bytes / esize, element, esize);
    origin_count = flat.count;
    otype = flat.type;
  }
  if (op.shape.levels == 0) {
    if (!staging) {
      flat = mpi_rma::element_buffer(bytes / esize, element, esize);
      origin_count = flat.count;
      otype = flat.type;
    }
    target_count = flat.count;
    ttype = flat.type;
  } else {
    if (!staging) {
      local_type = mpi_rma::strided_side(name, op.shape, false, element, esize);
      otype = local_type.get();
    }
    remote_type = mpi_rma::strided_side(name, op.shape, true, element, esize);
    ttype = remote_type.get();
  }
  const int rank = window_rank_of(slice);
  mpi_rma::call(OpKind::Acc, origin, origin_count, otype, rank, disp, target_count, ttype, window_of(slice));
  return finish(blocking, slice, true, std::move(staging));
}
}  // namespace armada::rma::detail
