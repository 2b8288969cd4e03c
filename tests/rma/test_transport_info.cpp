// transport_info(target): what reaches each rank and how, for every transport configuration; and
// the settings table as the one source of defaults (Config's defaults, its by-name reads).
#include <gtest/gtest.h>
#include <sched.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "test_util.hpp"

namespace armada::rma {
namespace {

using test::expect_error;
using test::Segment;

// The inter-node transport in use, or "" on one node (config() shows the effective one, after
// any thread-level fallback).
std::string inter_node() { return node_count() > 1 ? config().transport : ""; }

// Whether on-node targets go to the inter-node transport: it declares exclusive_atomics (read
// from a target on another node).
bool inter_node_takes_on_node_targets() {
  for (int r = 0; r < size(); ++r)
    if (!same_node(rank(), r)) return transport_info(r).caps.exclusive_atomics;
  return false;
}

TEST(TransportInfo, NameIsTheRoutedTransport) {
  for (int r = 0; r < size(); ++r) {
    const TransportInfo info = transport_info(r);
    EXPECT_EQ(info.name, transport_name(r)) << "rank " << r;
    // A transport that declares exclusive_atomics takes on-node targets too.
    std::string expected = inter_node() == "none" ? "none" : inter_node();
    if (same_node(rank(), r) && !inter_node_takes_on_node_targets()) expected = "shm";
    EXPECT_EQ(info.name, expected) << "rank " << r;
  }
}

TEST(TransportInfo, CapabilitiesFollowTheTransport) {
  for (int r = 0; r < size(); ++r) {
    const TransportInfo info = transport_info(r);
    if (info.name == "shm") {
      // Load/store on the node's shared memory: everything one-sided, no thread.
      EXPECT_TRUE(info.caps.put_get_one_sided && info.caps.acc_one_sided && info.caps.rmw_one_sided && info.caps.mutex_one_sided);
      EXPECT_FALSE(info.caps.progress_thread || info.caps.exclusive_atomics);
      EXPECT_TRUE(info.route.empty() && info.process.empty());
    } else if (info.name == "server") {
      // The node server's thread executes every operation.
      EXPECT_FALSE(info.caps.put_get_one_sided || info.caps.acc_one_sided || info.caps.rmw_one_sided || info.caps.mutex_one_sided);
      EXPECT_TRUE(info.caps.progress_thread);
      EXPECT_FALSE(info.caps.exclusive_atomics);  // it executes them under the node's stripe locks
    } else if (info.name == "mpi-rma") {
      EXPECT_TRUE(info.caps.put_get_one_sided && info.caps.acc_one_sided && info.caps.rmw_one_sided && info.caps.mutex_one_sided);
      EXPECT_EQ(info.caps.progress_thread, config().flag("ARMADA_MPI_PROGRESS"));
      EXPECT_TRUE(info.caps.exclusive_atomics);  // MPI's atomics are atomic only with MPI's
      ASSERT_NE(info.find("memory"), nullptr);
      EXPECT_EQ(*info.find("memory"), config().text("ARMADA_MPI_MEMORY"));
    } else if (info.name == "rdma") {
      // UCX moves data and does atomics (one-sided unless UCX emulates: both or neither, by the
      // probe); the request service thread adds and queues mutexes.
      EXPECT_EQ(info.caps.put_get_one_sided, info.caps.rmw_one_sided);
      EXPECT_FALSE(info.caps.acc_one_sided || info.caps.mutex_one_sided);
      EXPECT_TRUE(info.caps.progress_thread);
      EXPECT_TRUE(info.caps.exclusive_atomics);  // UCX's atomics are atomic only with UCX's
      EXPECT_NE(info.find("ucx"), nullptr);
      EXPECT_NE(info.find("origin_progress"), nullptr);
    } else if (info.name == "tcp") {
      // The target's service thread runs every operation, under the node's stripe locks and
      // hardware atomics (NodeMemory), as the server's does.
      EXPECT_FALSE(info.caps.put_get_one_sided || info.caps.acc_one_sided || info.caps.rmw_one_sided || info.caps.mutex_one_sided);
      EXPECT_TRUE(info.caps.progress_thread);
      EXPECT_FALSE(info.caps.exclusive_atomics);
      EXPECT_NE(info.find("address"), nullptr);
      EXPECT_NE(info.find("listening"), nullptr);
    } else {
      EXPECT_EQ(info.name, "none");
      EXPECT_TRUE(info.route.empty() && info.process.empty());
    }
  }
}

// tcp: a rank's first operation on another node's rank opens a connection unless that rank opened
// one to it first (init only exchanges addresses; a pair's connection serves both ways), and the
// target runs what comes in on it.
TEST(TransportInfo, TcpConnectsOnFirstContactAndItsServiceRunsTheFrames) {
  if (inter_node() != "tcp") GTEST_SKIP() << "the tcp transport's facts; it does not run here";
  int other = -1, others = 0;  // a rank on another node (tcp's process facts), and how many
  for (int r = 0; r < size(); ++r)
    if (!same_node(rank(), r)) {
      other = other < 0 ? r : other;
      ++others;
    }
  const auto process_fact = [&](const char* key) { return std::stol(*transport_info(other).find(key)); };
  Segment data(64);
  const long served_before = process_fact("frames_served");
  barrier();
  const int next = (rank() + 1) % size(), prev = (rank() + size() - 1) % size();
  if (!same_node(rank(), next)) {
    long value = 1000 + rank();
    put(&value, data.base(next), sizeof value, next);
    fence(next);
    ASSERT_NE(transport_info(next).find("connected"), nullptr);
    EXPECT_EQ(*transport_info(next).find("connected"), "yes");
  }
  barrier();
  if (!same_node(rank(), prev)) {
    EXPECT_EQ(*data.local<long>(), 1000 + prev);
    EXPECT_GE(process_fact("frames_served"), served_before + 2);  // at least the put and its Ack
    EXPECT_GE(process_fact("connections_in") + process_fact("connections_out"), 1);  // the one prev's put came by
  }
  // Never one to a rank of its own node; one per pair (two only when both open at the same moment).
  EXPECT_LE(process_fact("connections_out"), others);
  EXPECT_LE(process_fact("connections_in"), others);
}

TEST(TransportInfo, ServerFactsNameTheServerAndItsCosts) {
  for (int r = 0; r < size(); ++r) {
    const TransportInfo info = transport_info(r);
    if (info.name != "server") continue;
    // The target's node server is the first rank of its node.
    ASSERT_NE(info.find("server"), nullptr);
    EXPECT_EQ(*info.find("server"), std::to_string(node_ranks(node_of(r)).front())) << "rank " << r;
    ASSERT_NE(info.find("direct"), nullptr);
    // Every configuration here runs on one host: direct delivery is what ARMADA_SERVER_DIRECT
    // says ("on" would have failed at init if the kernel refused; "auto" may fall back).
    if (const std::string& setting = config().text("ARMADA_SERVER_DIRECT"); setting != "auto") {
      EXPECT_EQ(*info.find("direct"), setting == "on" ? "yes" : "no") << "rank " << r;
    }
    EXPECT_EQ(server_direct(r), *info.find("direct") == "yes");
    // This rank runs a node server iff it is its node's first rank; then it has clients and buffers.
    const bool runs_one = node_ranks(node_of(rank())).front() == rank();
    ASSERT_NE(info.find("node_server"), nullptr);
    EXPECT_EQ(*info.find("node_server"), runs_one ? "yes" : "no");
    if (runs_one) {
      ASSERT_NE(info.find("clients"), nullptr);
      EXPECT_GT(std::stol(*info.find("clients")), 0);
      ASSERT_NE(info.find("buffer_bytes"), nullptr);
      EXPECT_GE(std::stol(*info.find("buffer_bytes")), 2L * config().integer("ARMADA_SERVER_CHUNK"));
      EXPECT_NE(info.find("rss_growth_kb"), nullptr);
    } else {
      EXPECT_EQ(info.find("clients"), nullptr);
    }
    // The completer thread: as ARMADA_SERVER_ORIGIN_PROGRESS says, or under 'auto' only where
    // the host (here all of the job) leaves a core beyond its ranks and node servers.
    ASSERT_NE(info.find("origin_progress"), nullptr);
    ASSERT_NE(info.find("origin_progress_reason"), nullptr);
    const std::string setting = config().text("ARMADA_SERVER_ORIGIN_PROGRESS");
    bool expected = setting == "1" || setting == "on" || setting == "true" || setting == "yes";
    if (setting == "auto") {
      cpu_set_t cpus;
      CPU_ZERO(&cpus);
      ASSERT_EQ(sched_getaffinity(0, sizeof cpus, &cpus), 0);
      expected = CPU_COUNT(&cpus) > size() + node_count();
      EXPECT_NE(info.find("origin_progress_reason")->find(std::to_string(size()) + " ranks and " +
                                                          std::to_string(node_count()) + " node servers"),
                std::string::npos)
          << *info.find("origin_progress_reason");
    }
    EXPECT_EQ(*info.find("origin_progress"), expected ? "completer thread" : "none")
        << "ARMADA_SERVER_ORIGIN_PROGRESS=" << setting << ": " << *info.find("origin_progress_reason");
  }
}

TEST(TransportInfo, NoServerDirectWithoutTheServer) {
  for (int r = 0; r < size(); ++r)
    if (transport_info(r).name != "server") {
      EXPECT_FALSE(server_direct(r)) << "rank " << r;
    }
}

// The transports' table (cmake/ArmadaTransports.cmake) says what each configuration's transport
// can do, and tests choose their configurations by it (REQUIRES one_sided_atomics, ...): the
// library's own account of the transport (to another node's rank; on one node, to this rank's
// node) must say the same. The matrix's rows carry the table's words in
// ARMADA_TEST_TRANSPORT_CAPABILITIES.
TEST(TransportInfo, CapabilitiesAgreeWithTheTable) {
  const char* words = std::getenv("ARMADA_TEST_TRANSPORT_CAPABILITIES");
  if (!words) GTEST_SKIP() << "not a row of the transport configurations";
  const std::string table = std::string(",") + words + ",";
  auto declared = [&](const char* word) { return table.find(std::string(",") + word + ",") != std::string::npos; };
  int target = -1;
  for (int r = 0; r < size() && target < 0; ++r)
    if (same_node(rank(), r) == declared("node_memory")) target = r;
  ASSERT_GE(target, 0) << "no rank the configuration's transport reaches (" << words << ")";
  const TransportInfo info = transport_info(target);
  SCOPED_TRACE(info.name + ": " + words);
  EXPECT_EQ(info.name == "shm", declared("node_memory"));
  for (const RegisteredTransport& t : transports()) {
    if (info.name == t.name) {
      EXPECT_EQ(t.inter_node, declared("crosses_hosts"));
    }
  }
  EXPECT_EQ(info.caps.rmw_one_sided, declared("one_sided_atomics"));
  EXPECT_EQ(info.caps.exclusive_atomics, declared("exclusive_atomics"));
  if (declared("helper_thread")) {
    EXPECT_TRUE(info.caps.progress_thread);
  }
}

// The inter-node transport and why: ARMADA_TRANSPORT=auto's decision (rows *.auto.* set
// ARMADA_TEST_EXPECT_TRANSPORT to what this machine must choose), or the setting.
TEST(TransportInfo, ChoiceNamesTheTransportAndWhy) {
  const std::string choice = transport_choice();
  SCOPED_TRACE(choice);
  if (node_count() == 1) {
    EXPECT_TRUE(choice.starts_with("none (one node")) << choice;
    return;
  }
  EXPECT_TRUE(choice.starts_with(config().transport + " (")) << "config().transport " << config().transport;
  const char* setting = std::getenv("ARMADA_TRANSPORT");
  if (setting) {
    EXPECT_NE(choice.find(std::string("ARMADA_TRANSPORT=") + setting), std::string::npos);
  } else {
    EXPECT_NE(choice.find("ARMADA_TRANSPORT=auto: "), std::string::npos);
  }
  if (const char* expected = std::getenv("ARMADA_TEST_EXPECT_TRANSPORT")) {
    // rdma chosen: UCX one-sided to every rank of another node; left behind: the reason.
    // tcp: UCX only emulates and no host has a fabric device.
    // rdma-busy: rdma though it emulates, as tcp cannot start and other processes take a host's last core.
    // server-full: the server on a host its own ranks fill (they serve while they wait).
    const std::string want = expected;
    EXPECT_EQ(config().transport, want.substr(0, want.find('-')));
    const auto says = [&](const std::string& words) { return choice.find(words) != std::string::npos; };
    EXPECT_TRUE(want != "rdma" || says("one-sided"));
    EXPECT_TRUE(want == "rdma" || want == "tcp" || says("rdma does not suit: "));  // (tcp: also without UCX)
    EXPECT_TRUE(want != "tcp" || says("no fabric device on the hosts"));
    EXPECT_TRUE(want == "rdma" || want == "tcp" ||
                says("tcp cannot start: rma::init (tcp availability): argument 'ARMADA_TCP_IF' = 'armada-no-such0'"));
    EXPECT_TRUE(want != "rdma-busy" ||
                says("other processes take a host's last (2 ranks and 1 other running thread on 2 cores)"));
    EXPECT_TRUE(want != "server" || says("every host has an idle core"));
    EXPECT_TRUE(want != "server-full" ||
                says("the job's own ranks fill the busiest host (2 ranks and 0 other running threads on 2 cores)"));
  }
  // The same on every rank.
  const int length = static_cast<int>(choice.size());
  int longest = length;
  MPI_Allreduce(MPI_IN_PLACE, &longest, 1, MPI_INT, MPI_MAX, world_comm());
  EXPECT_EQ(length, longest);
}

TEST(TransportInfo, BadRankIsAnError) {
  expect_error<InvalidArgument>([] { transport_info(size()); }, {"rma::transport_info", "'target'"});
  expect_error<InvalidArgument>([] { transport_info(-1); }, {"rma::transport_info", "'target'"});
}

TEST(SettingsTable, ConfigDefaultsAreTheTableDefaults) {
  const Config defaults;
  for (const Setting& s : settings()) {
    EXPECT_EQ(defaults.text(s.name), s.default_value) << s.name;
    if (std::string(s.type) == "int") {
      EXPECT_EQ(defaults.integer(s.name), std::stol(s.default_value)) << s.name;
    }
    if (std::string(s.type) == "bool") {
      EXPECT_EQ(defaults.flag(s.name), std::string(s.default_value) == "1") << s.name;
    }
  }
  // The core's fields hold the same defaults (a transport's settings have no field in Config).
  EXPECT_EQ(std::to_string(defaults.node_size), defaults.text("ARMADA_NODE_SIZE"));
  EXPECT_EQ(std::to_string(defaults.spin_limit), defaults.text("ARMADA_SPIN_LIMIT"));
  EXPECT_EQ(std::to_string(defaults.stall_warn_s), defaults.text("ARMADA_STALL_WARN"));
  EXPECT_EQ(defaults.verbose, defaults.flag("ARMADA_VERBOSE"));
  EXPECT_EQ(defaults.transport, defaults.text("ARMADA_TRANSPORT"));
}

TEST(SettingsTable, EffectiveValuesFollowTheEnvironment) {
  // config() holds what this launch set (or the default), by field and by name alike.
  for (const Setting& s : settings()) {
    const char* set = std::getenv(s.name);
    // (ARMADA_TRANSPORT and ARMADA_MPI_PROGRESS may fall back at low thread levels)
    if (set && std::string(s.name) != "ARMADA_TRANSPORT" && std::string(s.name) != "ARMADA_MPI_PROGRESS") {
      EXPECT_EQ(config().text(s.name), set) << s.name;
    }
  }
  EXPECT_EQ(config().text("ARMADA_TRANSPORT"), config().transport);
  EXPECT_EQ(config().integer("ARMADA_NODE_SIZE"), config().node_size);
}

TEST(SettingsTable, SpinLimitIsResolvedByTheHostsRanksAndCores) {
  // -1 (the default) becomes 2000 rounds where the host's ranks fit its cores and 0 where they
  // outnumber them (the suite's 4-rank rows on 2 cores: waits that yield at once); a value set
  // is kept. Every rank of a host resolves it alike.
  const long configured = config().integer("ARMADA_SPIN_LIMIT");
  MPI_Comm host;
  MPI_Comm_split_type(world_comm(), MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host);
  int ranks = 0;
  MPI_Comm_size(host, &ranks);
  const long set_cores = config().integer("ARMADA_AUTO_CORES");
  const long cores = set_cores > 0 ? set_cores : sysconf(_SC_NPROCESSORS_ONLN);
  if (configured >= 0) {
    EXPECT_EQ(config().spin_limit, configured);
  } else {
    EXPECT_EQ(config().spin_limit, ranks > cores ? 0 : 2000) << ranks << " ranks on the host, " << cores << " cores";
  }
  int mine[2] = {config().spin_limit, -config().spin_limit}, both[2] = {0, 0};
  MPI_Allreduce(mine, both, 2, MPI_INT, MPI_MAX, host);
  EXPECT_EQ(both[0], -both[1]) << "the host's ranks resolved different spin limits";
  MPI_Comm_free(&host);
}

TEST(SettingsTable, UnknownNameIsAnError) {
  expect_error<InvalidArgument>([] { config().text("ARMADA_NO_SUCH_SETTING"); }, {"ARMADA_NO_SUCH_SETTING", "not a setting"});
}

TEST(SettingsTable, EachTransportsRowsAreInTheTable) {
  bool server = false, mpi = false;
  for (const Setting& s : settings()) {
    const std::string name = s.name;
    server = server || name.starts_with("ARMADA_SERVER_");
    mpi = mpi || name.starts_with("ARMADA_MPI_");
  }
  EXPECT_TRUE(server) << "the server transport's rows";
  EXPECT_TRUE(mpi) << "the mpi-rma transport's rows";
}

}  // namespace
}  // namespace armada::rma
