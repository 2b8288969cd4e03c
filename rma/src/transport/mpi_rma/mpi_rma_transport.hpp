// The MPI-3 one-sided transport (ARMADA_TRANSPORT=mpi-rma).
//
// Windows: one per segment, on the segment's group communicator, held in one passive lock_all
// epoch for its whole life. One window per segment rather than one dynamic window: allocation is
// collective anyway, the implementation registers the memory once (a dynamic window costs Open
// MPI's osc rdma a remote region lookup per operation), and the owner's rank and displacement
// come straight from the registry slice. Who owns the memory (ARMADA_MPI_MEMORY):
//   mpi (default): MPI_Win_allocate. Only memory the library allocated itself is reachable
//     without the target's help on every path we measured: Open MPI's osc ucx maps it into
//     on-host peers through its shared-memory transports, while memory given to MPI_Win_create
//     is served by active messages in the target's progress engine (a put to a computing target
//     waits for it: ~1 ms with the progress thread, vs 0.03 us). Costs: on-node ranks cannot
//     load/store each other's slices, so every access except a rank's own goes through MPI.
//   shm: rma::allocate places slices in node shared memory as without MPI (on-node put/get stay
//     memcpy) and this transport exposes them with MPI_Win_create. One-sided where MPI registers
//     user memory with a NIC; between processes of one host it relies on the progress thread.
//
// Operations: contiguous put/get/acc are one MPI_Put/Get/Accumulate; strided ones are one call
// with a nested hvector datatype on each side (a few short runs: one call per run, one flush);
// vector ones, when the remote side has no overlapping segments (O(n log n) conflict check),
// one call per segment and one flush (batched) or one call with hindexed datatypes (direct;
// ARMADA_MPI_IOV), else one call per segment, each completed before the next. Accumulate scales into a staging buffer and adds with MPI_SUM; RMW is
// MPI_Fetch_and_op / MPI_Compare_and_swap. Nonblocking operations are the same calls; their
// wait flushes the target (no MPI_Rput/Rget requests: operations.hpp says why).
// Blocking writes end with MPI_Win_flush (remote completion), which keeps operations from one
// origin to one location in issue order across transports; waiting for a nonblocking write
// flushes too, waiting for a get flushes locally.
//
// Atomicity across transports: MPI makes accumulates atomic only with respect to other MPI
// accumulates on the same window, and its atomics only with respect to its own. So while this
// transport is in use it takes every accumulate, RMW and mutex operation, on-node targets
// included; only plain put/get to on-node targets go through shared memory.
//
// Mutexes: an MCS queue lock. The tail is the mutex word in its segment's window; each process
// has a window of queue nodes. A waiter polls only its own queue node (no traffic) and sleeps
// between polls; the releaser hands the lock to its successor with one remote write.
//
// Progress: Open MPI's osc rdma emulates atomics with active messages and MPICH's ch3/ch4
// process some one-sided operations in the target's progress engine, so an optional helper
// thread drives MPI progress while the application computes (ARMADA_MPI_PROGRESS), polling
// at a bounded interval and sleeping in between.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>
#include <vector>

#include "armada/rma/group.hpp"
#include "transport/transport.hpp"

