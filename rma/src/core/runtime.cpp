// init/finalize, node topology and routing of targets to transports.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <utility>

#include "armada/rma/runtime.hpp"
#include "core/check.hpp"
#include "core/group_impl.hpp"
#include "core/state.hpp"
#include "transport/server/direct.hpp"

namespace armada::rma {

namespace detail {

State* g_state = nullptr;

void throw_not_initialized(const char* op) {
  throw_state(op, "the rma runtime is not initialized (call armada::rma::init first)");
}

void throw_bad_rank(const char* op, const char* argument, const State& s, int target) {
  throw_invalid(op, argument, std::to_string(target),
                "not a rank of the world group (size " + std::to_string(s.size) + ")");
}

void forget_foreign_segment(State& s, const SegmentRecord& segment) {
  if (s.server_comm == MPI_COMM_NULL || segment.region.creator_pid() != static_cast<int>(getpid())) return;
  const int leader = s.topology.members[static_cast<std::size_t>(s.topology.node_of[static_cast<std::size_t>(s.rank)])].front();
  if (segment.group.group_rank(leader) >= 0) return;  // the server maps it through its registry
  server::Header h{};
  h.kind = server::Kind::Forget;
  h.segment = segment.id;
  MPI_Send(&h, sizeof h, MPI_BYTE, leader, server::kTagControl, s.server_comm);
}

void fence_everything(State& s) {
  for (Transport* t : s.transports) t->fence_all();
}

void throw_no_route(const char* op, const State& s, int target) {
  throw_unsupported(op, "rank " + std::to_string(target) + " is on node " +
                            std::to_string(s.topology.node_of[static_cast<std::size_t>(target)]) +
                            " and this rank on node " +
                            std::to_string(s.topology.node_of[static_cast<std::size_t>(s.rank)]) +
                            ", and no inter-node transport is configured (ARMADA_TRANSPORT=" +
                            s.config.transport + ")");
}

namespace {

// Physical nodes from MPI_COMM_TYPE_SHARED, optionally cut into virtual nodes of node_size
// consecutive ranks. Node ids are numbered in order of their lowest world rank.
Topology discover_topology(MPI_Comm world, int rank, int size, int node_size) {
  MPI_Comm shared;
  MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shared);
  int shared_rank = 0;
  MPI_Comm_rank(shared, &shared_rank);
  int leader = rank;  // lowest world rank on this physical node
  MPI_Allreduce(MPI_IN_PLACE, &leader, 1, MPI_INT, MPI_MIN, shared);
  MPI_Comm_free(&shared);

  const int key[2] = {leader, node_size > 0 ? shared_rank / node_size : 0};
  std::vector<int> keys(2 * static_cast<std::size_t>(size));
  MPI_Allgather(key, 2, MPI_INT, keys.data(), 2, MPI_INT, world);

  Topology t;
  t.node_of.resize(static_cast<std::size_t>(size));
  t.host_of.resize(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) t.host_of[static_cast<std::size_t>(r)] = keys[2 * static_cast<std::size_t>(r)];
  std::map<std::pair<int, int>, int> ids;
  for (int r = 0; r < size; ++r) {
    const auto k = std::make_pair(keys[2 * static_cast<std::size_t>(r)], keys[2 * static_cast<std::size_t>(r) + 1]);
    auto [it, fresh] = ids.try_emplace(k, static_cast<int>(t.members.size()));
    if (fresh) t.members.emplace_back();
    t.node_of[static_cast<std::size_t>(r)] = it->second;
    t.members[static_cast<std::size_t>(it->second)].push_back(r);
  }
  return t;
}

// VmRSS of this process in KiB (0 if /proc is not readable).
long resident_kb() {
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return 0;
  char line[256];
  long kb = 0;
  while (std::fgets(line, sizeof line, f))
    if (std::sscanf(line, "VmRSS: %ld kB", &kb) == 1) break;
  std::fclose(f);
  return kb;
}

const char* thread_level_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    default: return "MPI_THREAD_MULTIPLE";
  }
}

