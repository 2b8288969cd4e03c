#include "armada/rma/config.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <string>

#include "core/check.hpp"

namespace armada::rma {

namespace {
constexpr Setting kSettings[] = {
    {"ARMADA_NODE_SIZE", "int", "0",
     "Ranks per virtual node. 0 uses the physical nodes (ranks that share memory); k > 0 splits "
     "each physical node into nodes of k consecutive ranks, so that one machine exercises the "
     "inter-node paths."},
    {"ARMADA_VERBOSE", "bool", "0", "Print the configuration and node topology on rank 0 at init."},
    {"ARMADA_SPIN_LIMIT", "int", "2000",
     "Busy-wait rounds before a waiting rank yields or sleeps (mutexes, accumulate locks)."},
    {"ARMADA_TRANSPORT", "string", "server",
     "Transport to ranks on other nodes: 'server' (a helper thread per node, MPI two-sided), "
     "'mpi-rma' (MPI-3 one-sided windows; it then also carries every accumulate, atomic and "
     "mutex operation, on-node ones included, so that they stay atomic with each other) or "
     "'none' (operations to other nodes fail with Unsupported)."},
    {"ARMADA_SERVER_POLL", "bool", "0",
     "1: an idle node server polls continuously (lowest latency; costs a core). 0: it spins "
     "briefly, then sleeps with a doubling backoff up to ARMADA_SERVER_SLEEP_MAX_US."},
    {"ARMADA_SERVER_SLEEP_MAX_US", "int", "200", "Longest sleep of an idle node server, in microseconds."},
    {"ARMADA_SERVER_AWAKE_US", "int", "1000",
     "How long a node server keeps polling after its last request before it starts to sleep, in "
     "microseconds (requests come in bursts; a sleeping server adds its wake-up time to the "
     "next one). It yields the core to any other thread that wants it meanwhile. 0: back off at once."},
    {"ARMADA_SERVER_BUFFERS", "int", "4",
     "Request buffers a node server posts per client; also the most requests a rank has in "
     "flight to one server (flow control)."},
    {"ARMADA_SERVER_INLINE", "int", "4096", "Payload bytes sent inside the request message; larger payloads follow in chunks."},
    {"ARMADA_SERVER_CHUNK", "int", "262144", "Pipeline chunk (bytes) of large server transfers: packing overlaps sending."},
    {"ARMADA_SERVER_CLUSTER", "int", "1",
     "Cooperative server clustering: servers per cluster (g). Each server keeps request buffers "
     "for 1/g of the clients and forwards requests for the other servers of its cluster. 1 = off."},
    {"ARMADA_SERVER_ORIGIN_PROGRESS", "bool", "1",
     "server: a helper thread in every rank receives the data of its nonblocking gets from other "
     "nodes while the rank computes, so the transfer overlaps the computation (MPI two-sided "
     "data moves only when the receiver enters MPI). It polls only while such a get is in "
     "flight and blocks otherwise. 0: the data moves when the rank waits or tests."},
    {"ARMADA_SERVER_DIRECT", "string", "auto",
     "server: how a transfer larger than ARMADA_SERVER_INLINE reaches an origin on the server's "
     "own host (another virtual node). 'auto'/'on': the target's server copies the data between "
     "the target's memory and the origin's buffer itself (process_vm_readv/writev), as a NIC's "
     "RDMA would, so a nonblocking get completes while the origin computes; 'on' fails at init "
     "if the kernel forbids it, 'auto' then falls back. 'off': MPI messages. Between hosts the "
     "data always travels as messages."},
    {"ARMADA_MPI_PROGRESS", "bool", "1",
     "mpi-rma: a helper thread enters MPI every ARMADA_MPI_PROGRESS_US so that one-sided "
     "operations the MPI library executes in the target's progress engine (Open MPI's emulated "
     "atomics, MPICH's accumulates) complete while the target computes. 0: no thread."},
    {"ARMADA_MPI_PROGRESS_US", "int", "100",
     "mpi-rma: interval of the progress thread in microseconds (it sleeps in between)."},
    {"ARMADA_MPI_MEMORY", "string", "mpi",
     "mpi-rma: who allocates segment memory. 'mpi': MPI_Win_allocate, so the MPI library owns it "
     "and reaches it one-sidedly through its own shared memory or NIC registration; every "
     "access except a rank's own then goes through MPI. 'shm': node shared memory (on-node "
     "ranks load and store directly) exposed with MPI_Win_create; one-sided only where the MPI "
     "can register user memory (RDMA NICs): between processes of one host, Open MPI's osc ucx "
     "then needs the target's progress (see ARMADA_MPI_PROGRESS)."},
    {"ARMADA_MPI_IOV", "string", "auto",
     "mpi-rma: how a vector operation whose remote segments do not overlap is issued. 'batched': "
     "one MPI call per segment and one completion; 'direct': one call with hindexed datatypes; "
     "'auto': batched up to 4096 segments, direct beyond. Overlapping segments always go one "
     "call at a time, each completed before the next."},
    {"ARMADA_MPI_MUTEX_WAITERS", "int", "64",
     "mpi-rma: queue nodes per process, the most mutexes one process holds or waits for at once "
     "(over all its threads)."},
};

long parse_int(const char* name, const char* text, long min, long max) {
  errno = 0;
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || v < min || v > max)
    detail::throw_invalid("rma::init", name, std::string("'") + text + "'",
                          "must be an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  return v;
}

bool parse_bool(const char* name, const char* text) {
  const std::string t = text;
  if (t == "1" || t == "true" || t == "yes" || t == "on") return true;
  if (t == "0" || t == "false" || t == "no" || t == "off" || t.empty()) return false;
  detail::throw_invalid("rma::init", name, "'" + t + "'", "must be one of 1, 0, true, false, yes, no, on, off");
}
}  // namespace

std::span<const Setting> settings() noexcept { return kSettings; }

Config read_config() {
  Config c;
  if (const char* v = std::getenv("ARMADA_NODE_SIZE")) c.node_size = static_cast<int>(parse_int("ARMADA_NODE_SIZE", v, 0, 1 << 20));
  if (const char* v = std::getenv("ARMADA_VERBOSE")) c.verbose = parse_bool("ARMADA_VERBOSE", v);
  if (const char* v = std::getenv("ARMADA_SPIN_LIMIT")) c.spin_limit = static_cast<int>(parse_int("ARMADA_SPIN_LIMIT", v, 0, 1 << 30));
  if (const char* v = std::getenv("ARMADA_TRANSPORT")) {
    c.transport = v;
    if (c.transport != "server" && c.transport != "mpi-rma" && c.transport != "none")
      detail::throw_invalid("rma::init", "ARMADA_TRANSPORT", "'" + c.transport + "'", "must be one of: server, mpi-rma, none");
  }
  if (const char* v = std::getenv("ARMADA_MPI_PROGRESS")) c.mpi_progress = parse_bool("ARMADA_MPI_PROGRESS", v);
  if (const char* v = std::getenv("ARMADA_MPI_PROGRESS_US")) c.mpi_progress_us = static_cast<int>(parse_int("ARMADA_MPI_PROGRESS_US", v, 1, 1000000));
  if (const char* v = std::getenv("ARMADA_MPI_MUTEX_WAITERS")) c.mpi_mutex_waiters = static_cast<int>(parse_int("ARMADA_MPI_MUTEX_WAITERS", v, 1, 1 << 16));
  if (const char* v = std::getenv("ARMADA_MPI_MEMORY")) {
    c.mpi_memory = v;
    if (c.mpi_memory != "mpi" && c.mpi_memory != "shm")
      detail::throw_invalid("rma::init", "ARMADA_MPI_MEMORY", "'" + c.mpi_memory + "'", "must be one of: mpi, shm");
  }
  if (const char* v = std::getenv("ARMADA_MPI_IOV")) {
    c.mpi_iov = v;
    if (c.mpi_iov != "auto" && c.mpi_iov != "batched" && c.mpi_iov != "direct")
      detail::throw_invalid("rma::init", "ARMADA_MPI_IOV", "'" + c.mpi_iov + "'", "must be one of: auto, batched, direct");
  }
  if (const char* v = std::getenv("ARMADA_SERVER_POLL")) c.server_poll = parse_bool("ARMADA_SERVER_POLL", v);
  if (const char* v = std::getenv("ARMADA_SERVER_SLEEP_MAX_US")) c.server_sleep_max_us = static_cast<int>(parse_int("ARMADA_SERVER_SLEEP_MAX_US", v, 1, 1000000));
  if (const char* v = std::getenv("ARMADA_SERVER_AWAKE_US")) c.server_awake_us = static_cast<int>(parse_int("ARMADA_SERVER_AWAKE_US", v, 0, 10000000));
  if (const char* v = std::getenv("ARMADA_SERVER_BUFFERS")) c.server_buffers = static_cast<int>(parse_int("ARMADA_SERVER_BUFFERS", v, 1, 1024));
  if (const char* v = std::getenv("ARMADA_SERVER_INLINE")) c.server_inline = static_cast<int>(parse_int("ARMADA_SERVER_INLINE", v, 0, 1 << 20));
  if (const char* v = std::getenv("ARMADA_SERVER_CHUNK")) c.server_chunk = static_cast<int>(parse_int("ARMADA_SERVER_CHUNK", v, 4096, 1 << 30));
  if (const char* v = std::getenv("ARMADA_SERVER_ORIGIN_PROGRESS")) c.server_origin_progress = parse_bool("ARMADA_SERVER_ORIGIN_PROGRESS", v);
  if (const char* v = std::getenv("ARMADA_SERVER_DIRECT")) {
    c.server_direct = v;
    if (c.server_direct != "auto" && c.server_direct != "on" && c.server_direct != "off")
      detail::throw_invalid("rma::init", "ARMADA_SERVER_DIRECT", "'" + c.server_direct + "'", "must be one of: auto, on, off");
  }
  if (const char* v = std::getenv("ARMADA_SERVER_CLUSTER")) c.server_cluster = static_cast<int>(parse_int("ARMADA_SERVER_CLUSTER", v, 1, 1 << 20));
  return c;
}

namespace {

// ARMADA_* variables that are not rma settings but belong elsewhere: the scripts' variables and
// the prefixes of the other layers' settings.
constexpr const char* kScriptVariables[] = {"ARMADA_MPI", "ARMADA_SANITIZE", "ARMADA_BUILD_DIR", "ARMADA_BUILD_BENCH",
                                            "ARMADA_SETUP_EXTRA"};
constexpr const char* kOtherLayers[] = {"ARMADA_ARRAYS_", "ARMADA_LINALG_", "ARMADA_APPS_", "ARMADA_BENCH_",
                                        "ARMADA_FORTRAN_", "ARMADA_TEST_"};

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

bool known_elsewhere(const std::string& name) {
  for (const char* v : kScriptVariables)
    if (name == v) return true;
  for (const char* prefix : kOtherLayers)
    if (name.starts_with(prefix)) return true;
  return false;
}

}  // namespace

std::vector<UnknownSetting> unknown_settings() {
  std::vector<UnknownSetting> unknown;
  for (char** e = environ; e && *e; ++e) {
    const std::string entry = *e;
    if (!entry.starts_with("ARMADA_")) continue;
    const std::string name = entry.substr(0, entry.find('='));
    if (known_elsewhere(name)) continue;
    const Setting* closest = nullptr;
    std::size_t best = std::string::npos;
    for (const Setting& s : kSettings) {
      const std::size_t d = edit_distance(name, s.name);
      if (d < best) best = d, closest = &s;
    }
    if (best != 0) unknown.push_back({name, closest->name});
  }
  return unknown;
}

std::string setting_value(const Setting& setting) {
  const char* v = std::getenv(setting.name);
  return v ? v : setting.default_value;
}

}  // namespace armada::rma
