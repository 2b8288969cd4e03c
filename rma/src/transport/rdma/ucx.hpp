// The UCX (UCP) plumbing of the rdma transport: one context per process, two workers, endpoints
// made on first contact with a peer, memory registration, waiting on requests, and what UCX
// chose per peer.
//
// Workers. The *origin* worker carries this process's operations (put, get, atomics, request
// messages to other ranks' services); the application's threads share it under one mutex (UCX's
// multi-thread mode would take a lock per call as well). The *service* worker belongs to the
// request service thread (service.hpp): accumulate and mutex requests arrive there as active
// messages, and the thread sleeps in the kernel on its event file descriptor.
// Endpoints: origin -> a rank's origin worker (RMA and atomics on memory that rank registered),
// origin -> a rank's service worker (requests), service -> a rank's origin worker (replies). Any
// rank, on-node ones and this one included: atomics and mutexes to every target go through UCX
// (the one-path rule in rdma_transport.hpp). Each is made on first use (issue 53: made for every
// peer at init, UCX's per-endpoint memory cost ~80 KiB per rank of the job, docs/scaling.md); init
// keeps only every rank's two worker addresses, packed in one table. A peer that needs the
// other side's progress to wire up (UCX's p2p transports) is seen by the init probe, whose get
// is the first contact with its partner: the request service then progresses the origin worker.
// Except over TCP: where UCX reaches the probe's partner over TCP (on any rank), init makes every
// endpoint (connect_all). UCX 1.13's TCP transport, given a peer's first message on a connection
// the peer opened, makes the endpoint that answers inside its receive handler and moves that
// connection's receive buffer into it while the handler still uses it (uct_tcp_ep_replace_ep):
// a crash in UCX (ucs_mpool_put of a null buffer) whenever more data from that peer is already
// buffered, which threads of one rank making first contact at once made likely (seen: 13 of 30
// runs of ThreadsMakingFirstContactAtOnceMakeOneEndpointPerPeer, UCX_TLS=tcp,self, 4 ranks). With
// every endpoint made before any message moves, no first message meets a worker without its own
// endpoint to the sender, as before issue 53's lazy endpoints.
#pragma once

#include <mpi.h>
#include <ucp/api/ucp.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "common/topology.hpp"
#include "transport/base/locks.hpp"

namespace armada::rma::detail::rdma {

/// The environment variables that configure the transport's own UCX context: UCX reads
/// ARMADA_UCX_<NAME> after UCX_<NAME>, and it wins there, so that Armada's context can differ
/// from the MPI library's UCX (e.g. ARMADA_UCX_TLS=tcp,self, MPICH's UCX left on its defaults).
inline constexpr std::string_view kContextVariables = "ARMADA_UCX_";

/// Throws SystemError naming `op` and UCX's text for `status` unless it is UCS_OK.
void check_ucs(const char* op, const char* what, ucs_status_t status);

/// Every rank's blob of bytes (any length, 0 included) in one buffer: rank r's is
/// [bytes + offsets[r], bytes + offsets[r + 1]). No allocation per rank (a vector per rank cost
/// 24 B and a heap block each).
struct PackedBlobs {
  std::vector<std::byte> bytes;
  std::vector<std::uint64_t> offsets;  // size + 1 entries
  const std::byte* data(int r) const noexcept { return bytes.data() + offsets[static_cast<std::size_t>(r)]; }
  std::size_t size(int r) const noexcept {
    return offsets[static_cast<std::size_t>(r) + 1] - offsets[static_cast<std::size_t>(r)];
  }
};

/// Every rank's `mine`, gathered over `comm`: worker addresses and packed remote keys travel
/// this way.
PackedBlobs allgather_blobs(const std::vector<std::byte>& mine, MPI_Comm comm);

/// What UCX chose for the endpoint to one peer: the transport of each lane, and which lanes
/// carry RMA and atomics.
struct PeerPath {
  std::vector<std::string> transports;  // distinct, in lane order (e.g. "posix", "cma", "self")
  std::vector<std::string> rma;         // transports of the RMA lanes
  std::vector<std::string> amo;         // transports of the atomic lanes
  std::string describe() const;         // "rma:cma amo:posix (posix,cma)"
};

/// Why UCX cannot start in this process with the features the transport needs ("" if it can):
/// ARMADA_TRANSPORT=auto asks before the collective start.
std::string unavailable();

/// Parses ucp_ep_print_info's lane table (the only place UCX 1.13 names the transports of an
/// endpoint; ucp_ep_query reports addresses only).
PeerPath parse_lanes(const std::string& printout);

class Ucx {
 public:
  /// Collective over `world`: creates the context and workers and exchanges worker addresses
  /// (no endpoint yet). Throws SystemError if UCX cannot start.
  Ucx(MPI_Comm world, int rank, int size);
  /// Closes the endpoints made (flushing), collectively over the world, and frees the workers.
  ~Ucx();
  Ucx(const Ucx&) = delete;
  Ucx& operator=(const Ucx&) = delete;

