// The mpi-rma transport's registration (settings rows, thread-level rule, MPI environment,
// start) and its capability and diagnostic hooks. Start, completion and atomics:
// mpi_rma_transport.cpp; windows: windows.cpp; contiguous and strided operations: strided.cpp;
// I/O vectors: vector.cpp; mutexes: mpi_rma_mutex.cpp.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <string>

#include "transport/mpi_rma/leftovers.hpp"
#include "transport/mpi_rma/mpi_rma_transport.hpp"
#include "transport/plugin.hpp"

namespace armada::rma::detail {

namespace {

// ARMADA_MPI_IOV: the most segments a vector operation issues batched ('auto': up to 4096).
void store_iov(void* settings, const SettingValue& v) {
  std::size_t& batched = static_cast<MpiRmaSettings*>(settings)->batched_segments;
  batched = v.text == "direct" ? 0 : v.text == "batched" ? std::numeric_limits<std::size_t>::max() : 4096;
}

constexpr SettingRow kSettings[] = {
    {.doc = {"ARMADA_MPI_PROGRESS", "bool", "1",
             "mpi-rma: a helper thread enters MPI every ARMADA_MPI_PROGRESS_US so that one-sided "
             "operations the MPI library executes in the target's progress engine (Open MPI's emulated "
             "atomics, MPICH's accumulates) complete while the target computes. 0: no thread."},
     .store = field<&MpiRmaSettings::progress_thread>},
    {.doc = {"ARMADA_MPI_PROGRESS_US", "int", "100",
             "mpi-rma: interval of the progress thread in microseconds (it sleeps in between)."},
     .min = 1, .max = 1000000, .store = field<&MpiRmaSettings::progress_interval_us>},
    {.doc = {"ARMADA_MPI_MEMORY", "string", "mpi",
             "mpi-rma: who allocates segment memory. 'mpi': MPI_Win_allocate, so the MPI library owns it "
             "and reaches it one-sidedly through its own shared memory or NIC registration; every "
             "access except a rank's own then goes through MPI. 'shm': node shared memory (on-node "
             "ranks load and store directly) exposed with MPI_Win_create; one-sided only where the MPI "
             "can register user memory (RDMA NICs): between processes of one host, Open MPI's osc ucx "
             "then needs the target's progress (see ARMADA_MPI_PROGRESS)."},
     .choices = "mpi|shm",
     .store = [](void* s, const SettingValue& v) { static_cast<MpiRmaSettings*>(s)->owns_memory = v.text == "mpi"; }},
    {.doc = {"ARMADA_MPI_IOV", "string", "auto",
             "mpi-rma: how a vector operation whose remote segments do not overlap is issued. 'batched': "
             "one MPI call per segment and one completion; 'direct': one call with hindexed datatypes; "
             "'auto': batched up to 4096 segments, direct beyond. Overlapping segments always go one "
             "call at a time, each completed before the next."},
     .choices = "auto|batched|direct", .store = store_iov},
    {.doc = {"ARMADA_MPI_MUTEX_WAITERS", "int", "64",
             "mpi-rma: queue nodes per process, the most mutexes one process holds or waits for at once "
             "(over all its threads)."},
     .min = 1, .max = 1 << 16, .store = field<&MpiRmaSettings::mutex_waiters>},
};

// Its progress thread calls MPI next to the application's threads, so it runs only under
// MPI_THREAD_MULTIPLE.
const char* below_thread_multiple(Config& config, std::string& lost) {
  if (config.flag("ARMADA_MPI_PROGRESS")) {
    config.values.insert_or_assign("ARMADA_MPI_PROGRESS", std::string("0"));
    lost += "mpi-rma runs without its progress thread (lost: operations that the MPI library executes in the "
            "target's progress engine complete only when the target next calls MPI; Open MPI osc sm: none; osc "
            "ucx: accumulates and atomics between processes of one host; MPICH: accumulates). ";
  }
  return nullptr;  // it runs itself
}

// What mpi-rma needs of the MPI library's environment, set before MPI starts unless the user set
// it (rma::init when it starts MPI, rma::prepare_mpi_environment, libarmada_armci at load).
struct MpiEnvironmentDefault {
  const char* name;
  const char* value;
};
constexpr MpiEnvironmentDefault kMpiEnvironment[] = {
    // Open MPI: osc sm for windows inside one host (load/store, every operation one-sided) and
    // osc ucx for the others, instead of the default osc rdma, whose 4.1 releases crash on an
    // 8-byte compare-and-swap to self and fail window creation on split communicators
    // (docs/mpi-quirks.md). rdma stays out of the list: it would outrank sm.
    {"OMPI_MCA_osc", "sm,ucx"},
    // UCX guards a multi-threaded worker with a spin lock by default. The progress thread and the
    // application's threads enter osc ucx's worker together, and where they share cores (always
    // here; on a cluster whenever ranks fill the cores) a thread spins out its time slice behind
    // a preempted holder: osc ucx over TCP took 17-32 s instead of 2-4 s for test_atomic's threaded
    // cases across emulated hosts, or never finished (docs/mpi-quirks.md). A mutex sleeps instead.
    {"UCX_USE_MT_MUTEX", "y"},
};

void set_mpi_environment() {
  for (const MpiEnvironmentDefault& d : kMpiEnvironment) setenv(d.name, d.value, 0);
}

// A program that started MPI itself without what kMpiEnvironment would have set.
void warn_about_mpi_environment(const MpiRmaSettings& settings) {
  if (open_mpi_without_osc_ucx())
    std::fprintf(stderr, "armada::rma: warning: mpi-rma on Open MPI without OMPI_MCA_osc=sm,ucx; osc rdma has known "
                         "bugs this transport can hit (docs/mpi-quirks.md)\n");
  const char* osc = std::getenv("OMPI_MCA_osc");
  if (settings.progress_thread && osc && std::strstr(osc, "ucx") && !std::getenv("UCX_USE_MT_MUTEX"))
    std::fprintf(stderr, "armada::rma: warning: mpi-rma with osc ucx and its progress thread, but UCX_USE_MT_MUTEX is "
                         "not set: threads that share a core spin against each other on UCX's lock (several times slower, or "
                         "stuck); set UCX_USE_MT_MUTEX=y before MPI starts (mpiexec -x UCX_USE_MT_MUTEX=y) or let "
                         "rma::init start MPI (docs/mpi-quirks.md)\n");
}

// Open MPI's window files that killed jobs of this user left on this host (leftovers.hpp): the
// first rank of each host removes them before this job makes its own.
void remove_leftover_window_files(const TransportContext& c) {
  if (c.topology.host_of[static_cast<std::size_t>(c.rank)] != c.rank || !is_open_mpi()) return;
  for (const std::string& path : mpi_rma::remove_unheld_osc_sm_files())
    std::fprintf(stderr, "armada::rma: removed %s, left on %s by an mpi-rma job killed while Open MPI created a "
                         "window (docs/reliability.md)\n",
                 path.c_str(), c.topology.host_name(c.rank).c_str());
}

std::unique_ptr<Transport> start_mpi_rma(const TransportContext& c) {
  MpiRmaSettings settings = c.settings_as<MpiRmaSettings>();
  settings.spin_limit = c.config.spin_limit;  // the core's ARMADA_SPIN_LIMIT
  if (c.rank == 0) warn_about_mpi_environment(settings);
  remove_leftover_window_files(c);
  return std::make_unique<MpiRmaTransport>(c.world, c.rank, settings);
}

}  // namespace

extern const TransportEntry kMpiRmaTransport{
    .name = "mpi-rma",
    .role = TransportRole::InterNode,
    .summary = "MPI-3 one-sided windows; carries every accumulate, atomic and mutex, on-node ones too",
    .settings = kSettings,
    .new_settings = new_settings<MpiRmaSettings>,
    .below_thread_multiple = below_thread_multiple,
    // kMpiEnvironment; a value the user set (or mpiexec --mca osc) wins.
    .before_mpi_init = set_mpi_environment,
    .start = start_mpi_rma,
};

TransportCaps MpiRmaTransport::caps() const noexcept {
  // One-sided as far as this transport goes; whether the MPI library needs the target's
  // progress engine for an operation (emulated atomics) it does not say, hence the thread.
  TransportCaps c;
  c.put_get_one_sided = c.acc_one_sided = c.rmw_one_sided = c.mutex_one_sided = true;
  c.progress_thread = settings_.progress_thread;
  c.exclusive_atomics = true;  // MPI's accumulates and atomics are atomic only with MPI's own
  return c;
}

void MpiRmaTransport::describe(int, TransportInfo& info) const {
  info.route.push_back({"memory", settings_.owns_memory ? "mpi" : "shm"});
  info.process.push_back({"progress_thread", settings_.progress_thread ? "yes" : "no"});
}

}  // namespace armada::rma::detail
