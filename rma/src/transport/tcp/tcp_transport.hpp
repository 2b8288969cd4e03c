// The tcp transport: ranks on other nodes reached over the transport's own TCP connections,
// with no MPI on the data path and no polling thread.
//
// Why beside the server transport: the server's requests travel as MPI messages, so its latency
// is MPI's over TCP (on the emulated cluster MPI's own one-way time is ~1.9x the socket's) and
// its node server polls MPI, so on a host with no idle core a request waits for that thread's
// turn. Here a put is one frame written to the target's connection (payload and target address
// together); the target's service thread (service.hpp) sleeps in epoll until a frame arrives.
//
// Completion (docs/rma.md): a put or accumulate returns once its bytes are in the kernel
// (local completion) and marks its target written; `fence(t)` sends one Ack to `t` when `t` was
// written since the last fence and waits for its answer (TCP delivers in order and a link's
// frames are run in order, so the answer means every earlier write ran); `fence_all` asks every
// written target at once, then waits. A put_notify is one frame whose flag update is applied
// after the data. Gets, atomics and mutex steps are a request and its answer on the same link.
// A nonblocking get sends its request and returns a token; its answer lands wherever the link is
// read next (the service thread while the rank computes, or the wait), so gets to one target are
// in flight together. Puts and accumulates complete locally before they return (token 0).
//
// Links are made on first contact (init only exchanges each rank's listening address) and serve
// both directions (link.hpp): a process holds one socket per peer that it addressed or that
// addressed it, not one per rank of the job, and not two per pair.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "desc/runs.hpp"
#include "transport/base/idle_cpus.hpp"
#include "transport/plugin.hpp"
#include "transport/tcp/protocol.hpp"
#include "transport/tcp/link.hpp"
#include "transport/tcp/service.hpp"
#include "transport/tcp/sockets.hpp"

namespace armada::rma::detail {

struct TcpSettings {
  std::string interfaces;   // ARMADA_TCP_IF
  int spin_us = 50;         // ARMADA_TCP_SPIN_US: an origin waiting for an answer
  int service_spin_us = 50; // ARMADA_TCP_SERVICE_SPIN_US
  int waiter_poll_us = 2;   // ARMADA_TCP_WAITER_POLL_US
  int connect_timeout_ms = 10000;  // ARMADA_TCP_CONNECT_TIMEOUT_MS
};

class TcpTransport final : public Transport {
 public:
  TcpTransport(const TransportContext& context, const TcpSettings& settings);
  ~TcpTransport() override;

  TransportCaps caps() const noexcept override;
  bool suits_as_default(std::string& why) const override;
  std::uint64_t strided(const StridedOp& op, bool blocking) override;
  std::uint64_t vector(const VectorOp& op, bool blocking) override;
  std::uint64_t transfer_contiguous(OpKind kind, AccType type, const void* scale, std::byte* local, std::byte* remote,
                                    std::size_t bytes, const Slice& slice, int target, bool blocking) override;
  void put_notify(const StridedOp& data, const NotifyFlag& flag) override;
  void put_flag(const NotifyFlag& flag, int target) override;
  void rmw(RmwOp op, std::size_t width, void* remote, const Slice& slice, int target, const void* operand,
           const void* compare, void* result) override;
  void mutex_lock(void* word, const Slice& slice, int target) override;
  bool mutex_try_lock(void* word, const Slice& slice, int target) override;
  void mutex_unlock(void* word, const Slice& slice, int target) override;
  void wait(std::uint64_t token) override;
  bool test(std::uint64_t token) override;
  void fence(int target) override;
  void fence_all() override;
  void poll() override;
  void polling(bool starts) noexcept override;
  void describe(int target, TransportInfo& info) const override;

 private:
  // A nonblocking get's token: its target + 1 above kTokenSeqBits, its answer's number on the link below.
  static constexpr int kTokenSeqBits = 40;
  static constexpr std::uint64_t kTokenSeqMask = (std::uint64_t{1} << kTokenSeqBits) - 1;

  tcp::Link& link(const char* op, int target);  // connects on first contact
  bool introduced(tcp::Link& link);              // an accepted link's Hello: is it the pair's?
  void contacted(tcp::Link& link);               // a link requests go by, for fence_all
  bool in_request_loop(const tcp::Link& l, tcp::Header& h) const;  // sets h's kNextSoon
  tcp::WaitStyle wait_style(const char* op, int target, bool in_loop) const;
  void await(tcp::Link& l, const char* op, int target, std::uint64_t seq, bool in_loop = false);
  std::uint64_t ask(const char* op, int target, tcp::Header h);  // a request whose answer is a value
  void mark_written(tcp::Link::Writer& w, int target);
  void write_strided(const char* op, tcp::Header h, const StridedOp& op_desc);
  std::uint64_t get(const char* op, std::byte* local, std::byte* remote, const Shape& shape, int target, bool blocking);
  std::uint32_t mutex_word(const char* op, void* word, std::size_t field, RmwOp how, std::uint32_t operand,
                           std::uint32_t compare, const Slice& slice, int target);
  std::string describe_rank(int rank) const;

  int me_;
  std::uint64_t job_key_;
  TcpSettings settings_;
  long spin_ns_;
  std::int64_t waiter_poll_ns_;
  int stall_warn_s_;            // ARMADA_STALL_WARN
  const Topology& topology_;    // names a silent peer's host
  std::vector<tcp::Endpoint> endpoints_;
  std::unique_ptr<std::atomic<tcp::Link*>[]> links_;  // by world rank: the link requests go by; null until first contact
  std::unique_ptr<std::atomic<bool>[]> connecting_;   // by world rank: this process is opening a link to it
  std::mutex connect_mutex_;
  std::mutex written_mutex_;
  std::vector<int> written_;                     // targets written since their last Ack (may repeat)
  std::vector<tcp::Link*> contacted_;            // the links requests go by (under written_mutex_)
  IdleCpuProbe idle_cpu_;  // whether the service and an origin's wait may poll (before service_: it outlives it)
  std::unique_ptr<tcp::LinkHost> host_;          // before service_: the links use it until the service ends
  std::unique_ptr<tcp::Service> service_;
  std::atomic<std::int64_t> last_poll_ns_{0};  // when a waiter last served (poll)
};

}  // namespace armada::rma::detail
