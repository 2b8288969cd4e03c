// init/finalize, node topology and routing of targets to transports.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "armada/rma/runtime.hpp"
#include "common/check.hpp"
#include "common/comm_attribute.hpp"
#include "common/mpi_errors.hpp"
#include "common/stall.hpp"
#include "core/agree.hpp"
#include "core/arrival.hpp"
#include "core/auto_choice.hpp"
#include "core/group_impl.hpp"
#include "core/state.hpp"
#include "transport/base/idle_cpus.hpp"
#include "transport/base/waiting.hpp"
#include "transport/plugin.hpp"

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

void fence_everything(State& s) {
  for (const auto& t : s.routes.started) t->fence_all();
}

void poll_transports(State& s) {
  for (const auto& t : s.routes.started) t->poll();
}

void PollingWait::poll() {
  if (pause_.looks_soon() != announced_) {
    if (announced_) stop();
    else {
      announced_ = true;
      for (const auto& t : s_.routes.started) t->polling(true);
    }
  }
  poll_transports(s_);
}

void PollingWait::stop() noexcept {
  if (!announced_) return;
  announced_ = false;
  for (const auto& t : s_.routes.started) t->polling(false);
}

namespace {
// A rank waiting for an on-node mutex serves meanwhile (NodeMemory::meanwhile): the holder may
// be a rank of another node that needs this process's node server before it unlocks.
void poll_while_locking(void* state) noexcept {
  try {
    poll_transports(*static_cast<State*>(state));
  } catch (...) {  // a poll reports nothing itself: the operations it progressed report at their waits
  }
}
}  // namespace

void wait_polling(MPI_Request& request, const char* op, StallHook on_stall, const void* context) {
  // A failed collective (ranks in different calls: MPI_ERR_TRUNCATE) reports here, in the return
  // code (Open MPI 4.1 calls no error handler for a nonblocking collective's request): raise it.
  constexpr const char* what = "MPI error inside the collective (are the ranks in different calls?)";
  State* s = g_state;
  if (!s || (s->routes.started.empty() && !on_stall)) {
    check_mpi(op, what, MPI_Wait(&request, MPI_STATUS_IGNORE));
    return;
  }
  StallWatch stall(on_stall ? s->config.stall_warn_s : 0);
  // Spin as MPI's blocking collectives do, then yield, then sleep: where threads outnumber
  // cores, the thread this collective waits for may need this core, and a member that computes
  // for seconds before it arrives must not cost the others a core each.
  PollPause pause(kWaitSleepMaxNs, s->config.spin_limit);
  PollingWait polls(*s, pause);
  for (;;) {
    int done = 0;
    check_mpi(op, what, MPI_Test(&request, &done, MPI_STATUS_IGNORE));
    if (done) return;
    polls.poll();
    if (stall.due()) on_stall(context, stall.seconds());
    pause.pause();
  }
}

namespace {
int free_private_duplicate(MPI_Comm, int, void* value, void*) {
  auto* dup = static_cast<MPI_Comm*>(value);
  MPI_Comm_free(dup);
  delete dup;
  return MPI_SUCCESS;
}
}  // namespace

MPI_Comm private_duplicate(MPI_Comm comm) {
  static const CommAttribute<MPI_Comm> attribute(free_private_duplicate);
  return attribute.get_or_make(comm, [&] {
    auto* dup = new MPI_Comm(MPI_COMM_NULL);
    MPI_Comm_dup(comm, dup);
    return dup;
  });
}