// A program that started MPI itself below MPI_THREAD_MULTIPLE (plain MPI_Init, as ARMCI and
// Global Arrays programs do) allows no helper thread to call MPI. The server transport cannot
// run without its server thread (and its origins' completer threads), so across nodes Armada
// then uses mpi-rma, and mpi-rma runs without its progress thread. Rank 0 says once what is lost
// and how to get it back. The effective settings replace the configured ones in s.config, so
// config(), ARMADA_VERBOSE and armada-info show what runs.
void adapt_to_thread_level(State& s) {
  int provided = 0;
  MPI_Query_thread(&provided);
  if (provided >= MPI_THREAD_MULTIPLE || s.topology.members.size() < 2) return;
  const bool was_server = s.config.transport == "server";
  const bool had_progress = s.config.mpi_progress;
  if (s.config.transport == "none" || (!was_server && !had_progress)) return;  // nothing changes
  s.config.transport = "mpi-rma";
  s.config.mpi_progress = false;
  if (s.rank != 0) return;
  std::fprintf(stderr,
               "armada::rma: warning: MPI runs at %s, so no helper thread may call MPI: %s without its progress "
               "thread. Lost: %soperations that the MPI library executes in the target's progress engine complete "
               "only when the target next calls MPI (Open MPI osc sm: none; osc ucx: accumulates and atomics "
               "between processes of one host; MPICH: accumulates). To get it back, initialize MPI with "
               "MPI_Init_thread(MPI_THREAD_MULTIPLE) (docs/rma.md, thread levels).\n",
               thread_level_name(provided),
               was_server ? "the inter-node transport is mpi-rma instead of the server transport," : "mpi-rma runs",
               was_server ? "the server transport (its unilateral progress, direct delivery, shared-memory "
                            "accumulates on the node); "
                          : "");
}

// The server transport: every rank gets the origin side; each node's first rank also runs the
// node server thread. Needs MPI_THREAD_MULTIPLE (the server thread and the application both
// call MPI; adapt_to_thread_level made sure of it).
void start_server_transport(State& s) {
  ServerMap map;
  map.node_of = s.topology.node_of;
  for (const auto& members : s.topology.members) map.leader_of_node.push_back(members.front());
  map.cluster = s.config.server_cluster;
  ServerSettings settings;
  settings.buffers = s.config.server_buffers;
  settings.inline_bytes = static_cast<std::size_t>(s.config.server_inline);
  settings.chunk = static_cast<std::size_t>(s.config.server_chunk);
  settings.poll = s.config.server_poll;
  settings.sleep_max_us = s.config.server_sleep_max_us;
  settings.awake_us = s.config.server_awake_us;
  settings.origin_progress = s.config.server_origin_progress;
  MPI_Comm_dup(s.world, &s.server_comm);
  map.host_of = s.topology.host_of;
  if (s.config.server_direct != "off") {
    server::DirectPeers peers = server::probe_direct(s.server_comm, map.host_of);
    if (!peers.usable && s.config.server_direct == "on")
      throw_unsupported("rma::init", "ARMADA_SERVER_DIRECT=on, but " + peers.refusal);
    settings.direct = peers.usable;
    map.pid_of = std::move(peers.pid_of);
  }
  const int my_node = s.topology.node_of[static_cast<std::size_t>(s.rank)];
  if (s.topology.members[static_cast<std::size_t>(my_node)].front() == s.rank) {
    const long rss_before = resident_kb();
    s.node_server = std::make_unique<NodeServer>(s, s.server_comm, map, settings);
    s.node_server->start();
    s.server_rss_growth_kb = resident_kb() - rss_before;
  }
  s.server = std::make_unique<ServerTransport>(s.rank, s.server_comm, std::move(map), settings);
  for (int r = 0; r < s.size; ++r)
    if (!s.route[static_cast<std::size_t>(r)]) s.route[static_cast<std::size_t>(r)] = s.server.get();
  s.transports.push_back(s.server.get());
  MPI_Barrier(s.world);  // every server is listening before anyone sends
}
// The MPI-3 one-sided transport. It takes every target, on-node ones too (it hands their plain
// put/get to shared memory itself), because accumulates and atomics must all go through MPI to
// stay atomic with each other. Its progress thread calls MPI next to the application's threads,
// so it runs only under MPI_THREAD_MULTIPLE (adapt_to_thread_level turns it off otherwise).
void start_mpi_rma_transport(State& s) {
  MpiRmaSettings settings;
  settings.progress_thread = s.config.mpi_progress;
  settings.progress_interval_us = s.config.mpi_progress_us;
  settings.spin_limit = s.config.spin_limit;
  settings.mutex_waiters = s.config.mpi_mutex_waiters;
  if (s.config.mpi_iov == "direct") settings.batched_segments = 0;
  if (s.config.mpi_iov == "batched") settings.batched_segments = std::numeric_limits<std::size_t>::max();
  if (s.rank == 0) {
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    MPI_Get_library_version(version, &length);
    const char* osc = std::getenv("OMPI_MCA_osc");
    if (std::strstr(version, "Open MPI") && !(osc && std::strstr(osc, "ucx")))
      std::fprintf(stderr, "armada::rma: warning: mpi-rma on Open MPI without OMPI_MCA_osc=sm,ucx; osc rdma has known "
                           "bugs this transport can hit (docs/mpi-quirks.md)\n");
  }
  s.mpi = std::make_unique<MpiRmaTransport>(s.world, s.rank, *s.shm, settings);
  for (int r = 0; r < s.size; ++r) s.route[static_cast<std::size_t>(r)] = s.mpi.get();
  s.transports.push_back(s.mpi.get());
}

