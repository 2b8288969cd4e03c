// The rma runtime: initialization over MPI, ranks and node topology.
//
// The runtime's "world" is the communicator it was initialized on (MPI_COMM_WORLD by default,
// or any sub-communicator); every rank number in armada::rma is a rank of that world.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <span>

#include "armada/rma/config.hpp"

namespace armada::rma {

/// Initializes the runtime on MPI_COMM_WORLD, initializing MPI (MPI_THREAD_MULTIPLE requested)
/// if the program has not. Collective over MPI_COMM_WORLD.
void init(int* argc = nullptr, char*** argv = nullptr);

/// Initializes the runtime on `comm` of an already initialized MPI. Collective over `comm`.
void init(MPI_Comm comm);

/// For programs that initialize MPI themselves and may use the mpi-rma transport: sets, unless
/// already set, the MPI settings it needs (Open MPI: OMPI_MCA_osc=sm,ucx; see
/// docs/mpi-quirks.md). Call before MPI_Init; init(argc, argv) does the same when it starts MPI
/// with ARMADA_TRANSPORT=mpi-rma.
void set_mpi_environment_defaults();

/// Releases every segment, mutex set and group still held, then finalizes MPI if init() started
/// it. Collective over the world.
void finalize();

bool initialized() noexcept;

/// This process's rank in the world, and the world's size.
int rank();
int size();

/// The runtime's own duplicate of the world communicator (for user collectives).
MPI_Comm world_comm();

/// The configuration read at init.
const Config& config();

/// Node topology. A node is the set of ranks that share memory: a physical node
/// (MPI_COMM_TYPE_SHARED) or, with ARMADA_NODE_SIZE=k, k consecutive ranks of one.
int node_count();
int node_of(int world_rank);              ///< node index of a rank, 0..node_count()-1
std::span<const int> node_ranks(int node);///< world ranks of a node, ascending
bool same_node(int rank_a, int rank_b);

/// What this rank's node server costs (for benchmarks and armada-info). Ranks that host no
/// server (not the first rank of a node, or a single node) report running == false.
struct ServerStats {
  bool running = false;
  int clients = 0;                 ///< ranks it posted request buffers for
  std::size_t buffer_bytes = 0;    ///< request and pipeline buffers it allocated
  long rss_growth_kb = 0;          ///< VmRSS after starting it minus before (this process)
};
ServerStats server_stats();

/// Name of the transport that reaches world rank `target` from this rank ("shm", "server").
const char* transport_name(int target);

/// Whether the server transport moves this rank's transfers to `target` that exceed
/// ARMADA_SERVER_INLINE by direct copy (the target's server copies between the target's memory
/// and this process's buffer: same host, ARMADA_SERVER_DIRECT) rather than as MPI messages.
/// False for targets reached by another transport.
bool server_direct(int target);

/// RAII guard: init in the constructor, finalize in the destructor.
class Session {
 public:
  Session(int* argc = nullptr, char*** argv = nullptr) { init(argc, argv); }
  explicit Session(MPI_Comm comm) { init(comm); }
  ~Session() { finalize(); }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
};

}  // namespace armada::rma