// Over the world and large groups, Bruck's algorithm on the private duplicate: Open MPI 4.1's
// MPI_Iallgather (libnbc's linear algorithm) sends to and receives from every member, so each
// rank would hold the MPI library's per-peer state (a shared-memory peer's mapped segment, a TCP
// connection or a UCX endpoint) for every member after init and every allocation: 60-70 KiB of
// RSS per on-host peer measured here (docs/scaling.md), a connection per rank at scale. Bruck
// contacts 2 log2 P members.
void allgather_polling(const char* op, const void* send, int count, MPI_Datatype type, void* recv, MPI_Comm comm) {
  const State* s = g_state;
  int item = 0, members = 0;
  MPI_Type_size(type, &item);
  MPI_Comm_size(comm, &members);
  const auto bytes = static_cast<std::size_t>(count) * static_cast<std::size_t>(item);
  const bool large = s && (comm == s->world || members > kLinearAllgatherMost);
  if (large && bytes * static_cast<std::size_t>(members) <= static_cast<std::size_t>(INT_MAX)) {
    bruck_allgather_polling(op, send, bytes, recv, private_duplicate(comm));
    return;
  }
  MPI_Request request;
  MPI_Iallgather(send, count, type, recv, count, type, comm, &request);
  wait_polling(request, op);
}

void bruck_allgather_polling(const char* op, const void* send, std::size_t bytes, void* recv, MPI_Comm comm) {
  int members = 0, me = 0;
  MPI_Comm_size(comm, &members);
  MPI_Comm_rank(comm, &me);
  const auto p = static_cast<std::size_t>(members);
  // `held` holds the blocks of members me, me + 1, ... (mod P), `have` of them so far; each round
  // sends the first min(have, P - have) to me - have and receives as many from me + have.
  std::vector<std::byte> held(bytes * p);
  std::memcpy(held.data(), send, bytes);
  for (int have = 1, round = 0; have < members; ++round) {
    const int n = std::min(have, members - have);
    const int count = static_cast<int>(bytes) * n;
    MPI_Request exchange[2];
    MPI_Irecv(held.data() + bytes * static_cast<std::size_t>(have), count, MPI_BYTE, (me + have) % members, round, comm,
              &exchange[0]);
    MPI_Isend(held.data(), count, MPI_BYTE, (me - have + members) % members, round, comm, &exchange[1]);
    wait_polling(exchange[0], op);
    wait_polling(exchange[1], op);
    have += n;
  }
  for (std::size_t i = 0; i < p; ++i)
    std::memcpy(static_cast<std::byte*>(recv) + bytes * ((static_cast<std::size_t>(me) + i) % p), held.data() + bytes * i,
                bytes);
}

void allreduce_polling(const char* op, void* data, int count, MPI_Datatype type, MPI_Op reduce, MPI_Comm comm) {
  MPI_Request request;
  MPI_Iallreduce(MPI_IN_PLACE, data, count, type, reduce, comm, &request);
  wait_polling(request, op);
}

void bcast_polling(const char* op, void* data, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  MPI_Request request;
  MPI_Ibcast(data, count, type, root, comm, &request);
  wait_polling(request, op);
}

void barrier_polling(const char* op, MPI_Comm comm) {
  MPI_Request request;
  MPI_Ibarrier(comm, &request);
  wait_polling(request, op);
}