void print_configuration(const State& s) {
  std::printf("armada::rma: %d ranks on %zu node(s)%s\n", s.size, s.topology.members.size(),
              s.config.node_size > 0 ? " (virtual nodes)" : "");
  for (std::size_t n = 0; n < s.topology.members.size(); ++n) {
    std::printf("  node %zu:", n);
    for (int r : s.topology.members[n]) std::printf(" %d", r);
    std::printf("\n");
  }
  for (const Setting& setting : settings())
    std::printf("  %s=%s\n", setting.name, setting_value(setting).c_str());
  std::fflush(stdout);
}

// A misspelt setting would otherwise be ignored without a word.
void warn_unknown_settings() {
  static bool warned = false;  // once per process, also across init/finalize cycles
  if (warned) return;
  warned = true;
  for (const UnknownSetting& u : unknown_settings())
    std::fprintf(stderr, "armada::rma: warning: %s is not a setting and is ignored (did you mean %s? armada-info lists them)\n",
                 u.name.c_str(), u.closest.c_str());
}

void init_on(MPI_Comm comm, bool owns_mpi) {
  auto s = std::make_unique<State>();
  s->owns_mpi = owns_mpi;
  s->config = read_config();
  MPI_Comm_dup(comm, &s->world);
  MPI_Comm_rank(s->world, &s->rank);
  MPI_Comm_size(s->world, &s->size);
  s->topology = discover_topology(s->world, s->rank, s->size, s->config.node_size);
  const int my_node = s->topology.node_of[static_cast<std::size_t>(s->rank)];
  MPI_Comm_split(s->world, my_node, s->rank, &s->node_comm);

  auto world = std::make_shared<Group::Impl>();
  world->comm = s->world;
  world->rank = s->rank;
  for (int r = 0; r < s->size; ++r) world->world_ranks.push_back(r);
  world->group_rank_of = world->world_ranks;
  s->world_group = Group(std::move(world));

  s->registry = std::make_unique<Registry>(s->size);
  s->stripe_region = ShmRegion::create("rma::init", s->node_comm, StripeLocks::region_bytes());
  s->shm = std::make_unique<ShmTransport>(StripeLocks(s->stripe_region.data(), s->config.spin_limit),
                                          s->config.spin_limit, s->rank);
  s->route.assign(static_cast<std::size_t>(s->size), nullptr);
  for (int r : s->topology.members[static_cast<std::size_t>(my_node)])
    s->route[static_cast<std::size_t>(r)] = s->shm.get();
  s->transports.push_back(s->shm.get());
  adapt_to_thread_level(*s);
  if (s->topology.members.size() > 1 && s->config.transport == "server") start_server_transport(*s);
  if (s->topology.members.size() > 1 && s->config.transport == "mpi-rma") start_mpi_rma_transport(*s);

  if (s->config.verbose && s->rank == 0) print_configuration(*s);
  if (s->rank == 0) warn_unknown_settings();
  g_state = s.release();
}

}  // namespace
}  // namespace detail

using detail::g_state;

void set_mpi_environment_defaults() { setenv("OMPI_MCA_osc", "sm,ucx", 0); }

namespace {
// MPI cannot start again once finalized (MPI_Init would abort the process): say so instead.
void refuse_after_mpi_finalize(const char* op) {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized)
    detail::throw_state(op, "MPI has been finalized (rma::finalize ends MPI when rma::init started it), and MPI "
                            "cannot be initialized twice in one process; the runtime cannot start again");
}
}  // namespace

