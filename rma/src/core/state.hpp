// The runtime's process-wide state. One instance lives between init() and finalize().
#pragma once

#include <mpi.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "armada/rma/config.hpp"
#include "armada/rma/group.hpp"
#include "core/registry.hpp"
#include "transport/base/shm_region.hpp"
#include "transport/shm/shm_transport.hpp"
#include "transport/server/node_server.hpp"
#include "transport/server/server_transport.hpp"
#include "transport/mpi_rma/mpi_rma_transport.hpp"

namespace armada::rma::detail {

struct Topology {
  std::vector<int> node_of;               // per world rank
  std::vector<int> host_of;               // per world rank: its physical node (lowest world rank there)
  std::vector<std::vector<int>> members;  // per node, ascending world ranks
};

/// A collectively allocated segment, as this process knows it.
struct SegmentRecord {
  std::int64_t id = -1;
  Group group{nullptr};
  ShmRegion region;       // this node's shared object (all local members' slices)
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
  Topology topology;
  MPI_Comm node_comm = MPI_COMM_NULL;  // world ranks of this node
  Group world_group{nullptr};

  std::unique_ptr<Registry> registry;
  ShmRegion stripe_region;             // this node's accumulate locks
  std::unique_ptr<ShmTransport> shm;
  // Inter-node: the origin side on every rank, the node server in each node's first rank.
  MPI_Comm server_comm = MPI_COMM_NULL;
  std::unique_ptr<ServerTransport> server;
  std::unique_ptr<NodeServer> node_server;
  long server_rss_growth_kb = 0;
  // Or the MPI-3 one-sided transport (it also carries on-node accumulates and atomics).
  std::unique_ptr<MpiRmaTransport> mpi;
  std::vector<Transport*> route;       // per world rank; null: no transport reaches it
  std::vector<Transport*> transports;  // each transport in use once (for fence_all)

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

/// The transport that reaches `target` (already checked to be a world rank), or Unsupported.
inline Transport& route(const char* op, State& s, int target) {
  Transport* t = s.route[static_cast<std::size_t>(target)];
  if (!t) [[unlikely]] throw_no_route(op, s, target);
  return *t;
}

/// At free of `segment`: if this rank created its node's shared object and the node's server
/// is not a member of the segment's group (so it may have mapped the object itself), tell the
/// server to drop that mapping.
void forget_foreign_segment(State& s, const SegmentRecord& segment);

/// fence_all() on every transport in use.
void fence_everything(State& s);

/// Throws InvalidArgument unless 0 <= target < world size.
inline void check_rank(const char* op, const char* argument, const State& s, int target) {
  if (target < 0 || target >= s.size) [[unlikely]] throw_bad_rank(op, argument, s, target);
}

}  // namespace armada::rma::detail
