// The rdma transport's request service: one thread per process executes the accumulates that
// ranks send to this process's memory, as ARMCI's server thread did on RDMA networks (a NIC
// moves data and does integer atomics, but cannot add floating-point arrays). Mutexes need no
// thread: they are ticket locks driven by UCP atomics (rdma_transport.hpp).
//
// It never polls while idle: it arms the service worker (ucp_worker_arm) and blocks in
// epoll_wait on the worker's event file descriptor; the arrival of a request message wakes it
// (and a private eventfd at stop). A busy node therefore loses no core to it, and a request is
// noticed as soon as the kernel schedules the thread, not after a backoff sleep.
//
// When UCX emulates one-sided operations in software (TCP: puts, gets and atomics are messages
// the target's worker must serve), the same thread also progresses the origin worker, sleeping
// on both descriptors: it is then the progress thread too (Ucx's paths tell which case holds).
//
// Accumulates run in this thread under the node's stripe locks (through the callback the
// transport gives), so they stay atomic with the node's shared-memory accumulates.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <thread>
#include <utility>
#include <vector>

#include "armada/rma/types.hpp"
#include "transport/rdma/protocol.hpp"
#include "transport/rdma/ucx.hpp"

namespace armada::rma::detail::rdma {

class RequestService {
 public:
  /// dst (this process's memory) += scale * src over `bytes`, atomically per element with
  /// respect to every other accumulate on the node.
  using Accumulate = std::function<void(AccType type, const void* scale, const std::byte* src, std::byte* dst,
                                        std::size_t bytes)>;
  /// The packed remote key of this rank's slice of a segment; false if there is no such segment.
  using KeyOf = std::function<bool(std::int64_t segment, std::vector<std::byte>& packed)>;

  /// Registers the request handler on ucx's service worker and starts the thread.
  /// `progress_origin`: also progress the origin worker (UCX emulates one-sided operations).
  RequestService(Ucx& ucx, Accumulate accumulate, KeyOf key_of, bool progress_origin);
  /// Stops and joins the thread.
  ~RequestService();
  RequestService(const RequestService&) = delete;
  RequestService& operator=(const RequestService&) = delete;

  /// Requests executed so far, and times the thread woke from its kernel sleep.
  std::uint64_t handled() const noexcept { return handled_.load(std::memory_order_relaxed); }
  std::uint64_t wakeups() const noexcept { return wakeups_.load(std::memory_order_relaxed); }

 private:
  static ucs_status_t on_request(void* self, const void* header, std::size_t header_length, void* data,
                                 std::size_t length, const ucp_am_recv_param_t* param);
  void handle_acc(const std::byte* data, std::size_t length);
  void handle_key(const std::byte* data, std::size_t length);
  void queue_reply(int to);
  void send_replies();
  void run();
  void progress_all();
  bool arm();

  struct Outgoing {
    int to;
    Reply reply;
    std::vector<std::byte> key_reply;  // a KeyReply and its key (kKeyReplyAm) when not empty
  };

  Ucx& ucx_;
  Accumulate accumulate_;
  KeyOf key_of_;
  bool progress_origin_;
  std::deque<Outgoing> outbox_;
  int epoll_fd_ = -1;
  int stop_fd_ = -1;
  std::atomic<bool> stop_{false};
  std::atomic<std::uint64_t> handled_{0}, wakeups_{0};
  std::thread thread_;
};

}  // namespace armada::rma::detail::rdma
