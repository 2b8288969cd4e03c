// The rdma transport's own promises, beyond the conformance suite it also runs (tests/rma under
// the rdma.* configurations): what UCX chose per peer and whether the worker needs a progress
// thread; a request service that sleeps in the kernel while idle and executes the accumulates
// sent to its process; accumulates larger than one request message. Run under
// ARMADA_TRANSPORT=rdma on virtual nodes, with Armada's UCX context set to shared memory or to TCP
// (ARMADA_UCX_TLS; the MPI library's UCX keeps its own settings).
#include <gtest/gtest.h>

#include <sys/shm.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "../test_util.hpp"

namespace armada::rma {
namespace {

using test::Segment;

// The transports Armada's UCX context was given: ARMADA_UCX_TLS wins over UCX_TLS.
bool ucx_tls_is_tcp() {
  const char* tls = std::getenv("ARMADA_UCX_TLS");
  if (!tls) tls = std::getenv("UCX_TLS");
  return tls && std::string(tls).find("tcp") != std::string::npos;
}

/// The first rank after `of` (cyclically) on another node, or -1.
int off_node_peer(int of = rank()) {
  for (int k = 1; k < size(); ++k) {
    const int r = (of + k) % size();
    if (!same_node(of, r)) return r;
  }
  return -1;
}

long fact_as_long(const TransportInfo& info, const char* key) {
  const std::string* v = info.find(key);
  EXPECT_NE(v, nullptr) << "transport_info lacks " << key;
  return v ? std::stol(*v) : -1;
}

// Whether init made every UCX endpoint (UCX over TCP, rdma/ucx.hpp) rather than on first contact.
bool endpoints_all_at_init(const TransportInfo& info) {
  const std::string* v = info.find("ucx_endpoints");
  EXPECT_NE(v, nullptr) << "transport_info lacks ucx_endpoints";
  return v && v->starts_with("all at init");
}

// Endpoints are made on first contact (issue 53: init made three per rank of the job, each
// costing UCX ~27 KiB here). A segment's allocation makes data endpoints only to the other ranks
// of this node (whose slices this rank maps); a put to one rank of another node makes one data
// endpoint and one request endpoint (the put asks the owner's service for its key), and that
// rank's service one reply endpoint per rank it answered. First in this program: the tests after
// it contact every rank. Over TCP init makes every endpoint instead (three per rank of the job),
// and the put and the accumulate make none.
TEST(RdmaTransport, EndpointsAreMadeOnFirstContactOnly) {
  const int peer = off_node_peer();
  ASSERT_GE(peer, 0) << "the rdma tests run on virtual nodes";
  Segment seg(sizeof(long) * static_cast<std::size_t>(size()));
  for (int r = 0; r < size(); ++r) seg.local<long>()[r] = 0;
  int on_node = 0, senders = 0;  // other ranks of this node; ranks whose off-node peer is this one
  for (int r = 0; r < size(); ++r) {
    on_node += r != rank() && same_node(rank(), r);
    senders += off_node_peer(r) == rank();
  }
  barrier();
  const TransportInfo before = transport_info(peer);  // asking about a peer is no contact
  const bool at_init = endpoints_all_at_init(before);
  const long all = size();
  EXPECT_EQ(fact_as_long(before, "ucx_data_endpoints"), at_init ? all : on_node) << size() << " ranks";
  EXPECT_EQ(fact_as_long(before, "ucx_request_endpoints"), at_init ? all : 0);
  EXPECT_EQ(fact_as_long(before, "ucx_reply_endpoints"), at_init ? all : 0);
  barrier();
  const long mine = 1 + rank();
  put(&mine, seg.at<long>(peer, static_cast<std::size_t>(rank())), 1);
  acc(&mine, seg.at<long>(peer, static_cast<std::size_t>(rank())), 1);
  fence(peer);
  barrier();
  const TransportInfo after = transport_info(peer);
  EXPECT_EQ(fact_as_long(after, "ucx_data_endpoints"), at_init ? all : on_node + 1);
  EXPECT_EQ(fact_as_long(after, "ucx_request_endpoints"), at_init ? all : 1);
  EXPECT_EQ(fact_as_long(after, "ucx_reply_endpoints"), at_init ? all : senders);
  for (int r = 0; r < size(); ++r)
    EXPECT_EQ(seg.local<long>()[r], off_node_peer(r) == rank() ? 2 * (1 + r) : 0) << "slot of rank " << r;
  barrier();
}

// Several threads of each rank making first contact at once (with ranks not contacted yet, and
// with every rank's slice of a new segment, whose key each thread may ask for): one data
// endpoint per rank reached, one request endpoint per owner asked for a key, and every put and
// fetch-add lands. Before the tests that contact every rank (see the test above). Regression
// (UCX over TCP, where init now makes every endpoint): UCX crashed in its TCP receive handler
// when a peer's first messages met a worker without its own endpoint to the peer (rdma/ucx.hpp);
// row test_rdma.first-contact-threads.rdma-tcp.vnode2 runs this test alone, in a fresh process.
TEST(RdmaTransport, ThreadsMakingFirstContactAtOnceMakeOneEndpointPerPeer) {
  constexpr int kThreads = 4;
  const std::size_t slots = static_cast<std::size_t>(size()) * kThreads;
  Segment seg(sizeof(long) * (slots + 1));  // a slot per (rank, thread), then a counter
  for (std::size_t i = 0; i <= slots; ++i) seg.local<long>()[i] = 0;
  int on_node = 0, off_node = 0;
  for (int r = 0; r < size(); ++r) {
    on_node += r != rank() && same_node(rank(), r);
    off_node += !same_node(rank(), r);
  }
  barrier();
  std::vector<std::thread> pool;
  for (int t = 0; t < kThreads; ++t)
    pool.emplace_back([&, t] {
      const long value = 1000 * (rank() + 1) + t;
      for (int k = 1; k < size(); ++k) {
        const int r = (rank() + k) % size();
        put(&value, seg.at<long>(r, static_cast<std::size_t>(rank() * kThreads + t)), 1);
        (void)fetch_add(seg.at<long>(r, slots), 1L);
      }
    });
  for (std::thread& th : pool) th.join();
  fence_all();
  barrier();
  const TransportInfo info = transport_info(rank());
  const bool at_init = endpoints_all_at_init(info);  // over TCP: every one, this rank's own too
  EXPECT_EQ(fact_as_long(info, "ucx_data_endpoints"), at_init ? size() : on_node + off_node) << "on node " << on_node;
  EXPECT_EQ(fact_as_long(info, "ucx_request_endpoints"), at_init ? size() : off_node);
  for (int r = 0; r < size(); ++r)
    for (int t = 0; t < kThreads; ++t)
      EXPECT_EQ(seg.local<long>()[static_cast<std::size_t>(r * kThreads + t)], r == rank() ? 0 : 1000 * (r + 1) + t)
          << "slot of rank " << r << ", thread " << t;
  EXPECT_EQ(seg.local<long>()[slots], static_cast<long>(kThreads) * (size() - 1));
  barrier();
}

TEST(RdmaTransport, EveryOffNodeTargetIsReachedThroughUcx) {
  for (int r = 0; r < size(); ++r) {
    if (same_node(rank(), r)) continue;
    const TransportInfo info = transport_info(r);
    EXPECT_EQ(info.name, "rdma") << "target " << r;
    const std::string* lanes = info.find("ucx");
    ASSERT_NE(lanes, nullptr) << "no ucx fact for target " << r;
    EXPECT_EQ(lanes->find("rma:-"), std::string::npos) << "no RMA lane to " << r << ": " << *lanes;
    const std::string* transports = info.find("ucx_transports");
    ASSERT_NE(transports, nullptr);
    // ARMADA_UCX_TLS restricts Armada's UCX context to what the test configuration names.
    if (ucx_tls_is_tcp()) EXPECT_NE(transports->find("tcp"), std::string::npos) << *transports;
    else EXPECT_EQ(transports->find("tcp"), std::string::npos) << *transports;
  }
}

// The progress decision follows the lanes: a thread exactly when some operation is not one-sided.
TEST(RdmaTransport, ProgressThreadExactlyWhenUcxEmulates) {
  const int peer = off_node_peer();
  ASSERT_GE(peer, 0) << "the rdma tests run on virtual nodes";
  const TransportInfo info = transport_info(peer);
  const std::string* progress = info.find("origin_progress");
  ASSERT_NE(progress, nullptr);
  const bool one_sided = info.caps.put_get_one_sided && info.caps.rmw_one_sided;
  EXPECT_EQ(*progress == "none", one_sided) << "origin_progress=" << *progress << " reason: "
                                            << *info.find("origin_progress_reason");
  if (ucx_tls_is_tcp()) {
    EXPECT_FALSE(info.caps.put_get_one_sided) << "TCP cannot write another process's memory by itself";
    EXPECT_EQ(*progress, "service thread");
  }
  EXPECT_TRUE(info.caps.progress_thread) << "the request service is a thread of the transport";
  EXPECT_FALSE(info.caps.acc_one_sided);
}

// Idle, the request service sleeps in the kernel: a thread that polled or backed off would wake
// thousands of times in the pause below (the server transport's idle sleep is at most 200 us).
TEST(RdmaTransport, RequestServiceSleepsWhileIdle) {
  const int peer = off_node_peer();
  ASSERT_GE(peer, 0);
  barrier();
  const long before = fact_as_long(transport_info(peer), "service_wakeups");
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const long after = fact_as_long(transport_info(peer), "service_wakeups");
  EXPECT_LE(after - before, 5) << "the request service woke " << (after - before) << " times in 300 ms of idleness";
  barrier();
}

// An accumulate to another node is executed by the target's request service (the count of
// requests it handled grows), and is exact.
TEST(RdmaTransport, AccumulateRunsInTheTargetsRequestService) {
  const int peer = off_node_peer();
  ASSERT_GE(peer, 0);
  Segment seg(sizeof(long) * static_cast<std::size_t>(size()));
  for (int r = 0; r < size(); ++r) seg.local<long>()[r] = 0;
  barrier();
  const long handled_before = fact_as_long(transport_info(peer), "requests_handled");
  barrier();
  const long mine = 10 + rank();
  acc(&mine, seg.at<long>(peer, static_cast<std::size_t>(rank())), 1);
  fence(peer);
  barrier();
  const long handled_after = fact_as_long(transport_info(peer), "requests_handled");
  bool targeted = false;  // some rank's off-node peer is this rank
  for (int r = 0; r < size(); ++r) {
    const bool from_r = off_node_peer(r) == rank();
    targeted = targeted || from_r;
    EXPECT_EQ(seg.local<long>()[r], from_r ? 10 + r : 0) << "slot of rank " << r;
  }
  if (targeted) {
    EXPECT_GE(handled_after - handled_before, 1) << "no request reached this rank's service";
  }
  barrier();
}

// Accumulates larger than one request message (64 KiB) go as several, each acknowledged: the
// sums over every rank are exact at sizes around the message boundary, strided and contiguous.
TEST(RdmaTransport, AccumulatesSpanningSeveralMessagesAreExact) {
  const int target = size() - 1;
  for (std::size_t n : {std::size_t{8191}, std::size_t{8192}, std::size_t{8193}, std::size_t{3 * 8192 + 5}}) {
    Segment seg(n * sizeof(double));
    for (std::size_t i = 0; i < n; ++i) seg.local<double>()[i] = 1.0;
    barrier();
    std::vector<double> src(n);
    for (std::size_t i = 0; i < n; ++i) src[i] = static_cast<double>(i % 97) + rank();
    const double scale = 2.0;
    acc(AccType::Double, &scale, src.data(), seg.base<double>(target), n * sizeof(double), target);
    // Strided: every other element once more, as runs of one double.
    const std::size_t half = n / 2;
    const std::size_t stride[] = {2 * sizeof(double)};
    const std::size_t count[] = {sizeof(double), half};
    acc_strided(AccType::Double, &scale, src.data(), stride, seg.base<double>(target), stride, count, target);
    fence(target);
    barrier();
    if (rank() == target) {
      long rank_sum = 0;
      for (int r = 0; r < size(); ++r) rank_sum += r;
      for (std::size_t i = 0; i < n; ++i) {
        const double per_rank = static_cast<double>(i % 97);
        const double once = 2.0 * (per_rank * size() + static_cast<double>(rank_sum));
        const double expected = 1.0 + once + (i % 2 == 0 && i / 2 < half ? once : 0.0);
        if (seg.local<double>()[i] != expected) {
          ADD_FAILURE() << "n=" << n << " element " << i << ": " << seg.local<double>()[i] << " != " << expected;
          break;
        }
      }
    }
    barrier();
  }
}

// A burst of small accumulates from every rank to one target, fenced once at the end: the
// target's service answers them while more arrive. Regression: replies queued while earlier
// replies completed stayed in the outbox of a service that went to sleep, and the origins'
// fence waited for them forever (found when armada-bench's stream of 5000 accumulates hung in
// the full suite's bench_suite_smoke, under load; gdb showed the service asleep in epoll_wait
// and the origin in fence). A burst keeps requests arriving while replies are pending, which
// opens that window; no test can force the interleaving.
TEST(RdmaTransport, AccumulateBurstsAreAllAcknowledged) {
  const int target = 0;
  Segment seg(sizeof(long));
  barrier();
  constexpr int kBurst = 20000;
  const long one = 1;
  for (int i = 0; i < kBurst; ++i) acc(&one, GlobalPtr<long>(target, seg.base<long>(target)), 1);
  fence(target);
  barrier();
  if (rank() == target) {
    EXPECT_EQ(*seg.local<long>(), static_cast<long>(kBurst) * size());
  }
  barrier();
}

// Two threads of one process fencing one target: a fence returns only once the puts its own
// thread issued before it are at the target, whatever another thread's fence has already taken
// on. Each round, thread A puts to its partner, thread B starts a fence of the same target (or
// fence_all) and is left inside it, then A fences and tells the target by an MPI message
// (another channel, which does not wait for UCX's), and the target checks its memory. Regression:
// fence(t) cleared t's written mark before its flush completed, and fence_all took the list of
// written targets, so A's fence found nothing to do and returned while B's flush still carried
// A's put. The interleaving is forced where UCX emulates the put (TCP) and nothing progresses the
// target's worker on its own (row test_rdma.fences-from-two-threads.rdma-tcp-no-progress.vnode1,
// ARMADA_RDMA_PROGRESS=off): the target leaves its worker alone for kQuiet, so a put it has not
// yet executed is still in flight when a wrong fence returns; then it progresses it (gets from the
// writer) until the writer's message comes. Elsewhere the target's worker runs by itself and the test
// checks the same promise without the forcing.
enum class FenceKind { Target, All };

void fence_by(FenceKind kind, int target) {
  if (kind == FenceKind::Target) fence(target);
  else fence_all();
}

const char* name_of(FenceKind kind) { return kind == FenceKind::Target ? "fence(t)" : "fence_all()"; }

// The writer's round (the barrier after it progresses both sides' workers until the fences are
// done).
void write_round(const Segment& seg, int partner, long value, FenceKind mine, FenceKind other, MPI_Comm comm) {
  long ready = 0;
  MPI_Recv(&ready, 1, MPI_LONG, partner, 1, comm, MPI_STATUS_IGNORE);  // its worker is left alone from now
  put_value(value, seg.at<long>(partner, 0));
  std::thread fencer([&] { fence_by(other, partner); });  // takes on the put: clears marks, flushes
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // B is inside its fence by then
  fence_by(mine, partner);
  MPI_Send(&value, 1, MPI_LONG, partner, 0, comm);
  fencer.join();
}

// Waits for `request`, progressing this process's UCX worker only after `quiet` (a get from
// `peer` waits in the worker; the peer's progresses it, waiting in a fence).
void wait_quiet_then_progress(MPI_Request& request, std::chrono::milliseconds quiet, const Segment& seg, int peer) {
  const auto until = std::chrono::steady_clock::now() + quiet;
  int done = 0;
  while (MPI_Test(&request, &done, MPI_STATUS_IGNORE), !done && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  while (!done) {
    (void)get_value(seg.at<long>(peer, 1));
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  }
}

// The target's round: whether the value was in place when the writer said its fence returned.
bool check_round(const Segment& seg, int partner, MPI_Comm comm) {
  constexpr std::chrono::milliseconds kQuiet{200};
  long told = 0;
  MPI_Request request;
  MPI_Irecv(&told, 1, MPI_LONG, partner, 0, comm, &request);
  MPI_Send(&told, 1, MPI_LONG, partner, 1, comm);
  wait_quiet_then_progress(request, kQuiet, seg, partner);
  return std::atomic_ref<long>(seg.local<long>()[0]).load(std::memory_order_acquire) == told;
}

TEST(RdmaTransport, AFenceCoversItsThreadsPutsWhileAnotherThreadFencesTheSameTarget) {
  constexpr long kRounds = 2;
  const int half = size() / 2;
  const bool writer = rank() < half, target = rank() >= half && rank() < 2 * half;
  const int partner = writer ? rank() + half : rank() - half;
  if (writer || target) {
    ASSERT_FALSE(same_node(rank(), partner)) << "the rdma rows put ranks r and r + size/2 apart";
  }
  Segment seg(2 * sizeof(long));
  seg.local<long>()[0] = 0;
  MPI_Comm comm;
  MPI_Comm_dup(world_comm(), &comm);
  long value = 0;
  for (const FenceKind mine : {FenceKind::Target, FenceKind::All}) {
    for (const FenceKind other : {FenceKind::Target, FenceKind::All}) {
      barrier();
      for (long i = 0; i < kRounds; ++i) {
        ++value;
        if (writer) write_round(seg, partner, value, mine, other, comm);
        if (target) {
          EXPECT_TRUE(check_round(seg, partner, comm))
              << "round " << i << ": the writer's " << name_of(mine) << " returned before its put was at the target,"
              << " while another thread of its process was in " << name_of(other);
        }
        barrier();
      }
    }
  }
  MPI_Comm_free(&comm);
  barrier();
}

// The SysV segments of this process (UCX's memory for Armada's segments, its FIFOs), by shmid:
// the mappings /proc/self/maps shows as /SYSV<key>, whose inode is the shmid.
std::vector<int> my_sysv_segments() {
  std::vector<int> ids;
  std::FILE* maps = std::fopen("/proc/self/maps", "r");
  char line[4096];
  while (maps && std::fgets(line, sizeof line, maps)) {
    unsigned long long inode = 0;
    char path[3072] = "";
    if (std::sscanf(line, "%*s %*s %*s %*s %llu %3071s", &inode, path) == 2 && std::strncmp(path, "/SYSV", 5) == 0) {
      shmid_ds ds{};
      if (shmctl(static_cast<int>(inode), IPC_STAT, &ds) == 0 && ds.shm_cpid == getpid())
        ids.push_back(static_cast<int>(inode));
    }
  }
  if (maps) std::fclose(maps);
  return ids;
}

// Whether a process of another user in this process's group can attach segment `id` (a child
// that drops to uid 60123, keeping the group).
bool another_group_member_can_attach(int id) {
  const pid_t child = fork();
  if (child == 0) {
    if (setgid(getegid()) != 0 || setuid(60123) != 0) _exit(3);
    void* p = shmat(id, nullptr, SHM_RDONLY);
    _exit(p == reinterpret_cast<void*>(-1) ? 0 : 1);
  }
  int status = 0;
  waitpid(child, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) != 3) << "the child could not change its user";
  return WIFEXITED(status) && WEXITSTATUS(status) == 1;
}

// UCX makes its SysV segments mode 0660; Armada narrows every one to 0600 (regression: a user of
// the owner's group could attach the job's data read-write).
TEST(RdmaTransport, SharedMemoryIsTheOwnersAlone) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to act as another user of the group";
  Segment seg(1 << 20);
  const std::vector<int> ids = my_sysv_segments();
  if (ids.empty()) GTEST_SKIP() << "UCX allocated no SysV segment in this configuration (UCX_ALLOC_PRIO, UCX_TLS)";
  for (const int id : ids) {
    shmid_ds ds{};
    ASSERT_EQ(shmctl(id, IPC_STAT, &ds), 0);
    EXPECT_EQ(ds.shm_perm.mode & 0777, 0600u) << "SysV segment " << id;
    EXPECT_FALSE(another_group_member_can_attach(id)) << "SysV segment " << id;
  }
  barrier();
}

}  // namespace
}  // namespace armada::rma
