// The server transport's registration (settings rows, thread-level rule, start) and its
// segment and diagnostic hooks. The operations are in server_transport.cpp (origin side) and
// node_server.cpp (the node's helper thread).

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>

#include "common/check.hpp"
#include "common/resident.hpp"
#include "transport/plugin.hpp"
#include "transport/server/direct.hpp"
#include "transport/server/server_transport.hpp"

namespace armada::rma::detail {

namespace {

constexpr SettingRow kSettings[] = {
    {.doc = {"ARMADA_SERVER_POLL", "bool", "0",
             "1: an idle node server polls continuously (lowest latency; costs a core). 0: it spins "
             "briefly, then sleeps with a doubling backoff up to ARMADA_SERVER_SLEEP_MAX_US."},
     .store = field<&ServerSettings::poll>},
    {.doc = {"ARMADA_SERVER_SLEEP_MAX_US", "int", "200", "Longest sleep of an idle node server, in microseconds."},
     .min = 1, .max = 1000000, .store = field<&ServerSettings::sleep_max_us>},
    {.doc = {"ARMADA_SERVER_AWAKE_US", "int", "1000",
             "How long a node server keeps polling after its last request before it starts to sleep, in "
             "microseconds (requests come in bursts; a sleeping server adds its wake-up time to the "
             "next one). It yields the core to any other thread that wants it meanwhile. 0: back off at once."},
     .min = 0, .max = 10000000, .store = field<&ServerSettings::awake_us>},
    {.doc = {"ARMADA_SERVER_BUFFERS", "int", "0",
             "Request buffers a node server posts per client; also the most requests a rank has in "
             "flight to one server (flow control). 0: by the job's size, 1024 / ranks between 4 and 32 "
             "(32 up to 32 ranks: a halo exchange's gets to another host all in flight; 4 from 256 "
             "ranks: a server's buffers and posted receives stay bounded)."},
     .min = 0, .max = 1024, .store = field<&ServerSettings::buffers>},
    {.doc = {"ARMADA_SERVER_INLINE", "int", "4096", "Payload bytes sent inside the request message; larger payloads follow in chunks."},
     .min = 0, .max = 1 << 20, .store = field<&ServerSettings::inline_bytes>},
    {.doc = {"ARMADA_SERVER_CHUNK", "int", "262144", "Pipeline chunk (bytes) of large server transfers: packing overlaps sending."},
     .min = 4096, .max = 1 << 30, .store = field<&ServerSettings::chunk>},
    {.doc = {"ARMADA_SERVER_CLUSTER", "int", "0",
             "Cooperative server clustering: servers per cluster (g). Each server keeps request buffers "
             "for 1/g of the clients and forwards requests for the other servers of its cluster. 1 = off. "
             "0: the smallest g whose request buffers fit in 32 MiB per server (1, off, up to about 2,000 "
             "ranks with the default buffers and inline size; docs/scaling.md)."},
     .min = 0, .max = 1 << 20, .store = field<&ServerSettings::cluster>},
    {.doc = {"ARMADA_SERVER_ORIGIN_PROGRESS", "string", "auto",
             "server: 1: a helper thread in every rank receives the data of its nonblocking gets from "
             "other nodes while the rank computes, so the transfer overlaps the computation (MPI "
             "two-sided data moves only when the receiver enters MPI); it polls while such a get is in "
             "flight and blocks otherwise. 0: the data moves when the rank waits or tests. 'auto': 1 "
             "where the host has a core for it, i.e. more cores available to the rank than ranks and "
             "node servers on the host; otherwise its polling would take that time from the "
             "computation (NAS CG class A across 2 emulated hosts on 2 cores: 0.39-0.44 s with it, "
             "0.25-0.27 s without)."},
     .choices = "auto|1|0|on|off|true|false|yes|no", .store = field<&ServerSettings::origin_progress_setting>},
    {.doc = {"ARMADA_SERVER_WAITER_SERVES", "bool", "1",
             "server: a rank that waits for its own replies executes the requests that have reached its "
             "node server meanwhile (when the server lives in its process), instead of leaving them to "
             "the server's thread, which may wait milliseconds for a core where threads outnumber cores. "
             "0: only the server's thread executes requests."},
     .store = field<&ServerSettings::waiter_serves>},
    {.doc = {"ARMADA_SERVER_DIRECT", "string", "auto",
             "server: how a transfer larger than ARMADA_SERVER_INLINE reaches an origin on the server's "
             "own host (another virtual node). 'auto'/'on': the target's server copies the data between "
             "the target's memory and the origin's buffer itself (process_vm_readv/writev), as a NIC's "
             "RDMA would, so a nonblocking get completes while the origin computes; 'on' fails at init "
             "if the kernel forbids it, 'auto' then falls back. 'off': MPI messages. Between hosts the "
             "data always travels as messages."},
     .choices = "auto|on|off", .store = field<&ServerSettings::direct_setting>},
};

// ARMADA_SERVER_BUFFERS=0: the credits by the job's size. Every server posts this many 4 KiB
// buffers (the inline size) per client and polls them all, so at most ~1024 per server; few
// clients get many (MG across two hosts: 4 credits 1.9 s, 32 credits 0.9 s, docs/cluster.md).
int buffers_for(int ranks) { return std::clamp(1024 / std::max(ranks, 1), 4, 32); }

// ARMADA_SERVER_CLUSTER=0: a server's request buffers grow with its clients, about ranks / g
// (the ARMCI clustering paper's N * M * B / g); the smallest g that keeps them within
// kServerBufferBudget, so that a 100,000-rank job's servers hold megabytes, not gigabytes.
constexpr std::size_t kServerBufferBudget = std::size_t{32} << 20;
int cluster_for(int ranks, int nodes, const ServerSettings& s) {
  const std::size_t per_client = static_cast<std::size_t>(s.buffers) * (sizeof(server::Header) + static_cast<std::size_t>(s.inline_bytes));
  const std::size_t need = per_client * static_cast<std::size_t>(ranks);
  const auto g = static_cast<int>((need + kServerBufferBudget - 1) / kServerBufferBudget);
  return std::clamp(g, 1, std::max(nodes, 1));
}

// ARMADA_SERVER_ORIGIN_PROGRESS: whether this rank runs the completer thread, and why. 'auto'
// wants a core for it beyond the host's ranks and node servers: a polling thread on a full host
// slows the computation more than the transfer it overlaps (docs/rma.md, "Completion").
bool decide_origin_progress(const std::string& setting, const Topology& topology, int rank, std::string& reason) {
  if (setting != "auto") {  // a bool's spellings (the row's choices)
    reason = "ARMADA_SERVER_ORIGIN_PROGRESS=" + setting;
    return setting == "1" || setting == "on" || setting == "true" || setting == "yes";
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  const int cores = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
  const int host = topology.host_of[static_cast<std::size_t>(rank)];
  int ranks = 0, servers = 0;  // on this host; each node's first rank runs its node's server
  for (std::size_t r = 0; r < topology.host_of.size(); ++r) ranks += topology.host_of[r] == host;
  for (const auto& members : topology.members)
    servers += topology.host_of[static_cast<std::size_t>(members.front())] == host;
  const bool spare = cores > ranks + servers;
  reason = std::to_string(cores) + " cores available to this rank, " + std::to_string(ranks) + " ranks and " +
           std::to_string(servers) + " node servers on its host: " + (spare ? "a core to spare" : "no core to spare");
  return spare;
}

// Every rank gets the origin side; each node's first rank also runs the node server thread.
// Needs MPI_THREAD_MULTIPLE (the server thread and the application both call MPI; the core
// applied below_thread_multiple otherwise).
std::unique_ptr<Transport> start_server(const TransportContext& c) {
  ServerMap map;
  map.node_of = c.topology.node_of;
  for (const auto& members : c.topology.members) map.leader_of_node.push_back(members.front());
  ServerSettings settings = c.settings_as<ServerSettings>();
  if (settings.buffers == 0) settings.buffers = buffers_for(c.size);
  settings.origin_progress =
      decide_origin_progress(settings.origin_progress_setting, c.topology, c.rank, settings.origin_progress_reason);
  if (settings.cluster == 0) settings.cluster = cluster_for(c.size, static_cast<int>(c.topology.members.size()), settings);
  map.cluster = settings.cluster;
  map.host_of = c.topology.host_of;
  map.topology = &c.topology;
  settings.stall_warn_s = c.config.stall_warn_s;  // the core's ARMADA_STALL_WARN
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_dup(c.world, &comm);
  if (settings.direct_setting != "off") {
    server::DirectPeers peers = server::probe_direct(comm, map.host_of);
    if (!peers.usable && settings.direct_setting == "on") {
      MPI_Comm_free(&comm);
      throw_unsupported("rma::init", "ARMADA_SERVER_DIRECT=on, but " + peers.refusal);
    }
    settings.direct = peers.usable;
    map.pid_of = std::move(peers.pid_of);
  }
  std::unique_ptr<NodeServer> node_server;
  long rss_growth_kb = 0;
  if (map.target_server(c.rank) == c.rank) {
    const long rss_before = resident_kb();
    node_server = std::make_unique<NodeServer>(c.registry, c.node_memory, c.rank, c.size, comm, map, settings);
    node_server->start();
    rss_growth_kb = resident_kb() - rss_before;
  }
  auto transport = std::make_unique<ServerTransport>(c.rank, comm, std::move(map), settings, std::move(node_server),
                                                     rss_growth_kb);
  MPI_Barrier(c.world);  // every server is listening before anyone sends
  return transport;
}

const char* below_thread_multiple(Config&, std::string& lost) {
  lost += "the inter-node transport is mpi-rma instead of the server transport (lost: the server's unilateral "
          "progress, direct delivery and shared-memory accumulates on the node). ";
  return "mpi-rma";
}

}  // namespace

extern const TransportEntry kServerTransport{
    .name = "server",
    .role = TransportRole::InterNode,
    .summary = "a helper thread per node executes the requests of other nodes' ranks (MPI two-sided)",
    .settings = kSettings,
    .new_settings = new_settings<ServerSettings>,
    .below_thread_multiple = below_thread_multiple,
    .auto_preference = 3,  // where neither rdma nor tcp suits (below MPI_THREAD_MULTIPLE it gives way to mpi-rma)
    .needs_idle_core = true,  // the node server polls MPI for requests
    .start = start_server,
};

TransportCaps ServerTransport::caps() const noexcept {
  TransportCaps c;  // the node server's thread executes every operation: nothing is one-sided
  c.progress_thread = true;
  return c;
}

void ServerTransport::segment_created(const SegmentSpec& spec, std::span<Slice> slices,
                                      std::span<const NodeObjectRef> objects) {
  // Nothing per slice: a member's server maps the segment through its own registry. Only a node
  // server outside the group has no slice of it; the object's creator tells that server where
  // the object is and where each of the node's members maps it, and waits for it to map it, so
  // that no request can reach the server first (allocation ends in a barrier). Origins name
  // only the segment (issue 53: the node object's place was 24 B per member per segment).
  const int leader = map_.target_server(me_);
  if (!spec.created_node_object || spec.group->group_rank(leader) >= 0) return;
  server::AdoptHead head{static_cast<std::int32_t>(getpid()), -1, 0, 0};
  std::vector<server::AdoptMember> members;
  const int my_node = map_.node_of[static_cast<std::size_t>(me_)];
  for (std::size_t i = 0; i < slices.size(); ++i) {
    if (map_.node_of[static_cast<std::size_t>(slices[i].owner)] != my_node) continue;
    head.fd = objects[i].fd;
    head.size = objects[i].size;
    members.push_back({slices[i].owner, slices[i].base - objects[i].offset});
  }
  head.members = members.size();
  server::Header h{};
  h.kind = server::Kind::Adopt;
  h.origin = me_;
  h.segment = spec.id;
  MPI_Send(&h, sizeof h, MPI_BYTE, leader, server::kTagControl, comm_);
  MPI_Send(&head, sizeof head, MPI_BYTE, leader, server::kTagAdopt, comm_);
  MPI_Send(members.data(), static_cast<int>(members.size() * sizeof members[0]), MPI_BYTE, leader, server::kTagAdopt, comm_);
  server::Reply r{};
  MPI_Recv(&r, sizeof r, MPI_BYTE, leader, server::kTagAdopt, comm_, MPI_STATUS_IGNORE);
  if (r.status != server::kOk)
    throw_system(spec.op, "the node server (rank " + std::to_string(leader) + ") could not map the segment's node object of " +
                          std::to_string(head.size) + " bytes (/proc/" + std::to_string(head.pid) + "/fd/" + std::to_string(head.fd) + ")",
                 static_cast<int>(r.value));
}

void ServerTransport::segment_freed(const SegmentSpec& spec) {
  // If this rank created its node's shared object and the node's server is not a member of the
  // segment's group (so it may have mapped the object itself), tell the server to drop that
  // mapping.
  const int leader = map_.target_server(me_);
  if (!spec.created_node_object || spec.group->group_rank(leader) >= 0) return;
  server::Header h{};
  h.kind = server::Kind::Forget;
  h.segment = spec.id;
  MPI_Send(&h, sizeof h, MPI_BYTE, leader, server::kTagControl, comm_);
}

void ServerTransport::describe(int target, TransportInfo& info) const {
  info.route.push_back({"server", std::to_string(map_.target_server(target))});
  info.route.push_back({"direct", direct_to(target) ? "yes" : "no"});
  info.process.push_back({"node_server", node_server_ ? "yes" : "no"});
  info.process.push_back({"cluster", std::to_string(map_.cluster)});
  info.process.push_back({"origin_progress", settings_.origin_progress ? "completer thread" : "none"});
  info.process.push_back({"origin_progress_reason", settings_.origin_progress_reason});
  if (!node_server_) return;
  info.process.push_back({"clients", std::to_string(node_server_->clients())});
  info.process.push_back({"buffer_bytes", std::to_string(node_server_->buffer_bytes())});
  info.process.push_back({"rss_growth_kb", std::to_string(rss_growth_kb_)});
}

}  // namespace armada::rma::detail