  ucp_context_h context() const noexcept { return context_; }
  ucp_worker_h origin() const noexcept { return origin_; }
  ucp_worker_h service() const noexcept { return service_; }
  /// Guards the origin worker and its endpoints.
  SpinMutex& origin_mutex() noexcept { return origin_mutex_; }
  /// The endpoint from the origin worker to `rank`'s origin worker (data_ep) or service worker
  /// (request_ep), made on first use. The caller holds origin_mutex. Throws SystemError.
  ucp_ep_h data_ep(int rank) { return endpoint(data_eps_, origin_, origins_, rank); }
  ucp_ep_h request_ep(int rank) { return endpoint(request_eps_, origin_, services_, rank); }
  /// The endpoint from the service worker to `rank`'s origin worker, made on first use: only
  /// the request service's thread calls it.
  ucp_ep_h reply_ep(int rank) { return endpoint(reply_eps_, service_, origins_, rank); }
  /// Bytes of every rank's worker addresses kept since init (the table endpoints are made from).
  std::size_t address_bytes() const noexcept { return origins_.bytes.size() + services_.bytes.size(); }
  /// Endpoints made so far (tests and armada-info: a rank that talked to k peers has k).
  struct EndpointCounts {
    int data, request, reply;
  };
  EndpointCounts endpoints_made() const noexcept {
    return {data_eps_.made.load(std::memory_order_relaxed), request_eps_.made.load(std::memory_order_relaxed),
            reply_eps_.made.load(std::memory_order_relaxed)};
  }
  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }

  /// Progresses the origin worker until `request` (a UCP status pointer from an origin-worker
  /// call, made under origin_mutex) completes, then frees it. Takes origin_mutex itself. Throws
  /// SystemError naming `op` if the operation failed. A wait longer than watch_stalls' seconds
  /// names `peer` (the rank it waits for; -1: several, e.g. a flush of every endpoint) on stderr.
  void wait(const char* op, ucs_status_ptr_t request, int peer = -1);
  /// What wait() says when it stalls (common/stall.hpp): after `seconds` (0: never), naming the
  /// peer's host from `topology` (the runtime's, which outlives the transport).
  void watch_stalls(int seconds, const Topology& topology) {
    stall_warn_s_ = seconds;
    topology_ = &topology;
  }
  /// Whether `request` completed (progressing once); frees it if so. Null is complete.
  bool test(const char* op, ucs_status_ptr_t request);
  /// Gives the core to another thread (between rounds of a long wait).
  static void yield() noexcept;
  /// One round of progress on the origin worker (takes origin_mutex).
  void progress();
  /// Waits until `done()` holds, progressing the origin worker; after a short spin it yields
  /// the core between rounds (mutex waits can be long).
  template <class Done>
  void wait_until(Done&& done) {
    for (int spins = 0; !done(); ++spins) {
      progress();
      if (spins > kSpinRounds) yield();
    }
  }