void build_routes(Routes& routes, const std::vector<int>& node_of, int my_rank) {
  const bool inter_takes_atomics = routes.inter && routes.inter->caps().exclusive_atomics;
  Transport* on_node = inter_takes_atomics ? routes.inter : routes.node;
  routes.primary.assign(node_of.size(), nullptr);
  for (std::size_t r = 0; r < node_of.size(); ++r)
    routes.primary[r] = node_of[r] == node_of[static_cast<std::size_t>(my_rank)] ? on_node : routes.inter;
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

// Each host's name, once (its lowest world rank sends it), for messages about other ranks (a
// stalled wait names their hosts). Truncated to kHostNameBytes - 1 characters: enough to tell
// hosts apart. The exchange and the table grow with the hosts, not the ranks (docs/scaling.md).
std::vector<std::pair<int, std::string>> gather_host_names(MPI_Comm world, int rank, const std::vector<int>& host_of) {
  constexpr int kHostNameBytes = 64;
  char full[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(full, &length);
  char mine[kHostNameBytes] = {};
  std::memcpy(mine, full, static_cast<std::size_t>(std::min(length, kHostNameBytes - 1)));
  std::vector<int> counts(host_of.size()), displs(host_of.size());
  std::vector<int> leaders;
  for (std::size_t r = 0; r < host_of.size(); ++r) {
    const bool leader = host_of[r] == static_cast<int>(r);
    counts[r] = leader ? kHostNameBytes : 0;
    displs[r] = static_cast<int>(leaders.size()) * kHostNameBytes;
    if (leader) leaders.push_back(static_cast<int>(r));
  }
  std::vector<char> all(leaders.size() * kHostNameBytes);
  MPI_Allgatherv(mine, counts[static_cast<std::size_t>(rank)], MPI_CHAR, all.data(), counts.data(), displs.data(),
                 MPI_CHAR, world);
  std::vector<std::pair<int, std::string>> names;
  for (std::size_t h = 0; h < leaders.size(); ++h) names.emplace_back(leaders[h], all.data() + h * kHostNameBytes);
  return names;
}

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
  t.host_names = gather_host_names(world, rank, t.host_of);
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

const char* thread_level_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    default: return "MPI_THREAD_MULTIPLE";
  }
}

// A program that started MPI itself below MPI_THREAD_MULTIPLE (plain MPI_Init, as ARMCI and
// Global Arrays programs do) allows no helper thread to call MPI. Each transport says, in its
// entry's below_thread_multiple rule, what runs instead (the server transport gives way to
// mpi-rma, which runs without its progress thread); rank 0 says once what is lost and how to get
// it back. The effective settings replace the configured ones in s.config, so config(),
// ARMADA_VERBOSE and armada-info show what runs.
void adapt_to_thread_level(State& s) {
  int provided = 0;
  MPI_Query_thread(&provided);
  if (provided >= MPI_THREAD_MULTIPLE || s.topology.members.size() < 2) return;
  std::string lost;
  for (std::size_t hop = 0; hop <= transport_entries().size(); ++hop) {  // each rule at most once
    const TransportEntry* entry = find_transport(s.config.transport);
    if (!entry || !entry->below_thread_multiple) break;
    const char* instead = entry->below_thread_multiple(s.config, lost);
    if (!instead) break;
    s.config.transport = instead;
    s.config.values.insert_or_assign("ARMADA_TRANSPORT", instead);
  }
  if (lost.empty() || s.rank != 0) return;
  std::fprintf(stderr,
               "armada::rma: warning: MPI runs at %s, so no helper thread may call MPI: %sTo get it back, initialize "
               "MPI with MPI_Init_thread(MPI_THREAD_MULTIPLE) (docs/rma.md, thread levels).\n",
               thread_level_name(provided), lost.c_str());
}

// Whether `local` holds on every rank (collective over the world).
bool on_every_rank(MPI_Comm world, bool local) {
  int all = local ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MIN, world);
  return all == 1;
}

// Starts `entry`'s transport with its settings struct filled from its rows. Collective.
std::unique_ptr<Transport> start_transport(const TransportEntry& entry, TransportContext context) {
  std::shared_ptr<void> settings = entry.new_settings ? entry.new_settings() : nullptr;
  if (settings) fill_settings(entry.settings, context.config, settings.get());
  context.settings = settings.get();
  std::unique_ptr<Transport> t = entry.start(context);
  t->set_name(entry.name);
  return t;
}

void install(State& s, const TransportEntry& entry, std::unique_ptr<Transport> t) {
  (entry.role == TransportRole::NodeMemory ? s.routes.node : s.routes.inter) = t.get();
  s.routes.started.push_back(std::move(t));
}

int ranks_on_my_host(const State& s) {
  return static_cast<int>(std::ranges::count(s.topology.host_of, s.topology.host_of[static_cast<std::size_t>(s.rank)]));
}

