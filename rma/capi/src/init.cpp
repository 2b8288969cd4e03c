// Initialization and finalization (ARMCI_Init*, ARMCI_Finalize, ARMCI_Initialized) and the
// shared-memory queries that describe the runtime.
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
};
Runtime g_runtime;

/// Brings ARMCI up on `comm` with at least `thread_level`. Unlike ARMCI-MPI, the calls on
/// MPI_COMM_WORLD also work before MPI_Init: they start MPI (MPI_THREAD_MULTIPLE), and the last
/// ARMCI_Finalize then finalizes it.
void start(const char* function, int thread_level, MPI_Comm comm, int* argc, char*** argv) {
  if (thread_level < MPI_THREAD_SINGLE || thread_level > MPI_THREAD_MULTIPLE)
    bad_argument(function, "armci_requested", std::to_string(thread_level),
                 "not an MPI thread level (MPI_THREAD_SINGLE .. MPI_THREAD_MULTIPLE)");
  if (comm == MPI_COMM_NULL)
    bad_argument(function, "comm", "MPI_COMM_NULL", "needs a communicator this process belongs to");
  if (g_runtime.init_count > 0) {
    ++g_runtime.init_count;
    return;
  }
  int mpi_up = 0, mpi_down = 0;
  MPI_Initialized(&mpi_up);
  MPI_Finalized(&mpi_down);
  if (mpi_down) bad_state(function, "MPI is finalized already");
  if (!mpi_up && comm != MPI_COMM_WORLD)
    bad_state(function, "MPI must be initialized before ARMCI is initialized on a communicator");

  int provided = MPI_THREAD_SINGLE;
  if (mpi_up) {  // refuse before anything starts (or warns about the thread level)
    MPI_Query_thread(&provided);
    if (provided < thread_level)
      bad_argument(function, "armci_requested", std::to_string(thread_level),
                   "above the thread level MPI provides (" + std::to_string(provided) + ")");
  }
  g_runtime.owns_rma = !rma::initialized();
  if (g_runtime.owns_rma) {
    // Below MPI_THREAD_MULTIPLE (plain MPI_Init) rma::init runs mpi-rma without helper
    // threads across nodes, and says so once (docs/armci.md, thread level).
    if (mpi_up)
      rma::init(comm);
    else
      rma::init(argc, argv);
  } else {
    int same = MPI_UNEQUAL;
    MPI_Comm_compare(rma::world_comm(), comm, &same);
    if (same != MPI_CONGRUENT && same != MPI_IDENT)
      bad_state(function, "armada::rma already runs on another communicator");
  }
  MPI_Query_thread(&provided);  // rma::init may have started MPI, below what it asked for
  if (provided < thread_level) {
    if (g_runtime.owns_rma) rma::finalize();
    bad_argument(function, "armci_requested", std::to_string(thread_level),
                 "above the thread level MPI provides (" + std::to_string(provided) + ")");
  }
  groups_init();
  notify_init();
  g_runtime.init_count = 1;
}

void stop() {
  if (g_runtime.init_count == 0 || --g_runtime.init_count > 0) return;
  requests_finalize();
  notify_finalize();
  mutexes_finalize();
  groups_finalize();
  if (g_runtime.owns_rma) rma::finalize();  // frees leaked segments; finalizes MPI if it started it
}

// ARMCI programs start MPI themselves, before Armada could choose Open MPI's one-sided
// components the way rma::init does when it starts MPI (osc sm,ucx instead of osc rdma, whose
// bugs the mpi-rma transport hits: docs/mpi-quirks.md). A plain MPI_Init below
// MPI_THREAD_MULTIPLE makes mpi-rma the inter-node transport, so the choice matters to every
// ARMCI program. Loading this library precedes main: set the default here. An explicit
// OMPI_MCA_osc (or mpiexec --mca osc) wins; other MPI libraries ignore the variable.
[[gnu::constructor]] void choose_mpi_defaults() { rma::prepare_mpi_environment(); }

}  // namespace

void require_init(const char* function) {
  if (g_runtime.init_count == 0) bad_state(function, "ARMCI is not initialized (call ARMCI_Init first)");
}

}  // namespace armada::armci

using namespace armada::armci;

