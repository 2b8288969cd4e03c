// The RDMA transport on UCX (ARMADA_TRANSPORT=rdma): UCP one-sided operations on registered
// segment memory, as a NIC (InfiniBand, RoCE) performs them, or UCX's shared-memory, CMA and TCP
// transports where there is none.
//
// Memory: UCX allocates every member's slice (ucp_mem_map with UCP_MEM_MAP_ALLOCATE), so that
// every device UCX has reaches it: on a host that is SysV/POSIX shared memory, which UCX's
// shared-memory transports reach one-sidedly, put, get and atomics alike (like a NIC) — memory
// the core allocated they could not register, and UCX would emulate those operations with
// messages the target's worker must serve; with a NIC it is registered with the NIC too. The
// packed remote keys of a node's ranks are exchanged among them at allocation, and their slices
// mapped into this process through the keys (ucp_rkey_ptr), so on-node ranks still load and
// store each other's memory. Another rank's key is asked of its owner's request service on the
// first operation on its slice (issue 53: every member's key, unpacked at allocation, made every
// endpoint and cost ~175 B per member per segment), unpacked once on the endpoint to the owner,
// kept in the slice's handle and destroyed at free. ARMADA_RDMA_MEMORY=node registers the core's
// node shared memory instead.
//
// Operations:
//   put/get      contiguous: one ucp_put_nbx / ucp_get_nbx, zero-copy from the user's buffer;
//                strided and vector: one UCP operation per contiguous run, then one flush.
//   atomics      fetch-add, swap, compare-swap on 4 and 8 bytes: ucp_atomic_op_nbx.
//   accumulate   a request message (UCP active message) to the target's request service
//                (service.hpp), which adds under the node's stripe locks and acknowledges.
//                (A NIC moves bytes and does integer atomics; it cannot add floating-point arrays.)
//   mutexes      the FIFO ticket mutex of transport/base/locks.hpp (next, serving, owner words in
//                the owner's segment) driven by UCP atomics: one-sided, no thread on the owner's
//                side (lock + unlock 4.2 us through the request service before, 0.17 us now).
//   on the node  the router hands plain put/get of slices this process maps to shared memory;
//                accumulates to ranks of this node run here under the node's stripe locks
//                (NodeMemory), exactly as the shm transport runs them.
// Completion: a blocking put returns at local completion, a get when its data is in place, a
// blocking strided/vector operation after its flush. Nonblocking handles are UCP requests (a
// contiguous operation's own, a strided one's flush). fence(t) waits for the acknowledgements
// of accumulates to t and flushes the endpoint to t; fence_all flushes the worker.
// Ordering (blocking operations from one origin to one target in issue order): after a put to
// t, the next put, get or atomic to t is ordered behind it by ucp_worker_fence where UCX is
// one-sided, and by a flush of the endpoint where it emulates; the next accumulate (another
// endpoint) always waits for the flush. Before a put, get or atomic to t, the accumulates to t
// are acknowledged (accumulates commute with each other).
//
// The one-path rule for read-modify-writes: while this transport runs, every atomic of every
// rank, to every target (this rank and its node included), is a UCP atomic (mutexes' included), and every
// accumulate to a location is executed under that location's stripe lock on its owner's node
// (by an on-node origin through shared memory, or by the owner's request service). A NIC's
// atomics are atomic only with respect to the same NIC's atomics, and UCX keeps all atomics of
// a context on one device (UCX_ATOMIC_MODE), so no atomic may bypass UCX: the transport declares
// exclusive_atomics, and the router gives it every accumulate, atomic and mutex operation, to
// on-node targets too.
//
// Progress: at init every rank probes whether a get and a fetch-add on memory registered like
// a segment complete while their target waits in MPI without progressing UCX. If they do (shared
// memory, CMA, a NIC's RDMA), no thread progresses the origin worker; if not
// (TCP, or atomics UCX emulates with messages), the request service thread also progresses it
// (ARMADA_RDMA_PROGRESS=auto; 'on'/'off' force it). armada-info shows the lanes UCX chose per
// peer (ucp_ep_print_info) next to the decision.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "transport/plugin.hpp"
#include "transport/rdma/service.hpp"
#include "transport/rdma/ucx.hpp"
#include "transport/transport.hpp"

namespace armada::rma::detail {

class NodeMemory;

// The rdma transport's settings: its rows (init.cpp) fill them and hold the defaults.
struct RdmaSettings {
  std::string progress;  // ARMADA_RDMA_PROGRESS: auto, on, off
  bool ucx_memory;       // ARMADA_RDMA_MEMORY=ucx: UCX allocates segment memory
};

class RdmaTransport final : public Transport {
 public:
  /// Collective over the world: starts UCX, connects every rank, starts the request service.
  explicit RdmaTransport(const TransportContext& context);
  /// Collective over the world (closes the endpoints).
  ~RdmaTransport() override;
  TransportCaps caps() const noexcept override;