namespace armada::rma::detail {

/// The transport's per-slice data (Slice::handle): the segment's window, its group (the owner's
/// rank in the window is its rank there), and where the slice's base lies in the owner's window
/// memory (alignment padding of MPI-owned memory; 0 for node shared memory). The same on every
/// member of a node-memory segment, so the registry keeps it once (issue 53: the owner's rank in
/// the handle made it 24 B per member per segment).
struct MpiSlice {
  MPI_Win window;
  const Group* group;  // the transport's Window entry's, alive until segment_freed; null: the world
  std::uint64_t offset;
};
inline MPI_Win window_of(const Slice& slice) noexcept { return slice.handle<MpiSlice>().window; }
inline int window_rank_of(const Slice& slice) {
  const Group* group = slice.handle<MpiSlice>().group;
  return group ? group->group_rank(slice.owner) : slice.owner;  // the world's ranks are its own
}
inline std::uint64_t window_offset_of(const Slice& slice) noexcept { return slice.handle<MpiSlice>().offset; }

/// Displacement of `remote` (in the owner's address space) in the slice's window.
inline MPI_Aint window_displacement(const Slice& slice, const void* remote) noexcept {
  return static_cast<MPI_Aint>(reinterpret_cast<std::uintptr_t>(remote) - slice.base + window_offset_of(slice));
}

// The mpi-rma transport's settings: its rows (init.cpp) fill them and hold the defaults.
struct MpiRmaSettings {
  bool progress_thread;          // ARMADA_MPI_PROGRESS
  int progress_interval_us;      // ARMADA_MPI_PROGRESS_US: poll interval of the helper thread
  int spin_limit;                // the core's ARMADA_SPIN_LIMIT: polls before a waiter starts sleeping
  int mutex_waiters;             // ARMADA_MPI_MUTEX_WAITERS: queue nodes per process
  std::size_t batched_segments;  // ARMADA_MPI_IOV: vector ops up to this many go batched
  bool owns_memory;              // ARMADA_MPI_MEMORY=mpi: segments are MPI_Win_allocate memory
};

/// Removes `key`'s entry from `map` under `mutex` and returns it; nothing if there is none.
template <class Map>
std::optional<typename Map::mapped_type> take_entry(std::mutex& mutex, Map& map, const typename Map::key_type& key) {
  std::lock_guard lock(mutex);
  auto it = map.find(key);
  if (it == map.end()) return std::nullopt;
  std::optional<typename Map::mapped_type> entry(std::move(it->second));
  map.erase(it);
  return entry;
}

/// Whether the MPI library is Open MPI.
bool is_open_mpi();
/// Whether it is Open MPI running without osc ucx (OMPI_MCA_osc lacks it): its default osc rdma
/// has known bugs and no windows across hosts over TCP (docs/mpi-quirks.md).
bool open_mpi_without_osc_ucx();

class MpiRmaTransport final : public Transport {
 public:
  /// Collective over `world` (creates the queue-node window).
  MpiRmaTransport(MPI_Comm world, int rank, MpiRmaSettings settings);
  /// Collective over the world: frees the windows still held, stops the progress thread.
  ~MpiRmaTransport() override;
  TransportCaps caps() const noexcept override;

  // Segments: one window each (ARMADA_MPI_MEMORY decides who allocates the memory).
  bool allocates_segments() const noexcept override { return settings_.owns_memory; }
  void check_segment(const SegmentSpec& spec) override { check_window_bytes(spec.bytes); }
  std::byte* allocate_segment(const SegmentSpec& spec) override;
  void segment_created(const SegmentSpec& spec, std::span<Slice> slices, std::span<const NodeObjectRef> objects) override;
  void segment_freed(const SegmentSpec& spec) override { detach(spec.id); }
  void describe(int target, TransportInfo& info) const override;

  /// Segment memory owned by MPI (ARMADA_MPI_MEMORY=mpi): the window, and this rank's slice.
  struct OwnedWindow {
    MPI_Win win = MPI_WIN_NULL;
    std::byte* base = nullptr;     // page aligned, zeroed; null when bytes == 0
    std::uint64_t offset = 0;      // of base in this rank's window memory
  };
  /// Throws (locally, before the collective allocate) when no window of `bytes` can exist: past
  /// MPI_Aint with its page of slack, or more than the node's memory and swap.
  static void check_window_bytes(std::size_t bytes);
  /// Allocates `bytes` of window memory on `group`'s communicator for segment `segment`
  /// (collective over it, like rma::allocate) and opens its lock_all epoch. MPI's failure is a
  /// SystemError on the failing rank (the caller agrees on it).
  OwnedWindow allocate_window(std::int64_t segment, const Group& group, std::size_t bytes);
  /// Creates the window of segment `segment` over [base, base + bytes), memory the caller owns
  /// (ARMADA_MPI_MEMORY=shm), on `group`'s communicator (collective) and opens its epoch.
  MPI_Win attach(std::int64_t segment, const Group& group, void* base, std::size_t bytes);
  /// Closes and frees the window of `segment` (collective over its group), and its memory if
  /// MPI owns it.
  void detach(std::int64_t segment);

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

 private:
  void allocate_queue_window();
  struct Window {
    MPI_Win win = MPI_WIN_NULL;
    Group group{nullptr};
    std::uint64_t offset = 0;  // of this rank's slice in its window memory
  };
  /// A nonblocking operation in flight: its completion is a flush of (rank, win).
  struct Pending {
    MPI_Win win = MPI_WIN_NULL;
    int rank = -1;          // window rank of the target
    bool write = false;     // put/acc: flush at completion
    std::unique_ptr<std::byte[]> staging;  // scaled accumulate data, alive until completion
  };

