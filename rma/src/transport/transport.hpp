// The transport operations table: what the core's router calls, and what every transport
// implements. The core checks every argument and resolves every remote address to its segment
// slice before it calls a transport, so transports never see bad input and never throw for it.
//
// Which transport gets an operation is the router's decision (core/router.hpp): plain put/get
// to a slice this process maps go to the node-memory transport (shm); everything else to the
// target's primary transport (same node: shm, unless the inter-node transport declares
// `exclusive_atomics`; other nodes: the configured inter-node transport). Tokens name pending
// nonblocking operations; 0 means the operation completed before the call returned.
//
// How a transport is registered and started, and the hooks it runs at allocate and free, are in
// transport/plugin.hpp; docs/architecture.md ("Adding a transport") walks through it.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "armada/rma/atomic.hpp"
#include "armada/rma/group.hpp"
#include "armada/rma/runtime.hpp"
#include "armada/rma/transfer.hpp"
#include "armada/rma/types.hpp"
#include "common/slice.hpp"
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
/// address, counting the segments of all sets in order. Every slice has the same owner
/// (`target`).
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

/// The flag update of a put_notify (rma::put_notify): `how` (Set: store, Add: add) `value` at
/// `flag`, a naturally aligned int (width 4) or long (width 8) in `slice` of the data's target.
struct NotifyFlag {
  Notify how;
  std::size_t width;
  void* flag;                // in the target's address space
  const Slice* slice;
  std::uint64_t value;       // the low `width` bytes
};

// What a transport can do (TransportCaps, armada/rma/runtime.hpp) is queried once at init,
// never per operation: the router and transport_info() read it; tests may skip on it.

/// What is known of a segment when a transport's segment hooks run (transport/plugin.hpp).
struct SegmentSpec {
  const char* op;                  // "rma::allocate" / "rma::free": for error messages
  std::int64_t id;                 // the segment id (same on every member)
  const Group* group;              // the allocation's group (its comm() is the collective's)
  std::size_t bytes;               // this rank's slice size (may be 0)
  std::span<const std::uint64_t> sizes;  // every member's slice size, by group rank
  std::byte* my_base;              // this rank's slice (null before allocation, or bytes == 0)
  /// This process created the node's shared object of the segment (and holds it open).
  bool created_node_object = false;
  /// The group's members on this process's node (segment_created only; null elsewhere).
  MPI_Comm node_comm = MPI_COMM_NULL;
  /// allocate_segment of a transport that places_segments(): where this rank's slice must lie
  /// (a range of the symmetric arena's reservation, the same on every member), or null: anywhere.
  std::byte* at = nullptr;
};

/// Where a slice lies in its node's shared object (node memory segments only): another process
/// of the node can map it through /proc/<pid>/fd/<fd> while the creator holds it.
struct NodeObjectRef {
  int pid = -1;                    // the creator's pid, or -1 (memory a transport allocated)
  int fd = -1;
  std::uint64_t size = 0;          // of the object
  std::uint64_t offset = 0;        // of the slice in the object
};

class Transport {
 public:
  virtual ~Transport() = default;
  /// Its entry's name (transport/plugin.hpp), which the core gives it when it starts it.
  const char* name() const noexcept { return name_; }
  void set_name(const char* name) noexcept { name_ = name; }
  virtual TransportCaps caps() const noexcept = 0;

  // ---- data movement (the hot path: one virtual call per operation) ----
  /// blocking: return after local completion; otherwise may return a token.
  virtual std::uint64_t strided(const StridedOp& op, bool blocking) = 0;
  virtual std::uint64_t vector(const VectorOp& op, bool blocking) = 0;
  /// A contiguous put/acc (local -> remote) or get (remote -> local) of `bytes` bytes: the
  /// latency path (`type`, `scale`: Acc only). The default describes it as a strided op without
  /// levels; a transport whose contiguous call is cheaper than its strided machinery overrides it.
  virtual std::uint64_t transfer_contiguous(OpKind kind, AccType type, const void* scale, std::byte* local,
                                            std::byte* remote, std::size_t bytes, const Slice& slice, int target,
                                            bool blocking);