  std::uint64_t strided(const StridedOp& op, bool blocking) override;
  std::uint64_t vector(const VectorOp& op, bool blocking) override;
  void put_notify(const StridedOp& data, const NotifyFlag& flag) override { put_then_notify(data, flag); }
  std::uint64_t transfer_contiguous(OpKind kind, AccType type, const void* scale, std::byte* local, std::byte* remote,
                                    std::size_t bytes, const Slice& slice, int target, bool blocking) override;

  void rmw(RmwOp op, std::size_t width, void* remote, const Slice& slice, int target,
           const void* operand, const void* compare, void* result) override;
  void mutex_lock(void* word, const Slice& slice, int target) override;
  bool mutex_try_lock(void* word, const Slice& slice, int target) override;
  void mutex_unlock(void* word, const Slice& slice, int target) override;

  void wait(std::uint64_t token) override;
  bool test(std::uint64_t token) override;
  void fence(int target) override;
  void fence_all() override;
  void poll() override;

  /// ARMADA_RDMA_MEMORY=ucx (the default): segment memory is UCX's (see the header comment).
  bool allocates_segments() const noexcept override { return ucx_memory_; }
  bool places_segments() const noexcept override { return ucx_memory_; }
  /// Refuses a slice larger than the host's memory and swap (UCX's SysV/POSIX allocations are
  /// reserved lazily: a size no node holds would fault on first touch).
  void check_segment(const SegmentSpec& spec) override;
  /// Allocates this rank's slice through UCX and registers it (kept until segment_freed).
  std::byte* allocate_segment(const SegmentSpec& spec) override;
  /// Frees the slice allocate_segment made (another member's allocation failed).
  void allocation_abandoned(const SegmentSpec& spec) override;
  /// Registers this rank's slice (unless allocate_segment did), trades the packed keys on the group, unpacks each member's
  /// once and writes it into its slice's handle. A failure on this rank (UCX refusing the
  /// memory or a key) is thrown after the exchange, so that every member completes it.
  void segment_created(const SegmentSpec& spec, std::span<Slice> slices,
                       std::span<const NodeObjectRef> objects) override;
  /// Destroys the segment's keys and unregisters this rank's slice.
  void segment_freed(const SegmentSpec& spec) override;
  /// Suits when the probe found UCX one-sided and UCX has RMA and atomic lanes to every rank of
  /// another node.
  bool suits_as_default(std::string& why) const override;
  /// route: ucx=<lanes to the target> ("rma:cma amo:posix"); process: whether the request
  /// service also progresses the origin worker and why, requests handled, wakeups.
  void describe(int target, TransportInfo& info) const override;

