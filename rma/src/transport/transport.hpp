// The transport operations table. The core checks every argument and resolves every remote
// address to its segment slice before it calls a transport, so transports never see bad input
// and never throw for it.
//
// A transport serves the targets the router assigns it (same node: shm; other nodes: the
// configured inter-node transport). Tokens name pending nonblocking operations; 0 means the
// operation completed before the call returned.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "armada/rma/atomic.hpp"
#include "armada/rma/transfer.hpp"
#include "armada/rma/types.hpp"
#include "core/registry.hpp"
#include "desc/strided.hpp"

namespace armada::rma::detail {

enum class OpKind : int { Put, Get, Acc };

/// One strided operation. For Put and Acc, `local` is the source and `remote` the destination;
/// for Get, the other way round. `remote` is an address in the target's address space.
struct StridedOp {
  OpKind kind;
  AccType type;              // Acc only
  const void* scale;         // Acc only
  std::byte* local;
  std::byte* remote;
  const Slice* slice;        // the target slice holding the remote extent
  int target;
  Shape shape;               // src_stride/dst_stride as the user gave them for this direction
};

/// One I/O vector operation. When every remote address lies in one slice (the usual case),
/// `slice` is it and `slices` is null; otherwise slices[i] is the slice of the i-th remote
/// address, counting the segments of all sets in order.
struct VectorOp {
  OpKind kind;
  AccType type;
  const void* scale;
  std::span<const IoSet> sets;
  const Slice* slice;
  const Slice* const* slices;
  int target;

  const Slice& slice_of(std::size_t i) const noexcept { return slices ? *slices[i] : *slice; }
};

class Transport {
 public:
  virtual ~Transport() = default;
  virtual const char* name() const noexcept = 0;

  // ---- data movement ----
  /// blocking: return after local completion; otherwise may return a token.
  virtual std::uint64_t strided(const StridedOp& op, bool blocking) = 0;
  virtual std::uint64_t vector(const VectorOp& op, bool blocking) = 0;
  /// A contiguous put/acc (local -> remote) or get (remote -> local) of `bytes` bytes: the
  /// latency path (`type`, `scale`: Acc only). The default describes it as a strided op without
  /// levels; a transport whose contiguous call is cheaper than its strided machinery overrides it.
  virtual std::uint64_t contiguous(OpKind kind, AccType type, const void* scale, std::byte* local,
                                   std::byte* remote, std::size_t bytes, const Slice& slice, int target,
                                   bool blocking);

  // ---- atomics and mutexes (`remote` in the target's address space, resolved by the core) ----
  virtual void rmw(RmwOp op, std::size_t width, void* remote, const Slice& slice, int target,
                   const void* operand, const void* compare, void* result) = 0;
  virtual void mutex_lock(void* word, const Slice& slice, int target) = 0;
  virtual bool mutex_try_lock(void* word, const Slice& slice, int target) = 0;
  virtual void mutex_unlock(void* word, const Slice& slice, int target) = 0;

  // ---- completion ----
  virtual void wait(std::uint64_t token) = 0;
  virtual bool test(std::uint64_t token) = 0;
  virtual void fence(int target) = 0;         // remote completion of puts/accs to target
  virtual void fence_all() = 0;
  virtual void poll() = 0;
};

}  // namespace armada::rma::detail