ARMCI_TWIN(int, ARMCI_Init_thread_comm, (int armci_requested, MPI_Comm comm)) {
  constexpr const char* fn = "ARMCI_Init_thread_comm";
  return guard(fn, [&] { start(fn, armci_requested, comm, nullptr, nullptr); });
}

ARMCI_TWIN(int, ARMCI_Init_thread, (int armci_requested)) {
  constexpr const char* fn = "ARMCI_Init_thread";
  return guard(fn, [&] { start(fn, armci_requested, MPI_COMM_WORLD, nullptr, nullptr); });
}

ARMCI_TWIN(int, ARMCI_Init_mpi_comm, (MPI_Comm comm)) {
  constexpr const char* fn = "ARMCI_Init_mpi_comm";
  return guard(fn, [&] { start(fn, MPI_THREAD_SINGLE, comm, nullptr, nullptr); });
}

ARMCI_TWIN(int, ARMCI_Init_args, (int* argc, char*** argv)) {
  constexpr const char* fn = "ARMCI_Init_args";
  return guard(fn, [&] { start(fn, MPI_THREAD_SINGLE, MPI_COMM_WORLD, argc, argv); });
}

ARMCI_TWIN(int, ARMCI_Init, (void)) {
  constexpr const char* fn = "ARMCI_Init";
  return guard(fn, [] { start(fn, MPI_THREAD_SINGLE, MPI_COMM_WORLD, nullptr, nullptr); });
}

ARMCI_TWIN(int, ARMCI_Initialized, (void)) { return g_runtime.init_count > 0; }

// Global Arrays' own ARMCI message layer starts and ends MPI with these (GA's armci/testing
// programs call them around ARMCI_Init_args/ARMCI_Finalize); ARMCI-MPI has neither.
// armci_msg_init starts MPI, as ARMCI_Init does, with MPI_THREAD_MULTIPLE (so that across nodes
// the server transport can run); an MPI already started is left as it is.
void armci_msg_init(int* argc, char*** argv) {
  constexpr const char* fn = "armci_msg_init";
  guard_void(fn, [&] {
    int up = 0, down = 0;
    MPI_Initialized(&up);
    MPI_Finalized(&down);
    if (down) bad_state(fn, "MPI is finalized already");
    if (up) return;
    int provided = 0;
    check_mpi(fn, "MPI_Init_thread", MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided));
  });
}

// Finalizes MPI (nothing if it is finalized already: the last ARMCI_Finalize does it when
// ARMCI started MPI). ARMCI still initialized is ended first, whatever its ARMCI_Init count:
// MPI must not end under it (GA's test_groups.c exits this way without ARMCI_Finalize).
void armci_msg_finalize(void) {
  guard_void("armci_msg_finalize", [] {
    while (g_runtime.init_count > 0) stop();
    int up = 0, down = 0;
    MPI_Initialized(&up);
    MPI_Finalized(&down);
    if (up && !down) check_mpi("armci_msg_finalize", "MPI_Finalize", MPI_Finalize());
  });
}

// An extra call (before ARMCI_Init, or after the last matching one) does nothing and returns
// ARMADA_ARMCI_ESTATE, without the error hook or an abort: Global Arrays and TCGMSG finalize
// more than once and ignore the code (ARMCI-MPI returns 0 there).
ARMCI_TWIN(int, ARMCI_Finalize, (void)) {
  if (g_runtime.init_count == 0) return ARMADA_ARMCI_ESTATE;
  return guard("ARMCI_Finalize", stop);
}

// Segments are unlinked from /dev/shm as soon as every local rank has mapped them, so an abort
// leaves nothing behind: there is nothing to clean up.
void ARMCI_Cleanup(void) {}

// A peer's ARMCI_Malloc address is valid only in the peer's own address space, so to ARMCI
// programs no memory of another process is load/store accessible: no "shm" in ARMCI's sense.
int ARMCI_Uses_shm(void) { return 0; }
int ARMCI_Uses_shm_grp(ARMCI_Group*) { return 0; }
// Shared memory is reserved per allocation; there is no pool to limit.
void ARMCI_Set_shm_limit(unsigned long) {}

// Progress is unilateral (the transports need no polling).
void ARMCIX_Progress(void) {}