  /// Whether a get and a fetch-add on memory of the kind segments use (`ucx_memory`: allocated
  /// by UCX; else memory this process allocated, registered) complete while their
  /// target does not progress UCX (it waits in MPI_Barrier): the test of whether UCX moves data
  /// and does atomics one-sidedly or emulates them with messages its target's worker must serve.
  /// Collective over the world. Ranks probe in two halves, each the other's target (rank r and
  /// r + size/2: different nodes under block placement); a probe waits kProbeMs at most.
  /// Returns "" if both completed, else which waited ("get", "fetch-add", "get and fetch-add").
  std::string probe_one_sided(bool ucx_memory);
  /// What UCX chose for the probe's endpoint to its partner (empty without a partner).
  const PeerPath& probe_path() const noexcept { return probe_path_; }
  /// Collective over the world, before the request service starts: makes the endpoints to every
  /// rank not made yet and completes their wireup (UCX over TCP: see the header comment).
  void connect_all();
  /// Whether connect_all made every endpoint at init (else each is made on first contact).
  bool all_at_init() const noexcept { return all_at_init_; }
  /// Whether memory UCX allocates (Registration::allocate) comes zeroed: the context lists only
  /// methods that zero (shared memory, hugetlb, THP, mmap) unless the user set UCX_ALLOC_PRIO (or
  /// ARMADA_UCX_ALLOC_PRIO: the context reads ARMADA_UCX_<NAME> after UCX_<NAME>).
  static bool allocation_zeroes() noexcept;
  /// What UCX chose for the endpoint to `rank`'s origin worker (asked each time: armada-info
  /// and the auto choice ask for a few peers; a table for every rank cost O(P) at init). Asking
  /// about a peer not yet contacted makes a temporary endpoint: it does not count as contact.
  PeerPath path_to(int rank);

 private:
  static constexpr int kSpinRounds = 1000;
  static constexpr int kProbeMs = 100;
  /// One kind of endpoint, by rank: null until first use.
  struct Endpoints {
    std::vector<ucp_ep_h> eps;
    std::atomic<int> made{0};
  };
  ucp_ep_h endpoint(Endpoints& table, ucp_worker_h worker, const PackedBlobs& addresses, int rank);
  void close_all();

  int rank_, size_;
  int stall_warn_s_ = 0;
  const Topology* topology_ = nullptr;
  ucp_context_h context_ = nullptr;
  ucp_worker_h origin_ = nullptr;
  ucp_worker_h service_ = nullptr;
  SpinMutex origin_mutex_;
  PackedBlobs origins_, services_;  // every rank's worker addresses (the per-peer state of init)
  Endpoints data_eps_, request_eps_, reply_eps_;
  PeerPath probe_path_;
  bool all_at_init_ = false;
  MPI_Comm comm_ = MPI_COMM_NULL;  // our duplicate of the world, for the collective close
};

/// Makes every SysV shared-memory segment this process created, and every shared-memory file it
/// mapped, accessible to its own user only (0600). UCX creates its SysV segments (the memory it
/// allocates for Armada's segments, its shared-memory FIFOs) with mode 0660 and no way to ask for
/// less, so a user of the same group could attach the job's data; Armada narrows each one as soon
/// as UCX has made it (after allocation, after the workers' wireup). Returns how many it changed.
int restrict_shared_memory_to_owner();

/// A segment slice this process registered with UCX, and the packed key peers unpack.
class Registration {
 public:
  Registration() = default;
  /// Registers memory the caller allocated (bytes > 0).
  Registration(ucp_context_h context, void* base, std::size_t bytes);
  /// Allocates `bytes` (> 0) through UCX (ucp_mem_map with UCP_MEM_MAP_ALLOCATE) and
  /// registers it: UCX takes the first method of UCX_ALLOC_PRIO that works, on a host its SysV or
  /// POSIX shared memory, which its shared-memory transports reach one-sidedly (put, get and
  /// atomics by load/store; memory the caller allocated they cannot reach at all). The memory
  /// is zeroed and freed with the registration. `at`: the address it must lie at (UCX maps it
  /// there with UCP_MEM_MAP_FIXED, over whatever reservation is there), or null: anywhere.
  static Registration allocate(ucp_context_h context, std::size_t bytes, std::byte* at = nullptr);
  /// The registered memory (null for a default-constructed registration).
  std::byte* base() const noexcept { return base_; }
  ~Registration();
  Registration(Registration&& other) noexcept;
  Registration& operator=(Registration&& other) noexcept;
  const std::vector<std::byte>& packed_key() const noexcept { return packed_; }

 private:
  void pack(const char* op);

  ucp_context_h context_ = nullptr;
  ucp_mem_h memh_ = nullptr;
  std::byte* base_ = nullptr;
  std::vector<std::byte> packed_;
};

/// Where `rkey` (unpacked from a peer's Registration::allocate memory) maps that peer's
/// `address` into this process (ucp_rkey_ptr: the peer's SysV/POSIX segment attached here), or
/// null if it cannot be mapped (another host, or no shared-memory transport in UCX_TLS).
std::byte* map_remote(ucp_rkey_h rkey, std::uint64_t address);

}  // namespace armada::rma::detail::rdma
