// The rma runtime: initialization over MPI, ranks and node topology.
//
// The runtime's "world" is the communicator it was initialized on (MPI_COMM_WORLD by default,
// or any sub-communicator); every rank number in armada::rma is a rank of that world.
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

#include <mpi.h>

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "armada/rma/config.hpp"

namespace armada::rma {

/// Initializes the runtime on MPI_COMM_WORLD, initializing MPI (MPI_THREAD_MULTIPLE requested)
/// if the program has not. Collective over MPI_COMM_WORLD.
void init(int* argc = nullptr, char*** argv = nullptr);

/// Initializes the runtime on `comm` of an already initialized MPI. Collective over `comm`.
void init(MPI_Comm comm);

/// For programs that initialize MPI themselves: sets, unless already set, the MPI settings that
/// the registered transports need (each transport's before-MPI_Init hook; mpi-rma's chooses Open
/// MPI's one-sided components, OMPI_MCA_osc=sm,ucx, docs/mpi-quirks.md). Call before MPI_Init;
/// init(argc, argv) runs the configured transport's hook when it starts MPI itself.
void prepare_mpi_environment();

/// A registered transport (whether or not this job runs it). Needs no init.
struct RegisteredTransport {
  const char* name;     ///< "shm", "server", ...: an ARMADA_TRANSPORT value when inter_node
  bool inter_node;      ///< reaches other nodes (else: the node-memory transport)
  const char* summary;  ///< one line
  /// The prefix of the environment variables it hands to its library (rdma: "ARMADA_UCX_"),
  /// and what they do; null: none.
  const char* library_variables;
  const char* library_variables_meaning;
};

/// Every registered transport, in registration order (help texts, benchmarks, armada-info).
std::span<const RegisteredTransport> transports() noexcept;

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

/// One fact a transport reports about itself (armada-info prints "key=value").
struct TransportFact {
  std::string key;
  std::string value;
};

/// What a transport can do, the same for every target it reaches.
struct TransportCaps {
  // Which operations reach the target's memory with no CPU on its side taking part (no target
  // process, no helper thread): shared memory's load/store, a NIC's RDMA.
  bool put_get_one_sided = false;
  bool acc_one_sided = false;
  bool rmw_one_sided = false;
  bool mutex_one_sided = false;
  /// The transport runs a helper thread of its own in this process (progress, a node server).
  bool progress_thread = false;
  /// Its accumulates, atomics and mutexes are atomic only with respect to its own (MPI's
  /// windows): then it carries every accumulate, RMW and mutex operation, to on-node targets
  /// too, so that all read-modify-writes of one location take one path. When false, they run on
  /// a node's memory under the same stripe locks and hardware atomics as shared memory's.
  bool exclusive_atomics = false;
};

/// What reaches a target, and how. Diagnostics for tools, benchmarks and tests: not for the
/// per-operation path (it allocates).
struct TransportInfo {
  std::string name = "none";  ///< a registered transport's name; "none" if nothing reaches it
  TransportCaps caps;
  /// About the way to this target (server: direct=yes|no; rdma: the UCX transports chosen).
  std::vector<TransportFact> route;
  /// What the transport costs this process, the same for every target it reaches (server:
  /// node_server=yes|no, clients, buffer_bytes, rss_growth_kb on ranks that run one).
  std::vector<TransportFact> process;

  /// The value of `key` in route, then process; null if neither has it.
  const std::string* find(std::string_view key) const;
};

/// The transport that carries this rank's operations to world rank `target` (for plain put/get
/// to memory this process maps, shared memory carries them whatever this says), with its
/// capabilities and facts. Throws InvalidArgument for a rank outside the world.
TransportInfo transport_info(int target);

/// Name of the transport that reaches world rank `target` from this rank ("shm", "server"):
/// transport_info(target).name without the rest.
const char* transport_name(int target);

/// The inter-node transport this job runs and why: "rdma (ARMADA_TRANSPORT=auto: UCX reaches
/// every rank of another node one-sidedly ...)", "server (ARMADA_TRANSPORT=server)", "none (one
/// node: ...)". The same on every rank; armada-info --topology prints it.
std::string transport_choice();

/// Where segments are placed: "on: 16384 GiB reserved at 0x200000000000 on every rank (a segment
/// lies at one offset on every member)" or "off (why)". The same on every rank; armada-info
/// --topology prints it (ARMADA_SYMMETRIC_GIB, docs/scaling.md).
std::string symmetric_arena();

/// Deprecated: transport_info(target).find("direct") == "yes". Whether the server transport
/// moves this rank's transfers to `target` that exceed ARMADA_SERVER_INLINE by direct copy.
bool server_direct(int target);

/// The exit code of a program whose runtime could not start from its settings (init_or_exit):
/// 2, the code of bad input, as for a bad command-line option.
inline constexpr int exit_bad_settings = 2;

/// For programs: init(argc, argv), or init(comm); when that fails (a bad ARMADA_* value, ...),
/// rank 0 prints "<program>: <message>" to stderr once, MPI is finalized if it was started, and
/// the process exits with exit_bad_settings, on every rank alike (every rank read the same
/// settings) instead of ending in an uncaught exception's abort.
void init_or_exit(const char* program, int* argc, char*** argv);
void init_or_exit(const char* program, MPI_Comm comm);

/// The exit code of a program ended by an error that escaped run_main's body, and how long the
/// ranks that threw wait for the others before they abort the job.
inline constexpr int exit_error = 1;
inline constexpr double run_main_error_wait = 5.0;

/// For programs: the whole of main in one call, so that an error ends the job with one line per
/// rank instead of `terminate called` and a backtrace from every rank:
///   int main(int argc, char** argv) {
///     return rma::run_main("my_program", &argc, &argv, [&] { ...; return 0; });
///   }
/// Starts the runtime (init_or_exit), runs body() and finalizes; returns body's value. An
/// exception that escapes body (an rma::Error from any Armada layer, or any std::exception) is
/// printed as "<program>: [rank <r>] <message>" on each rank that threw, and the job ends with
/// exit_error: cleanly (runtime and MPI finalized) when every rank threw, as every rank does for
/// a bad argument to a collective; through MPI_Abort when some rank has not thrown within
/// run_main_error_wait seconds, since it may be waiting for the others forever.
int run_main(const char* program, int* argc, char*** argv, const std::function<int()>& body);

/// RAII guard: init in the constructor, finalize in the destructor.
class Session {
 public:
  Session(int* argc = nullptr, char*** argv = nullptr) { init(argc, argv); }
  explicit Session(MPI_Comm comm) { init(comm); }
  /// init_or_exit(program, argc, argv): a program's session (see above).
  Session(const char* program, int* argc, char*** argv) { init_or_exit(program, argc, argv); }
  ~Session() { finalize(); }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
};

}  // namespace armada::rma