 private:
  /// A slice's handle: the owner's key, unpacked on the endpoint to the owner; null until the
  /// first operation on the slice (key_of).
  struct SliceKey {
    ucp_rkey_h key;
  };
  struct SegmentKeys {
    rdma::Registration mine;
    std::unordered_map<int, ucp_rkey_h> keys;  // by owner: the members' keys unpacked so far, destroyed at free
  };
  /// The key of `slice` (the registry's, which outlives the operation), unpacked on first use:
  /// this node's ranks' at allocation, this rank's own from its registration, another rank's
  /// asked of its request service. Not under origin_mutex.
  ucp_rkey_h key_of(const Slice& slice);
  ucp_rkey_h first_key(const Slice& slice);
  /// The packed key of `owner`'s slice of `segment`, from its request service (one round trip).
  std::vector<std::byte> fetch_packed_key(std::int64_t segment, int owner);
  /// Unpacks `packed` on the endpoint to `owner` and records it in `segment` (under
  /// segments_mutex_), unless another thread did first; the key kept.
  ucp_rkey_h unpack_key(SegmentKeys& segment, int owner, const std::vector<std::byte>& packed);
  /// The packed keys of this node's members of the segment, by world rank (collective over them).
  void unpack_node_keys(const SegmentSpec& spec, SegmentKeys& segment, std::span<Slice> slices);
  static ucs_status_t on_key_reply(void* self, const void* header, std::size_t header_length, void* data,
                                   std::size_t length, const ucp_am_recv_param_t* param);
  /// Maps the slices of this node's other ranks into this process where UCX can (their
  /// shared-memory segments, through the unpacked keys), so that the router hands their plain
  /// put/get to shm and accumulates run here under the node's stripe locks.
  void map_node_slices(std::span<Slice> slices) const;
  void strided_on_node(const StridedOp& op);
  void vector_on_node(const VectorOp& op);
  /// Orders an operation to `target` after the earlier ones (see the header comment).
  void order_before(int target, OpKind kind);
  /// Waits for the remote completion of every operation issued on the endpoint to `target`.
  void flush_endpoint(const char* op, int target);
  /// One put or get of `bytes` between local and remote memory; returns the UCP request.
  ucs_status_ptr_t issue(OpKind kind, std::byte* local, const void* remote, std::size_t bytes, ucp_rkey_h key,
                         int target);
  /// Ends a batch of runs to `target` with one flush; its token (0 when blocking).
  std::uint64_t flush_batch(const char* op, int target, bool blocking);
  class AccPacker;
  void send_request(const char* op, int target, const void* data, std::size_t bytes);
  /// One UCP atomic of `width` bytes on `remote` (an address of `target`), waited for; the old
  /// value. `reply`: compare-swap's value to store (then `value` is the one compared).
  std::uint64_t atomic(const char* op, ucp_atomic_op_t code, std::size_t width, const void* remote, ucp_rkey_h key,
                       int target, std::uint64_t value, std::uint64_t reply);
  static constexpr int kMutexSpins = 1000;  // reads of `serving` before a waiter yields between reads
  struct RemoteMutex;
  /// The mutex at `word` of `target`, after ordering behind this rank's earlier puts to it.
  RemoteMutex remote_mutex(const char* op, void* word, const Slice& slice, int target);
  void wait_accumulates(int target);
  static ucs_status_t on_reply(void* self, const void* header, std::size_t header_length, void* data,
                               std::size_t length, const ucp_am_recv_param_t* param);
  /// Whether the origin worker needs a thread to progress it (UCX emulates some operation, or
  /// the setting says so); sets `reason`.
  static bool decide_progress(bool one_sided, const std::string& waited, const std::string& setting,
                              std::string& reason);

  int rank_;
  const std::vector<int>& node_of_;  // world rank -> node
  NodeMemory& node_memory_;
  bool ucx_memory_ = true;  // ARMADA_RDMA_MEMORY=ucx
  std::unique_ptr<rdma::Ucx> ucx_;
  std::unique_ptr<rdma::RequestService> service_;
  bool progress_thread_ = false;
  bool one_sided_ = false;  // every peer's RMA and atomic lanes are one-sided
  std::string progress_reason_;

  std::mutex segments_mutex_;  // allocate/free only
  std::unordered_map<std::int64_t, SegmentKeys> segments_;

  // Per target: accumulate requests not yet acknowledged, and the puts issued to it, by
  // generation. Every put takes its target's next generation once it is issued (`issued`);
  // `flushed`: every put up to that generation is remotely complete (a flush started after the
  // generation was read has completed); `ordered`: an operation issued now comes after every put
  // up to it (a worker fence was issued after them, or they were flushed). The marks only grow,
  // and each is raised only once what it says holds, so a fence or an ordering in one thread
  // never relies on another thread's flush still in progress: each compares its own reading of
  // `issued` with what has completed. `listed`: the target is in written_.
  struct TargetMarks {
    std::atomic<std::uint64_t> issued{0}, flushed{0}, ordered{0};
    std::atomic<bool> listed{false};
  };
  std::unique_ptr<std::atomic<std::int64_t>[]> acc_outstanding_;
  std::unique_ptr<TargetMarks[]> marks_;
  // The targets written (put or accumulate) and not yet found complete by a fence_all: fence_all
  // completes only theirs, so its cost follows the peers a rank wrote, not the job's size
  // (docs/scaling.md). A fence_all leaves a target listed until it is complete.
  std::mutex written_mutex_;
  std::vector<int> written_;
  static constexpr std::size_t kWorkerFlushFraction = 8;  // fence_all: a worker flush from P/8 targets
  TargetMarks& marks(int target) noexcept { return marks_[static_cast<std::size_t>(target)]; }
  /// A put to `target` was issued: its next generation, and the target listed.
  void mark_put(int target);
  /// Adds `target` to written_ unless it is listed.
  void list(int target);
  /// Removes from written_ the targets with nothing in flight.
  void unlist_complete();
  /// Every put to `target` up to generation `seen` is remotely complete: raises its marks.
  void completed(int target, std::uint64_t seen);
  /// Completes every put to `targets`: their endpoints' flushes, or one of the worker.
  void flush_targets(const char* op, const std::vector<int>& targets);
  /// Flushes the endpoints of `targets` (all issued before any is waited for).
  void flush_endpoints(const char* op, const std::vector<int>& targets);
};

}  // namespace armada::rma::detail