// The cores of this rank's host that the load rules count: ARMADA_AUTO_CORES, else the online ones.
int host_cores(const State& s) {
  const long cores = s.config.integer("ARMADA_AUTO_CORES");
  return cores > 0 ? static_cast<int>(cores) : static_cast<int>(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
}

// The load of the host that decides (HostLoad::severity; the same on every rank; collective).
// One rank per host samples (its lowest) while every other rank of the job sleeps, so the
// running threads counted are other processes' (a busy neighbour), not the job's: the third
// lowest of 8 samples about 1 ms apart, after 2 ms for the ranks to fall asleep. A neighbour that
// computes runs in every sample; a low quantile ignores what runs in a few (a launcher's
// thread; ranks that wake when a sampler overruns its sleep on a loaded host, seen in the last
// samples on the emulated cluster). The samplers' gaps are jittered:
// hosts emulated on one machine would otherwise wake together and count each other.
HostLoad busiest_host_load(const State& s) {
  constexpr int kSamples = 8;
  constexpr auto kSettle = std::chrono::milliseconds(2);
  constexpr auto kGap = std::chrono::microseconds(1000);
  HostLoad mine;
  const int host = s.topology.host_of[static_cast<std::size_t>(s.rank)];
  const bool sampler = host == s.rank;
  mine.ranks = ranks_on_my_host(s);
  mine.cores = host_cores(s);
  const long others = s.config.integer("ARMADA_AUTO_OTHERS");  // >= 0: given, nothing to sample
  int samples[kSamples] = {};
  MPI_Barrier(s.world);
  if (others < 0) {
    std::this_thread::sleep_for(kSettle);
    if (sampler) {
      std::minstd_rand jitter(static_cast<unsigned>(s.rank) + 1);
      for (int& v : samples) {
        v = others_running_now();
        std::this_thread::sleep_for(kGap / 2 + kGap * static_cast<int>(jitter() % 1000) / 1000);
      }
    } else {
      std::this_thread::sleep_for(kGap * (kSamples + 4));  // through the samplers' window, and a margin
    }
    std::ranges::sort(samples);
  }
  mine.others_running = others >= 0 ? static_cast<int>(others) : std::max(0, samples[2]);
  struct {
    int severity, rank;
  } worst{sampler ? mine.severity() : std::numeric_limits<int>::min(), s.rank};
  MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_2INT, MPI_MAXLOC, s.world);
  int load[3] = {mine.ranks, mine.cores, mine.others_running};
  MPI_Bcast(load, 3, MPI_INT, worst.rank, s.world);
  return {load[0], load[1], load[2]};
}

// Makes `entry` the configured transport; returns what runs (below MPI_THREAD_MULTIPLE the
// server gives way to mpi-rma).
const TransportEntry& configure(State& s, const TransportEntry& entry) {
  s.config.transport = entry.name;
  s.config.values.insert_or_assign("ARMADA_TRANSPORT", entry.name);
  adapt_to_thread_level(s);
  return *find_transport(s.config.transport);
}