void init(int* argc, char*** argv) {
  if (g_state) detail::throw_state("rma::init", "the rma runtime is already initialized");
  refuse_after_mpi_finalize("rma::init");
  int initialized = 0;
  MPI_Initialized(&initialized);
  bool owns = false;
  if (!initialized) {
    // mpi-rma on Open MPI: osc sm for windows inside one host (load/store, every operation
    // one-sided) and osc ucx for the others, instead of the default osc rdma, whose 4.1
    // releases crash on an 8-byte compare-and-swap to self and fail window creation on split
    // communicators (docs/mpi-quirks.md). rdma stays out of the list: it would outrank sm. MCA
    // settings come from the environment at MPI_Init, so this is the last moment; an explicit
    // OMPI_MCA_osc (or mpiexec --mca osc) wins.
    const char* transport = std::getenv("ARMADA_TRANSPORT");
    if (transport && std::string(transport) == "mpi-rma") set_mpi_environment_defaults();
    int provided = 0;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS)
      detail::throw_state("rma::init", "MPI_Init_thread failed");
    owns = true;
  }
  detail::init_on(MPI_COMM_WORLD, owns);
}

void init(MPI_Comm comm) {
  if (g_state) detail::throw_state("rma::init", "the rma runtime is already initialized");
  refuse_after_mpi_finalize("rma::init");
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) detail::throw_state("rma::init", "init(MPI_Comm) needs MPI to be initialized already");
  if (comm == MPI_COMM_NULL)
    detail::throw_invalid("rma::init", "comm", "MPI_COMM_NULL", "needs a communicator this rank belongs to");
  detail::init_on(comm, false);
}

void finalize() {
  auto& s = detail::state("rma::finalize");
  detail::fence_everything(s);
  MPI_Barrier(s.world);  // nobody unmaps memory another rank may still be writing
  const bool owns = s.owns_mpi;
  {
    std::unique_ptr<detail::State> doomed(g_state);
    g_state = nullptr;
    // Everyone has fenced and passed the barrier: no request is in flight; stop the servers.
    if (doomed->node_server) doomed->node_server->stop();
    doomed->node_server.reset();
    doomed->server.reset();
    if (doomed->server_comm != MPI_COMM_NULL) MPI_Comm_free(&doomed->server_comm);
    doomed->mpi.reset();  // frees the windows still open (collective), before their memory goes
    doomed->segments.clear();
    doomed->world_group = Group(nullptr);
    MPI_Comm_free(&doomed->node_comm);
    MPI_Comm_free(&doomed->world);
  }
  if (owns) MPI_Finalize();
}

bool initialized() noexcept { return g_state != nullptr; }

ServerStats server_stats() {
  auto& s = detail::state("rma::server_stats");
  ServerStats stats;
  if (s.node_server) {
    stats.running = true;
    stats.clients = s.node_server->clients();
    stats.buffer_bytes = s.node_server->buffer_bytes();
    stats.rss_growth_kb = s.server_rss_growth_kb;
  }
  return stats;
}

const char* transport_name(int target) {
  auto& s = detail::state("rma::transport_name");
  detail::check_rank("rma::transport_name", "target", s, target);
  detail::Transport* t = s.route[static_cast<std::size_t>(target)];
  return t ? t->name() : "none";
}
bool server_direct(int target) {
  auto& s = detail::state("rma::server_direct");
  detail::check_rank("rma::server_direct", "target", s, target);
  return s.server && s.route[static_cast<std::size_t>(target)] == s.server.get() && s.server->direct_to(target);
}
int rank() { return detail::state("rma::rank").rank; }
int size() { return detail::state("rma::size").size; }
MPI_Comm world_comm() { return detail::state("rma::world_comm").world; }
const Config& config() { return detail::state("rma::config").config; }

int node_count() { return static_cast<int>(detail::state("rma::node_count").topology.members.size()); }

int node_of(int world_rank) {
  auto& s = detail::state("rma::node_of");
  detail::check_rank("rma::node_of", "world_rank", s, world_rank);
  return s.topology.node_of[static_cast<std::size_t>(world_rank)];
}

std::span<const int> node_ranks(int node) {
  auto& s = detail::state("rma::node_ranks");
  if (node < 0 || node >= static_cast<int>(s.topology.members.size()))
    detail::throw_invalid("rma::node_ranks", "node", std::to_string(node),
                          "not a node index (there are " + std::to_string(s.topology.members.size()) + " nodes)");
  return s.topology.members[static_cast<std::size_t>(node)];
}

bool same_node(int a, int b) { return node_of(a) == node_of(b); }

}  // namespace armada::rma