  /// A blocking put of `data` (kind Put), then the flag update, which every reader of the flag
  /// must find ordered after the data. Returns once the source may be reused. The default puts,
  /// fences the target (remote completion) and updates the flag with rmw(): correct on any
  /// transport, at a round trip's cost; a transport with an ordered channel overrides it.
  virtual void put_notify(const StridedOp& data, const NotifyFlag& flag);
  /// A put_notify of no data: the flag update alone, which every reader must find ordered after
  /// this rank's earlier writes to `target`. The default is notify() (an atomic: a round trip); a
  /// transport with an ordered channel sends it one way (tcp: a frame without payload), which
  /// matters to the credit and ready signals of halo exchanges (NAS MG and CG).
  virtual void put_flag(const NotifyFlag& flag, int target);

 protected:
  /// put_notify for a transport whose blocking put to a target is ordered before its next atomic
  /// to that target (rdma: an endpoint fence or flush; mpi-rma: the put's flush): the put (its
  /// contiguous call when the shape is one run), then the atomic; no fence.
  void put_then_notify(const StridedOp& data, const NotifyFlag& flag);

 public:

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
  /// Progresses this transport's pending work, including requests of other ranks that this
  /// process executes; called while the rank waits in a collective (wait_polling).
  virtual void poll() = 0;
  /// A thread of this process starts (true) or stops (false) calling poll() in a tight loop
  /// (a wait's spinning phase): meanwhile the transport may leave what arrives to it rather than
  /// wake a thread of its own for each arrival. Calls come in pairs, each pair from one thread
  /// (several may overlap); every path out of the loop ends its pair, before the thread sleeps.
  virtual void polling(bool) noexcept {}

  // ---- segments: collective over the segment's group, in rma::allocate / rma::free ----
  // Every hook that can fail on one rank only runs inside rma::agree (core/memory.cpp): it
  // throws the project's exceptions, and every member then fails together.
  /// Whether this transport allocates segment memory itself (MPI_Win_allocate) instead of the
  /// core's node shared memory. Asked once per allocation.
  virtual bool allocates_segments() const noexcept { return false; }
  /// Whether allocate_segment can put this rank's slice at SegmentSpec::at, mapped over the
  /// symmetric arena's reservation there (unmapped again at free or abandonment), so that every
  /// member's slice lies at one address and the registry keeps no base per member.
  virtual bool places_segments() const noexcept { return false; }
  /// Local checks before the collective allocation (allocates_segments() only).
  virtual void check_segment(const SegmentSpec&) {}
  /// Allocates this rank's slice of spec.bytes (page aligned, zeroed; null for 0 bytes);
  /// collective over the group (allocates_segments() only). The transport keeps what it needs
  /// of the allocation (its window, the base's offset in it) for segment_created.
  virtual std::byte* allocate_segment(const SegmentSpec&) { return nullptr; }
  /// allocate_segment, or segment_created, failed on some member, so rma::allocate fails: free
  /// what this rank's allocate_segment and segment_created made (local: the other members may
  /// have nothing to free; called whether or not they ran here).
  virtual void allocation_abandoned(const SegmentSpec&) {}
  /// After every member's slice is known, before the registry publishes them: register memory,
  /// create windows, exchange keys on spec.group, and write each slice's handle
  /// (Slice::set_handle). `slices` are the group's non-empty slices in group order; `objects`
  /// (same order) where each lies in its node's shared object. Collective over the group.
  virtual void segment_created(const SegmentSpec&, std::span<Slice> /*slices*/,
                               std::span<const NodeObjectRef> /*objects*/) {}
  /// At free, after every member fenced and the registry forgot the segment, before its memory
  /// is unmapped: release windows, registrations and keys. Collective over the group.
  virtual void segment_freed(const SegmentSpec&) {}

  // ---- ARMADA_TRANSPORT=auto (core/runtime.cpp) ----
  /// Whether this started transport suits the job as its default inter-node transport, and in
  /// `why` the reason either way (rdma: UCX reaches every rank of another node one-sidedly). A
  /// local answer: the core agrees on it over the world. Default: suits, nothing to add.
  virtual bool suits_as_default(std::string& /*why*/) const { return true; }

  // ---- diagnostics (transport_info(), armada-info --topology; never on the hot path) ----
  /// Facts about the way to `target` (TransportInfo::route) and about what this transport costs
  /// this process (TransportInfo::process).
  virtual void describe(int /*target*/, TransportInfo& /*info*/) const {}

 private:
  const char* name_ = "";
};

/// The flag update alone, as an atomic of `t` (swap for Set, fetch-add for Add).
void notify(Transport& t, const NotifyFlag& n, int target);

}  // namespace armada::rma::detail
