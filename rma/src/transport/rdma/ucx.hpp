// The UCX (UCP) plumbing of the rdma transport: one context per process, two workers, endpoints
// to every rank, memory registration, waiting on requests, and what UCX chose per peer.
//
// Workers. The *origin* worker carries this process's operations (put, get, atomics, request
// messages to other ranks' services); the application's threads share it under one mutex (UCX's
// multi-thread mode would take a lock per call as well). The *service* worker belongs to the
// request service thread (service.hpp): accumulate and mutex requests arrive there as active
// messages, and the thread sleeps in the kernel on its event file descriptor.
// Endpoints: origin -> every rank's origin worker (RMA and atomics on memory that rank
// registered), origin -> every rank's service worker (requests), service -> every rank's origin
// worker (replies). Every rank, on-node ones and this one included: atomics and mutexes to every
// target go through UCX (the one-path rule in rdma_transport.hpp).
#pragma once

#include <mpi.h>
#include <ucp/api/ucp.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace armada::rma::detail::rdma {

/// Throws SystemError naming `op` and UCX's text for `status` unless it is UCS_OK.
void check_ucs(const char* op, const char* what, ucs_status_t status);

/// Every rank's `mine` (any length, 0 included), gathered over `comm`: worker addresses and
/// packed remote keys travel this way.
std::vector<std::vector<std::byte>> allgather_blobs(const std::vector<std::byte>& mine, MPI_Comm comm);

/// What UCX chose for the endpoint to one peer: the transport of each lane, and which lanes
/// carry RMA and atomics.
struct PeerPath {
  std::vector<std::string> transports;  // distinct, in lane order (e.g. "posix", "cma", "self")
  std::vector<std::string> rma;         // transports of the RMA lanes
  std::vector<std::string> amo;         // transports of the atomic lanes
  std::string describe() const;         // "rma:cma amo:posix (posix,cma)"
};

/// Parses ucp_ep_print_info's lane table (the only place UCX 1.13 names the transports of an
/// endpoint; ucp_ep_query reports addresses only).
PeerPath parse_lanes(const std::string& printout);

class Ucx {
 public:
  /// Collective over `world`: creates the context and workers, exchanges worker addresses and
  /// connects every endpoint. Throws SystemError if UCX cannot start.
  Ucx(MPI_Comm world, int rank, int size);
  /// Closes every endpoint (flushing), collectively over the world, and frees the workers.
  ~Ucx();
  Ucx(const Ucx&) = delete;
  Ucx& operator=(const Ucx&) = delete;

  ucp_context_h context() const noexcept { return context_; }
  ucp_worker_h origin() const noexcept { return origin_; }
  ucp_worker_h service() const noexcept { return service_; }
  /// Guards the origin worker and its endpoints.
  std::mutex& origin_mutex() noexcept { return origin_mutex_; }
  ucp_ep_h data_ep(int rank) const noexcept { return data_eps_[static_cast<std::size_t>(rank)]; }
  ucp_ep_h request_ep(int rank) const noexcept { return request_eps_[static_cast<std::size_t>(rank)]; }
  ucp_ep_h reply_ep(int rank) const noexcept { return reply_eps_[static_cast<std::size_t>(rank)]; }
  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }

  /// Progresses the origin worker until `request` (a UCP status pointer from an origin-worker
  /// call, made under origin_mutex) completes, then frees it. Takes origin_mutex itself. Throws
  /// SystemError naming `op` if the operation failed.
  void wait(const char* op, ucs_status_ptr_t request);
  /// Whether `request` completed (progressing once); frees it if so. Null is complete.
  bool test(const char* op, ucs_status_ptr_t request);
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

  /// Whether a get and a fetch-add on memory registered like a segment complete while their
  /// target does not progress UCX (it waits in MPI_Barrier): the test of whether UCX moves data
  /// and does atomics one-sidedly or emulates them with messages its target's worker must serve.
  /// Collective over the world. Ranks probe in two halves, each the other's target (rank r and
  /// r + size/2: different nodes under block placement); a probe waits kProbeMs at most.
  /// Returns "" if both completed, else which waited ("get", "fetch-add", "get and fetch-add").
  std::string probe_one_sided();
  /// What UCX chose for the endpoint to `rank`'s origin worker.
  PeerPath path_to(int rank);
  /// The UCX transports of every endpoint, for armada-info: "posix,cma" per rank.
  const std::vector<PeerPath>& paths() const noexcept { return paths_; }

 private:
  static constexpr int kSpinRounds = 1000;
  static constexpr int kProbeMs = 100;
  static void yield() noexcept;
  void connect(MPI_Comm world);
  void close_all();

  int rank_, size_;
  ucp_context_h context_ = nullptr;
  ucp_worker_h origin_ = nullptr;
  ucp_worker_h service_ = nullptr;
  std::mutex origin_mutex_;
  std::vector<ucp_ep_h> data_eps_, request_eps_, reply_eps_;
  std::vector<PeerPath> paths_;
  MPI_Comm comm_ = MPI_COMM_NULL;  // our duplicate of the world, for the collective close
};

/// A segment slice this process registered with UCX, and the packed key peers unpack.
class Registration {
 public:
  Registration() = default;
  Registration(ucp_context_h context, void* base, std::size_t bytes);  // bytes > 0
  ~Registration();
  Registration(Registration&& other) noexcept;
  Registration& operator=(Registration&& other) noexcept;
  const std::vector<std::byte>& packed_key() const noexcept { return packed_; }

 private:
  ucp_context_h context_ = nullptr;
  ucp_mem_h memh_ = nullptr;
  std::vector<std::byte> packed_;
};

}  // namespace armada::rma::detail::rdma
