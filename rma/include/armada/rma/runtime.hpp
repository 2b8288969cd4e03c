// The rma runtime: initialization over MPI, ranks and node topology.
//
// The runtime's "world" is the communicator it was initialized on (MPI_COMM_WORLD by default,
// or any sub-communicator); every rank number in armada::rma is a rank of that world.
#pragma once

#include <mpi.h>

#include <span>

#include "armada/rma/config.hpp"

namespace armada::rma {

/// Initializes the runtime on MPI_COMM_WORLD, initializing MPI (MPI_THREAD_MULTIPLE requested)
/// if the program has not. Collective over MPI_COMM_WORLD.
void init(int* argc = nullptr, char*** argv = nullptr);

/// Initializes the runtime on `comm` of an already initialized MPI. Collective over `comm`.
void init(MPI_Comm comm);

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