// ARMADA_TRANSPORT=auto, the default: the entries with an auto_preference, best first (rdma, tcp,
// then server), each kept if it can start and suits the job on every rank; the last is kept
// whatever it says, unless it needs an idle core and a host has none: then the first before it
// that started runs though it does not suit (choose_auto, core/auto_choice.hpp). The rule and the
// measurements behind it: docs/rma.md, "The default inter-node transport". Adapting to the
// thread level turns server into mpi-rma below MPI_THREAD_MULTIPLE.
void start_auto(State& s, const TransportContext& context) {
  std::vector<const TransportEntry*> candidates;
  for (const TransportEntry* entry : transport_entries())
    if (entry->auto_preference > 0) candidates.push_back(entry);
  std::ranges::sort(candidates, {}, &TransportEntry::auto_preference);
  std::vector<AutoCandidate> facts;
  std::unique_ptr<Transport> kept;  // the first that started but does not suit, while the rest are tried
  const TransportEntry* kept_entry = nullptr;
  const auto decide = [&](const TransportEntry& chosen, std::unique_ptr<Transport> t, const std::string& why) {
    s.config.transport = chosen.name;  // adapted already (configure)
    s.config.values.insert_or_assign("ARMADA_TRANSPORT", chosen.name);
    s.transport_choice = std::string(chosen.name) + " (ARMADA_TRANSPORT=auto: " + why + ")";
    install(s, chosen, std::move(t));
  };
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const TransportEntry& entry = *candidates[i];
    const bool last = i + 1 == candidates.size();
    AutoCandidate f;
    f.name = entry.name;
    const std::string missing = entry.unavailable ? entry.unavailable(s.config) : std::string();
    f.starts = on_every_rank(s.world, missing.empty()) || last;  // the fallback is kept whatever it says
    if (!f.starts) {
      f.why = missing.empty() ? "not on another rank" : missing;
      facts.push_back(f);
      continue;
    }
    const TransportEntry& runs = configure(s, entry);
    f.needs_idle_core = runs.needs_idle_core;
    if (last) {  // it runs unless the load says otherwise
      facts.push_back(f);
      std::optional<HostLoad> load;
      if (kept && auto_needs_load(facts)) load = busiest_host_load(s);
      AutoDecision d = choose_auto(facts, load);
      if (d.index != i && kept) return decide(*kept_entry, std::move(kept), d.why);
      kept.reset();  // collective, like its start
      if (&runs != &entry) d.why += "; " + f.name + " gives way to " + runs.name + " below MPI_THREAD_MULTIPLE";
      return decide(runs, start_transport(runs, context), d.why);
    }
    std::unique_ptr<Transport> t = start_transport(runs, context);
    std::string why;
    const bool suits = t->suits_as_default(why);
    f.suits = on_every_rank(s.world, suits);
    f.why = suits && !f.suits ? "another rank says so" : why;
    facts.push_back(f);
    if (f.suits) return decide(runs, std::move(t), choose_auto(facts, {}).why);
    if (!kept) {
      kept = std::move(t);
      kept_entry = &runs;
    } else {
      t.reset();  // collective, like the start
    }
  }
}

// The node-memory transport on every rank; with several nodes, the configured inter-node one
// (or auto's choice). Both start collectively (every rank starts the same transports in the
// same order).
void start_transports(State& s, const std::string& configured) {
  const TransportContext context{s.world, s.rank, s.size, s.config, s.topology, s.node_comm, *s.registry,
                                 *s.node_memory};
  const bool several_nodes = s.topology.members.size() > 1;
  for (const TransportEntry* entry : transport_entries())
    if (entry->role == TransportRole::NodeMemory) install(s, *entry, start_transport(*entry, context));
  if (!several_nodes) {
    s.transport_choice = "none (one node: shared memory reaches every rank)";
  } else if (s.config.transport == "auto") {
    start_auto(s, context);
  } else if (const TransportEntry* entry = find_transport(s.config.transport)) {
    install(s, *entry, start_transport(*entry, context));
    s.transport_choice = s.config.transport + " (ARMADA_TRANSPORT=" + configured +
                         (configured == s.config.transport ? ")" : ", below MPI_THREAD_MULTIPLE)");
  } else {
    s.transport_choice = "none (ARMADA_TRANSPORT=none: operations to other nodes fail)";
  }
  build_routes(s.routes, s.topology.node_of, s.rank);
}

