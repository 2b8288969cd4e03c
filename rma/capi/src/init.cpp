// Initialization and finalization (ARMCI_Init*, ARMCI_Finalize) and the runtime queries.
#include <atomic>
#include <string>

#include "internal.hpp"

namespace armada::armci {

namespace {

struct Runtime {
  // ARMCI_Init may be called several times (Global Arrays and TCGMSG both do); the matching
  // last ARMCI_Finalize ends ARMCI.
  std::atomic<int> init_count{0};
  bool owns_rma = false;  // false if the program started armada::rma itself (C++ API)
  MPI_Comm msg_comm = MPI_COMM_NULL;
};
Runtime g_runtime;

[[noreturn]] void state_error(const char* function, const std::string& reason) {
  const std::string prefix = rma::initialized() ? "[rank " + std::to_string(rma::rank()) + "] " : "";
  throw rma::StateError(function, prefix + function + ": " + reason);
}

/// Brings ARMCI up on `comm`. Without MPI, the calls on MPI_COMM_WORLD start it themselves
/// (MPI_THREAD_MULTIPLE); ARMCI_Finalize then finalizes it.
void start(const char* function, int thread_level, MPI_Comm comm, int* argc, char*** argv) {
  if (g_runtime.init_count > 0) {
    ++g_runtime.init_count;
    return;
  }
  if (thread_level < MPI_THREAD_SINGLE || thread_level > MPI_THREAD_MULTIPLE)
    bad_argument(function, "armci_requested", std::to_string(thread_level),
                 "not an MPI thread level (MPI_THREAD_SINGLE .. MPI_THREAD_MULTIPLE)");
  int mpi_up = 0, mpi_down = 0;
  MPI_Initialized(&mpi_up);
  MPI_Finalized(&mpi_down);
  if (mpi_down) state_error(function, "MPI is finalized already");
  if (!mpi_up && comm != MPI_COMM_WORLD)
    state_error(function, "MPI must be initialized before ARMCI is initialized on a communicator");
  if (comm == MPI_COMM_NULL) bad_argument(function, "comm", "MPI_COMM_NULL", "needs a communicator this process belongs to");

  g_runtime.owns_rma = !rma::initialized();
  if (g_runtime.owns_rma) {
    if (mpi_up)
      rma::init(comm);
    else
      rma::init(argc, argv);
  } else {
    int same = MPI_UNEQUAL;
    MPI_Comm_compare(rma::world_comm(), comm, &same);
    if (same != MPI_CONGRUENT && same != MPI_IDENT)
      state_error(function, "armada::rma already runs on another communicator");
  }
  int provided = MPI_THREAD_SINGLE;
  MPI_Query_thread(&provided);
  if (provided < thread_level) {
    if (g_runtime.owns_rma) rma::finalize();
    bad_argument(function, "armci_requested", std::to_string(thread_level),
                 "above the thread level MPI provides (" + std::to_string(provided) + ")");
  }
  MPI_Comm_dup(rma::world_comm(), &g_runtime.msg_comm);
  groups_init();
  g_runtime.init_count = 1;
}

}  // namespace

void require_init(const char* function) {
  if (g_runtime.init_count == 0) state_error(function, "ARMCI is not initialized (call ARMCI_Init first)");
}

MPI_Comm message_comm() { return g_runtime.msg_comm; }

}  // namespace armada::armci

using namespace armada::armci;

int PARMCI_Init_thread_comm(int armci_requested, MPI_Comm comm) {
  return guard("ARMCI_Init_thread_comm",
               [&] { start("ARMCI_Init_thread_comm", armci_requested, comm, nullptr, nullptr); });
}
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_Init_thread_comm)

int PARMCI_Init_thread(int armci_requested) {
  return guard("ARMCI_Init_thread",
               [&] { start("ARMCI_Init_thread", armci_requested, MPI_COMM_WORLD, nullptr, nullptr); });
}
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_Init_thread)

int PARMCI_Init_mpi_comm(MPI_Comm comm) {
  return guard("ARMCI_Init_mpi_comm", [&] { start("ARMCI_Init_mpi_comm", MPI_THREAD_SINGLE, comm, nullptr, nullptr); });
}
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_Init_mpi_comm)

int PARMCI_Init_args(int* argc, char*** argv) {
  return guard("ARMCI_Init_args", [&] { start("ARMCI_Init_args", MPI_THREAD_SINGLE, MPI_COMM_WORLD, argc, argv); });
}
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_Init_args)

int PARMCI_Init(void) {
  return guard("ARMCI_Init", [] { start("ARMCI_Init", MPI_THREAD_SINGLE, MPI_COMM_WORLD, nullptr, nullptr); });
}
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_Init)

int PARMCI_Initialized(void) { return g_runtime.init_count > 0; }
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_Initialized)

int PARMCI_Finalize(void) {
  return guard("ARMCI_Finalize", [] {
    if (g_runtime.init_count == 0 || --g_runtime.init_count > 0) return;
    requests_finalize();
    mutexes_finalize();
    groups_finalize();
    MPI_Comm_free(&g_runtime.msg_comm);
    if (g_runtime.owns_rma) rma::finalize();  // finalizes MPI too if it started it
  });
}
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_Finalize)

// Segments are unlinked from /dev/shm as soon as they are mapped, so an abort leaves nothing
// behind and there is nothing to clean up.
void ARMCI_Cleanup(void) {}

// Remote slices are not load/store accessible through the addresses ARMCI_Malloc returns
// (each is valid in its owner's address space only), so to callers Armada does not "use shm".
int ARMCI_Uses_shm(void) { return 0; }
int ARMCI_Uses_shm_grp(ARMCI_Group*) { return 0; }
// Shared memory is reserved per allocation; there is no pool to limit.
void ARMCI_Set_shm_limit(unsigned long) {}
