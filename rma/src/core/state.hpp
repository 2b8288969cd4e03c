// The runtime's process-wide state. One instance lives between init() and finalize().
#pragma once

#include <mpi.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "armada/rma/config.hpp"
#include "armada/rma/group.hpp"
#include "common/registry.hpp"
#include "core/arena.hpp"
#include "core/router.hpp"
#include "common/topology.hpp"
#include "transport/base/node_memory.hpp"
#include "transport/base/shm_region.hpp"
#include "transport/base/waiting.hpp"

namespace armada::rma::detail {

/// A collectively allocated segment, as this process knows it.
struct SegmentRecord {
  std::int64_t id = -1;
  Group group{nullptr};
  ShmRegion region;       // this node's shared object (all local members' slices), unless a transport allocated
  std::byte* arena_at = nullptr;  // the symmetric arena's range the region lies in (null: none)
  std::size_t arena_bytes = 0;
  // A transport's own memory placed at arena_at (Transport::places_segments: this rank's slice,
  // not a node object): the bytes it maps there, which it unmaps itself (the arena reserves
  // them again at free). 0 for the core's node memory, whose region restores the reservation.
  std::size_t arena_mapped = 0;
  std::optional<SymmetricLayout> symmetric;  // where every member's base follows from arena_at
  void* my_base = nullptr;
  std::size_t my_size = 0;
  std::uint64_t total_bytes = 0;  // over all members: 0 means every rank passes null to free
};

struct State {
  MPI_Comm world = MPI_COMM_NULL;   // our duplicate of the user's communicator
  int rank = -1;
  int size = 0;
  bool owns_mpi = false;            // init() called MPI_Init_thread, so finalize() ends MPI
  Config config;
  std::string transport_choice;     // the inter-node transport and why (rma::transport_choice)
  Topology topology;
  MPI_Comm node_comm = MPI_COMM_NULL;  // world ranks of this node
  Group world_group{nullptr};

  std::unique_ptr<Registry> registry;
  std::unique_ptr<SymmetricArena> arena;     // before `segments`: outlives the objects mapped in it
  std::unique_ptr<NodeMemory> node_memory;  // this node's accumulate locks and atomics
  Routes routes;                             // the started transports, and which carries what