void print_configuration(const State& s) {
  std::printf("armada::rma: %d ranks on %zu node(s)%s\n", s.size, s.topology.members.size(),
              s.config.node_size > 0 ? " (virtual nodes)" : "");
  for (std::size_t n = 0; n < s.topology.members.size(); ++n) {
    std::printf("  node %zu:", n);
    for (int r : s.topology.members[n]) std::printf(" %d", r);
    std::printf("\n");
  }
  for (const auto& t : s.routes.started)
    if (const TransportEntry* entry = find_transport(t->name()))
      std::printf("  transport %s: %s\n", entry->name, entry->summary);
  std::printf("  inter-node transport: %s\n", s.transport_choice.c_str());
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
  world->world_size = s->size;
  world->is_world = true;
  s->world_group = Group(std::move(world));

  // Resolved before anything waits: every wait of the library spins this many rounds.
  s->config.spin_limit = spin_rounds_for(s->config.spin_limit, ranks_on_my_host(*s), host_cores(*s));
  s->registry = std::make_unique<Registry>(s->size);
  s->arena = std::make_unique<SymmetricArena>("rma::init", s->world,
                                              static_cast<std::size_t>(s->config.integer("ARMADA_SYMMETRIC_GIB")) << 30);
  s->node_memory = std::make_unique<NodeMemory>("rma::init", s->node_comm, s->config.spin_limit);
  const std::string configured = s->config.transport;
  adapt_to_thread_level(*s);  // auto adapts its own choice
  start_transports(*s, configured);
  if (s->routes.inter) s->node_memory->set_meanwhile({poll_while_locking, s.get()});  // a node to serve

  if (s->config.verbose && s->rank == 0) print_configuration(*s);
  if (s->rank == 0) warn_unknown_settings();
  set_message_rank(s->rank);
  g_state = s.release();
  // Needs the runtime (an allocation like any other). Its failure is agreed, so every rank goes
  // on without the slots alike: a stalled collective then warns without names (core/arrival.hpp).
  try {
    open_arrivals();
  } catch (const std::exception&) {
  }
}

}  // namespace
}  // namespace detail

using detail::g_state;

void prepare_mpi_environment() {
  for (const detail::TransportEntry* entry : detail::transport_entries())
    if (entry->before_mpi_init) entry->before_mpi_init();
}

std::span<const RegisteredTransport> transports() noexcept {
  static const std::vector<RegisteredTransport> list = [] {
    std::vector<RegisteredTransport> l;
    for (const detail::TransportEntry* e : detail::transport_entries())
      l.push_back({e->name, e->role == detail::TransportRole::InterNode, e->summary, e->library_variables,
                   e->library_variables_meaning});
    return l;
  }();
  return list;
}

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
    // MPI reads some of its settings from the environment at MPI_Init (Open MPI's MCA): this
    // is the configured transport's last moment to set them (mpi-rma chooses osc components).
    const char* configured = std::getenv("ARMADA_TRANSPORT");
    if (const detail::TransportEntry* entry = detail::find_transport(configured ? configured : "");
        entry && entry->before_mpi_init)
      entry->before_mpi_init();
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

namespace {
template <class Start>
void start_or_exit(const char* program, Start&& start) {
  try {
    start();
  } catch (const std::exception& e) {
    int initialized = 0, finalized = 0, rank = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    if (initialized && !finalized) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) std::fprintf(stderr, "%s: %s\n", program, e.what());
    if (initialized && !finalized) MPI_Finalize();
    std::exit(exit_bad_settings);
  }
}
}  // namespace

void init_or_exit(const char* program, int* argc, char*** argv) {
  start_or_exit(program, [&] { init(argc, argv); });
}
void init_or_exit(const char* program, MPI_Comm comm) {
  start_or_exit(program, [&] { init(comm); });
}

namespace {
// After an error escaped run_main's body on this rank: true when every rank of the world reports
// one within run_main_error_wait seconds (on `errors`, a communicator nothing else uses, so only
// another rank's error path can match this barrier).
bool every_rank_failed(MPI_Comm errors) {
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Ibarrier(errors, &request);
  const double deadline = MPI_Wtime() + run_main_error_wait;
  int done = 0;
  while (!done && MPI_Wtime() < deadline) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (!done) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return done != 0;  // an unfinished request is left to MPI_Abort
}
}  // namespace