  // Strided ops of at most kBatchedRuns runs of at most kBatchedRunBytes go as one call per run
  // (measured on Open MPI osc sm and ucx: 16 runs of 16 B or 1 KiB were 1.3-1.8x faster than
  // through a derived datatype; at 1024 runs the datatype is several times faster).
  static constexpr std::size_t kBatchedRuns = 32;
  static constexpr std::size_t kBatchedRunBytes = 64 * 1024;
  std::uint64_t strided_batched(const StridedOp& op, bool blocking);
  // Vector ops without overlapping remote segments: batched up to settings_.batched_segments
  // (an hindexed type of n entries costs Open MPI far more to build than n calls on shared
  // memory), one hindexed call beyond, where a NIC's gather list would pay off.
  std::uint64_t vector_batched(const VectorOp& op, bool blocking);
  /// What the batched methods share: one MPI call per run on a predefined type to one slice's
  /// window, a scaled accumulate staged run by run, and one completion for all.
  class Batch {
   public:
    /// `bytes`: the operation's total, the staging buffer's size for a scaled accumulate.
    Batch(MpiRmaTransport& t, OpKind kind, AccType type, const void* scale, const Slice& slice, bool vector,
          std::size_t bytes);
    /// One run of `bytes` between `local` and `remote` (in the target's address space).
    void add(const void* local, const void* remote, std::size_t bytes);
    /// The transport's finish for the batch: blocking, completes it; else returns its token.
    std::uint64_t finish(bool blocking);

   private:
    MpiRmaTransport& t_;
    OpKind kind_;
    AccType type_;
    const void* scale_;
    const Slice& slice_;
    MPI_Datatype element_;
    std::size_t esize_;
    std::unique_ptr<std::byte[]> staging_;
    std::byte* scaled_ = nullptr;  // the next run's place in staging_
  };
  std::uint64_t issue_acc(const StridedOp& op, bool blocking);
  std::uint64_t vector_direct(const VectorOp& op, bool blocking);
  void vector_per_segment(const VectorOp& op);
  /// After an operation's MPI calls to `slice`'s owner: blocking, completes them (0); else keeps
  /// the target and `staging` until wait/test and returns the token. `write`: put or accumulate.
  std::uint64_t finish(bool blocking, const Slice& slice, bool write, std::unique_ptr<std::byte[]> staging);
  void complete(Pending& p);
  /// The (window, window rank) of every nonblocking write not yet waited for (repeats possible).
  std::vector<std::pair<MPI_Win, int>> pending_writes();

  // MCS mutex pieces (mpi_rma_mutex.cpp).
  int take_slot();
  void release_slot(int slot);
  std::int64_t my_node_value(int slot) const noexcept;
  std::int64_t read_own(int slot, int field);
  void write_remote(std::int64_t node, int field, std::int64_t value);
  template <class Pred> void wait_own(int slot, int field, Pred&& done);
  /// A queue node of ours (next = 0) for a lock attempt on a mutex of `slice`'s segment.
  int fresh_node(const char* op, const Slice& slice);
  /// Records that this process holds the mutex `word` of `target` through queue node `slot`.
  void hold(int target, void* word, int slot);

  void progress_loop();
  void keep(std::int64_t segment, MPI_Win win, const Group& group, std::uint64_t offset);

  MPI_Comm comm_ = MPI_COMM_NULL;  // our duplicate of the world, for the queue-node window
  int rank_;
  MpiRmaSettings settings_;

  std::mutex windows_mutex_;
  std::map<std::int64_t, Window> windows_;  // by segment id (ascending: the free order)

  std::mutex pending_mutex_;
  std::unordered_map<std::uint64_t, Pending> pending_;
  std::atomic<std::uint64_t> next_token_{1};

  // Queue nodes: per slot {next, locked} as two int64 in this window.
  MPI_Win queue_win_ = MPI_WIN_NULL;
  std::int64_t* queue_nodes_ = nullptr;
  std::mutex slots_mutex_;
  std::vector<int> free_slots_;
  std::map<std::pair<int, std::uintptr_t>, int> held_;  // mutexes held: (target, address) -> queue node

  std::atomic<bool> stop_{false};
  std::thread progress_;
};

}  // namespace armada::rma::detail