  std::mutex segments_mutex;
  std::map<std::int64_t, SegmentRecord> segments;
  std::map<void*, std::int64_t> segment_by_base;
  std::int64_t next_segment_id = 0;
};

extern State* g_state;

// The checks every operation starts with, inline (an 8-byte put is ~20 ns; calls count);
// their throwing halves are out of line.
[[noreturn]] void throw_not_initialized(const char* op);
[[noreturn]] void throw_bad_rank(const char* op, const char* argument, const State& s, int target);
[[noreturn]] void throw_no_route(const char* op, const State& s, int target);

/// The state, or StateError naming `op` if the runtime is not initialized.
inline State& state(const char* op) {
  if (!g_state) [[unlikely]] throw_not_initialized(op);
  return *g_state;
}

/// The primary transport of `target` (already checked to be a world rank), or Unsupported:
/// accumulates, atomics, mutexes, waits and fences (core/router.hpp).
inline Transport& route(const char* op, State& s, int target) {
  Transport* t = s.routes.primary[static_cast<std::size_t>(target)];
  if (!t) [[unlikely]] throw_no_route(op, s, target);
  return *t;
}

/// The transport for an operation of `kind` whose remote side lies in `slice` of `target`:
/// plain put/get to mapped memory go to node memory, the rest to the primary transport.
inline Transport& route(const char* op, State& s, OpKind kind, const Slice& slice, int target) {
  Transport* t = route_of(s.routes, kind, slice, target);
  if (!t) [[unlikely]] throw_no_route(op, s, target);
  return *t;
}

/// fence_all() on every started transport.
void fence_everything(State& s);

/// rma::allocate's work, named `op` in errors. `internal`: Armada's own memory (mutex words,
/// arrival slots; Slice::internal), which no user operation may address; rma::free frees it.
std::vector<void*> allocate_segment(const char* op, std::size_t bytes, const Group& group, bool internal);
/// InvalidArgument for a user operation whose `argument` (`value`) lies in an internal slice.
[[noreturn]] void throw_internal_memory(const char* op, const char* argument, const std::string& value,
                                        const Slice& slice);
/// A blocking get from Armada's own memory (allocate_segment's internal segments).
void get_internal(const void* remote, void* local, std::size_t bytes, int target);

/// Completes `request` (a nonblocking collective this rank entered), polling every started
/// transport meanwhile: the other members may be waiting, before they reach the collective,
/// for requests that only this process executes (its node server's), and this rank holds the
/// core that would execute them. Without a runtime it is MPI_Wait. An MPI error of the
/// collective throws SystemError naming `op`. `on_stall(context, seconds)`, if given, is called
/// once when the wait outlasts ARMADA_STALL_WARN seconds.
using StallHook = void (*)(const void* context, int seconds);
/// One poll of every started transport: serves what this process owes other ranks (a node
/// server's requests, a progress engine) while a caller waits.
void poll_transports(State& s);
void wait_polling(MPI_Request& request, const char* op, StallHook on_stall = nullptr, const void* context = nullptr);
/// The longest sleep between polls of the core's waits (collectives, flags, on-node mutexes),
/// once a wait has lasted 2 ms (PollPause): short, since each step of a nonblocking collective's
/// schedule, or a node server's next request, waits for it.
inline constexpr long kWaitSleepMaxNs = 200000;

/// A wait's polls (its loop around poll_transports and a PollPause): while the pause looks soon
/// (PollPause::looks_soon: it spins; or, where ranks outnumber cores, it yields), the transports
/// are told that this thread polls them (Transport::polling), so that what it serves costs no
/// wake-up of their own threads; once the pause yields after spinning, or sleeps, and on every
/// way out of the wait, they are told it stopped.
class PollingWait {
 public:
  PollingWait(State& s, const PollPause& pause) noexcept : s_(s), pause_(pause) {}
  ~PollingWait() { stop(); }
  PollingWait(const PollingWait&) = delete;
  PollingWait& operator=(const PollingWait&) = delete;
  /// poll_transports(s), announced first while the pause still spins.
  void poll();

 private:
  void stop() noexcept;
  State& s_;
  const PollPause& pause_;
  bool announced_ = false;
};

/// The collectives of the rma layer's own calls, each as its nonblocking form completed by
/// wait_polling (so a member that waits in one serves its node meanwhile); `op` names the call in
/// an MPI error. `recv` of allgather holds count items per member; allreduce is in place.
/// allgather over the world, or over a group of more than kLinearAllgatherMost members, runs
/// Bruck's algorithm (bruck_allgather_polling) on the communicator's private duplicate, not
/// MPI_Iallgather.
void allgather_polling(const char* op, const void* send, int count, MPI_Datatype type, void* recv, MPI_Comm comm);
/// Bruck's allgather of `bytes` per member over `comm`: ceil(log2 P) rounds, each one send to
/// and one receive from a member, every step completed by wait_polling. `comm` must carry no
/// other point-to-point traffic with these tags (private_duplicate).
void bruck_allgather_polling(const char* op, const void* send, std::size_t bytes, void* recv, MPI_Comm comm);
/// A group with at most this many members gathers with MPI_Iallgather (at most 15 peers
/// contacted), sparing it the private communicator's cost (Open MPI: about 7 KiB each).
inline constexpr int kLinearAllgatherMost = 16;
/// `comm`'s duplicate for the library's own point-to-point steps, where no message of a user's
/// (GA_MPI_Comm hands the world out) can match them: made at the first call (collective over
/// `comm`), cached as an attribute of `comm`, freed with it.
MPI_Comm private_duplicate(MPI_Comm comm);
void allreduce_polling(const char* op, void* data, int count, MPI_Datatype type, MPI_Op reduce, MPI_Comm comm);
void bcast_polling(const char* op, void* data, int count, MPI_Datatype type, int root, MPI_Comm comm);
void barrier_polling(const char* op, MPI_Comm comm);

/// Throws InvalidArgument unless 0 <= target < world size.
inline void check_rank(const char* op, const char* argument, const State& s, int target) {
  if (target < 0 || target >= s.size) [[unlikely]] throw_bad_rank(op, argument, s, target);
}

}  // namespace armada::rma::detail