int run_main(const char* program, int* argc, char*** argv, const std::function<int()>& body) {
  init_or_exit(program, argc, argv);
  MPI_Comm errors = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &errors);
  try {
    const int code = body();
    MPI_Comm_free(&errors);
    finalize();
    return code;
  } catch (const std::exception& e) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const std::string prefix = detail::rank_prefix(rank);
    const bool ranked = std::string_view(e.what()).starts_with(prefix);  // Armada's errors name the rank
    std::fprintf(stderr, "%s: %s%s\n", program, ranked ? "" : prefix.c_str(), e.what());
    std::fflush(stderr);
    if (!every_rank_failed(errors)) MPI_Abort(MPI_COMM_WORLD, exit_error);
    MPI_Comm_free(&errors);
    try {
      finalize();
    } catch (const std::exception&) {  // the error left the runtime unusable: MPI alone
      int finalized = 0;
      MPI_Finalized(&finalized);
      if (!finalized) MPI_Finalize();
    }
    return exit_error;
  }
}

void finalize() {
  auto& s = detail::state("rma::finalize");
  detail::fence_everything(s);
  // Nobody unmaps memory another rank may still be writing. The barrier is an agreement, as
  // every collective's opening is: a member still in another collective call is named, and this
  // call fails on every member (the runtime stays up) instead of meeting that call's MPI
  // collective.
  detail::agree_on("rma::finalize", s.world, nullptr);
  detail::close_arrivals();  // its segment goes with the others below
  const bool owns = s.owns_mpi;
  {
    std::unique_ptr<detail::State> doomed(g_state);
    g_state = nullptr;
    detail::set_message_rank(-1);
    // Everyone has fenced and passed the barrier: nothing is in flight. Stop the transports,
    // last started first (their helper threads, windows, endpoints), before segment memory goes.
    doomed->node_memory->set_meanwhile({});
    while (!doomed->routes.started.empty()) doomed->routes.started.pop_back();
    doomed->segments.clear();
    doomed->world_group = Group(nullptr);
    MPI_Comm_free(&doomed->node_comm);
    MPI_Comm_free(&doomed->world);  // and its private duplicate (private_duplicate's attribute)
  }
  if (owns) MPI_Finalize();
}

bool initialized() noexcept { return g_state != nullptr; }

const std::string* TransportInfo::find(std::string_view key) const {
  for (const auto* facts : {&route, &process})
    for (const TransportFact& f : *facts)
      if (f.key == key) return &f.value;
  return nullptr;
}

TransportInfo transport_info(int target) {
  constexpr const char* op = "rma::transport_info";
  auto& s = detail::state(op);
  detail::check_rank(op, "target", s, target);
  TransportInfo info;
  const detail::Transport* t = s.routes.primary[static_cast<std::size_t>(target)];
  if (!t) return info;
  info.name = t->name();
  info.caps = t->caps();
  t->describe(target, info);
  return info;
}

const char* transport_name(int target) {
  auto& s = detail::state("rma::transport_name");
  detail::check_rank("rma::transport_name", "target", s, target);
  const detail::Transport* t = s.routes.primary[static_cast<std::size_t>(target)];
  return t ? t->name() : "none";
}

std::string transport_choice() { return detail::state("rma::transport_choice").transport_choice; }

std::string symmetric_arena() {
  const detail::SymmetricArena& arena = *detail::state("rma::symmetric_arena").arena;
  if (!arena.on()) return arena.reason();
  return "on: " + std::to_string(arena.size() >> 30) + " GiB reserved at " + detail::to_hex(arena.base()) +
         " on every rank (a segment lies at one offset on every member)";
}

bool server_direct(int target) {
  const TransportInfo info = transport_info(target);
  const std::string* direct = info.find("direct");
  return direct && *direct == "yes";
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
