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
// written since the last fence and waits for its answer (TCP delivers in order and the service
// runs a connection's frames in order, so the answer means every earlier write ran);
// `fence_all` asks every written target at once, then waits. A put_notify is one frame whose
// flag update the service applies after the data. Gets, atomics and mutex steps are a request
// and its answer on the same connection. A nonblocking get sends its request and returns a
// token; its answer is read by the wait (answers come in order: whoever reads the connection
// next reads the pending gets' answers first), so gets to one target are in flight together.
// Puts and accumulates complete locally before they return (token 0).
//
// Connections are made on first contact (init only exchanges each rank's listening address), so
// a rank holds one socket per peer it addressed, not one per rank of the job.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "desc/runs.hpp"
#include "transport/base/idle_cpus.hpp"
#include "transport/plugin.hpp"
#include "transport/tcp/protocol.hpp"
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
  void describe(int target, TransportInfo& info) const override;

 private:
  struct PendingGet {
    std::byte* local;
    Shape shape;                      // the local side's runs (dst strides)
  };
  // One frame at a time on a connection, and its answers read in order. The service thread,
  // finding it held while answers arrive (collect_answers), leaves them to the holder and says
  // so; the unlock then re-arms the answers' watch (the holder may only have been sending), so
  // the service neither spins on a held lock nor leaves the answers unread until the wait.
  class PeerLock {
   public:
    explicit PeerLock(std::function<void()> rearm) : rearm_(std::move(rearm)) {}
    void lock() { m_.lock(); }
    bool try_lock() { return m_.try_lock(); }
    void unlock() {
      m_.unlock();
      if (turned_away_.exchange(false)) rearm_();  // a read-modify-write: ordered after the unlock
    }
    /// From the service, before it tries the lock: a holder that lets go from now on re-arms.
    void turn_away() { turned_away_.store(true); }
    void taken() { turned_away_.store(false, std::memory_order_relaxed); }  // the service got it after all

   private:
    std::mutex m_;
    std::atomic<bool> turned_away_{false};
    std::function<void()> rearm_;
  };
  struct Peer {
    explicit Peer(std::function<void()> rearm) : lock(std::move(rearm)) {}
    PeerLock lock;
    tcp::Fd fd;
    bool written = false;             // a write went out since the last Ack
    int rank = -1;
    std::deque<PendingGet> gets;      // requested, answer not read yet (nonblocking gets)
    std::uint64_t gets_issued = 0, gets_done = 0;
    std::string broken;               // why the stream failed while the service read answers
    std::vector<std::byte> scratch;   // packing strided and vector data; a vector get's answer
    // The front pending get's answer as far as it has been read: its Reply, its payload bytes,
    // the runs a strided one goes to, and the chunk on its way there.
    tcp::Reply reply{};
    std::size_t reply_got = 0;
    std::uint64_t payload_got = 0;
    std::optional<RunWalker> walker;
    std::vector<std::byte> unpack;
  };
  // A nonblocking get's token: its target + 1 above kTokenSeqBits, its number on the connection below.
  static constexpr int kTokenSeqBits = 40;
  static constexpr std::uint64_t kTokenSeqMask = (std::uint64_t{1} << kTokenSeqBits) - 1;

  Peer& peer(const char* op, int target);
  void send(Peer& p, const char* op, int target, iovec* parts, int count);
  void receive(Peer& p, const char* op, int target, void* into, std::size_t bytes);
  tcp::Reply ask(Peer& p, const char* op, int target, const tcp::Header& h);
  void mark_written(Peer& p, int target);
  tcp::Reply answer(Peer& p, const char* op, int target);  // after the pending gets' answers
  void write_strided(const char* op, tcp::Header h, const StridedOp& op_desc);
  std::uint64_t get(const char* op, std::byte* local, std::byte* remote, const Shape& shape, int target, bool blocking);
  void finish_gets(Peer& p, const char* op, int target, std::uint64_t seq);
  bool read_answer_piece(Peer& p, const char* op, int target, bool blocking);
  void read_arrived_answers(Peer& p, const char* op, int target, bool finish_begun);
  [[noreturn]] void fail_receiving(const char* op, int target, int error) const;
  void collect_answers(Peer& p, bool may_wait);  // the service's part in nonblocking gets
  std::uint32_t mutex_word(const char* op, void* word, std::size_t field, RmwOp how, std::uint32_t operand,
                           std::uint32_t compare, const Slice& slice, int target);

  int me_;
  std::uint64_t job_key_;
  TcpSettings settings_;
  long spin_ns_;
  std::int64_t waiter_poll_ns_;
  int stall_warn_s_;            // ARMADA_STALL_WARN
  const Topology& topology_;    // names a silent peer's host
  std::vector<tcp::Endpoint> endpoints_;
  std::unique_ptr<std::atomic<Peer*>[]> peers_;  // by world rank; null until first contact
  std::mutex connect_mutex_;
  std::vector<std::unique_ptr<Peer>> connected_;  // under connect_mutex_
  std::atomic<int> connections_out_{0};           // its size, for describe() from any thread
  std::mutex written_mutex_;
  std::vector<int> written_;                     // targets written since their last Ack (may repeat)
  IdleCpuProbe idle_cpu_;  // whether the service and an origin's wait may poll (before service_: it outlives it)
  std::unique_ptr<tcp::Service> service_;
  std::atomic<std::int64_t> last_poll_ns_{0};  // when a waiter last served (poll)
};

}  // namespace armada::rma::detail
