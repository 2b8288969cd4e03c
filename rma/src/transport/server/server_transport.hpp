// The origin side of the server protocol: every rank's transport to targets on other nodes.
//
// Gets, atomics and mutex requests get a reply from the target's server each. Writes (puts,
// accumulates, a put_notify's separate flag) are acknowledged lazily: the server counts the
// writes it ran for this origin, and the write that takes half of the credits since the last
// count asked for (or the last credit) asks for the count (protocol.hpp, ReplyMode); a fence
// sends one Ack to each server written since its last count and waits for the counts. Replies
// and counts return the origin's credit with its first-hop server: at most
// ARMADA_SERVER_BUFFERS requests are in flight to one server, the number of buffers that server
// posted for this origin.
//
// Nonblocking gets complete in the background: MPI two-sided data moves only when the receiver
// is inside MPI (a rendezvous needs the receiver to match it), so a rank computing between
// get_nb and wait would leave the target's server stuck mid-send and hide nothing. A completer
// thread (ARMADA_SERVER_ORIGIN_PROGRESS) drives this rank's receives while such a get is in
// flight, the role a NIC's DMA engine plays for ARMCI on RDMA networks; it blocks on a condition
// variable when none is.
#pragma once

#include <mpi.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "transport/server/node_server.hpp"
#include "desc/runs.hpp"
#include "transport/transport.hpp"

namespace armada::rma::detail {

class ServerTransport final : public Transport {
 public:
  /// Takes over `comm` (freed at destruction) and this node's server, if this rank runs it
  /// (started already; `rss_growth_kb`: what starting it added to this process's VmRSS).
  ServerTransport(int rank, MPI_Comm comm, ServerMap map, ServerSettings settings, std::unique_ptr<NodeServer> node_server,
                  long rss_growth_kb);
  ~ServerTransport() override;  // stops the node server, then the completer thread
  TransportCaps caps() const noexcept override;

  std::uint64_t strided(const StridedOp& op, bool blocking) override { return strided(op, blocking, nullptr); }
  /// The data and the flag in one request when the flag lies in the data's slice (the server
  /// maps both alike), else the put's request then a flag request that nobody waits for: either
  /// way the server executes them in that order, and no round trip is waited for.
  void put_notify(const StridedOp& data, const NotifyFlag& flag) override;
  std::uint64_t vector(const VectorOp& op, bool blocking) override;

  void rmw(RmwOp op, std::size_t width, void* remote, const Slice& slice, int target,
           const void* operand, const void* compare, void* result) override;
  void mutex_lock(void* word, const Slice& slice, int target) override;
  bool mutex_try_lock(void* word, const Slice& slice, int target) override;
  void mutex_unlock(void* word, const Slice& slice, int target) override;

  void wait(std::uint64_t token) override;
  bool test(std::uint64_t token) override;
  void fence(int target) override;
  void fence_all() override;
  void poll() override;

  void segment_created(const SegmentSpec& spec, std::span<Slice> slices, std::span<const NodeObjectRef> objects) override;
  void segment_freed(const SegmentSpec& spec) override;
  void allocation_abandoned(const SegmentSpec& spec) override { segment_freed(spec); }
  void describe(int target, TransportInfo& info) const override;

  /// Whether transfers to `target` beyond the inline size are copied by its server directly.
  bool direct_to(int target) const { return settings_.direct && map_.same_host(me_, map_.target_server(target)); }

 private:
  struct Op {
    std::uint64_t token;
    int server;   // executes the request and replies
    int hop;      // received it first (holds our credit)
    int target;
    bool has_waiter;                 // a token was handed out: keep it until wait()
    std::vector<MPI_Request> requests;  // [0]: the reply; then data receives
    server::Reply reply{};
    std::vector<std::byte> staging;  // get data on its way to non-contiguous local memory
    std::optional<RunWalker> unpack;
    bool done = false;
    bool background = false;         // a nonblocking get the completer thread drives
    bool data_in_reply = false;      // a small get: staging receives the Reply, then the data
    // A lock request: its reply waits until the holder unlocks, so it does not complete by
    // itself and fences must not wait for it (the holder's unlock fences first).
    bool awaits_grant = false;
    bool counts = false;  // its reply carries the server's count of this rank's lazy writes
    bool lazy = false;    // a lazy write itself: its credit comes back with a count
  };

  /// This rank's lazy writes to one server (the executing one): how many it issued, how many
  /// the server's last count says ran, how many the counts asked for so far cover.
  struct LazyWrites {
    std::uint64_t issued = 0, acked = 0, asked = 0;
    int hop = -1;          // their first hop (one per server), whose credits they hold
    int target = -1;       // a rank the server serves (an Ack request's target)
    int counts_in_flight = 0;
  };

  /// What the issuing thread keeps of an operation: once its request is out, another thread's
  /// progress may complete and free the Op itself.
  struct Ticket {
    std::uint64_t token;
    int server;
    int hop;
    std::uint8_t reply_mode = server::kReplyEach;
  };

  server::Header header(server::Kind kind, int target, const Slice* slice) const;
  /// `notify`: a put's flag to set in the same request (its slice is the data's).
  std::uint64_t strided(const StridedOp& op, bool blocking, const NotifyFlag* notify);
  /// Registers an operation once a credit with its first hop is free: under the lock, runs
  /// `prepare` (staging, data receives) and posts the reply receive, before any byte is sent.
  template <class Prepare>
  Ticket begin(int target, bool has_waiter, Prepare&& prepare);
  Ticket begin(int target, bool has_waiter);
  /// Waits for a credit with `hop` and takes it; returns with `lock` (of mutex_) held.
  void take_credit(int hop, std::unique_lock<std::mutex>& lock);
  template <class Prepare>
  Ticket register_locked(int target, int server, int hop, bool has_waiter, Prepare&& prepare);
  /// Registers a lazy write (no reply of its own unless it asks for the count: see the top).
  Ticket begin_write(int target);
  /// Asks `server` for its count of this rank's lazy writes (an Ack request; takes a credit).
  void ask_count(int server);
  /// Takes a count reply: returns the credits of the writes it newly covers, keeps a failure.
  void take_count_locked(Op& op);
  /// Waits until every lazy write issued before the call to the servers `written` lists ran.
  void fence_lazy(const std::vector<int>& servers);
  /// MPI_Send that says which rank and host it waits for when the send stalls (StallWatch): a
  /// large message, or a small one the peer's MPI has no room for, needs the peer to take it.
  /// `last`: the operation's last message (see complete_send).
  void send_watched(const void* data, std::size_t bytes, int to, int tag, bool last = false);
  /// Completes a send of this rank's to `to`; when it is its operation's `last` message, serving
  /// this rank's node server meanwhile.
  void complete_send(MPI_Request& request, int to, bool last);
  void send_request(const Ticket& t, const server::Header& h, const std::byte* payload, std::size_t bytes);
  /// Sends a request whose vector descriptor rides inside it when it fits the inline payload,
  /// else follows as the first TO_SERVER message (where the server looks for it).
  void send_request_with(const Ticket& t, const server::Header& h, std::span<const std::byte> desc);
  void send_data(const Ticket& t, RunWalker local, std::size_t bytes, const std::byte* contiguous, std::size_t piece);
  void post_data_receives(Op& op, std::byte* into, std::size_t bytes, std::size_t piece);  // under the lock
  /// Waits until `pred` holds for the ops; spins, then sleeps with a bounded backoff.
  template <class Pred>
  void wait_until(Pred&& pred);
  void progress_locked();
  /// After progress_locked's test: finishes `op` if every request of it completed, or if its
  /// server refused it (withdrawing the data receives).
  void settle_locked(Op& op);
  /// The servers whose replies a fence waits for, with their hosts and targets ("" if none).
  std::string unanswered_locked() const;
  void completer_loop();
  void finish_locked(Op& op);
  void raise_deferred();
  /// Whether the target's server copies this transfer's data itself (direct.hpp): bigger than
  /// a request's inline payload, and the server on this process's host.
  bool direct_for(int target, std::size_t bytes) const;
  /// Issues a direct transfer: `contiguous` is the local side when it is one run; otherwise the
  /// data goes through a staging buffer, packed from `local` first (put, acc) or unpacked into
  /// it when the reply arrives (get). `desc` is a vector request's descriptor.
  std::uint64_t issue_direct(server::Header h, int target, std::byte* contiguous, std::optional<RunWalker> local,
                             std::span<const std::byte> desc, bool blocking, const char* what);
  /// The descriptor of a vector request (desc) and its local runs; returns the data bytes.
  static std::size_t vector_descriptor(const VectorOp& o, std::vector<std::byte>& desc,
                                       std::vector<std::pair<std::byte*, std::size_t>>& local);
  /// Issues a put or accumulate: inside the request when it fits the inline payload (`desc`,
  /// a vector request's descriptor, first), else the request, the descriptor, then the data
  /// (straight from `contiguous` when the local side is one run).
  void issue_write(const server::Header& h, int target, RunWalker local, const std::byte* contiguous,
                   std::vector<std::byte>* desc);
  /// Issues a get whose data comes back as messages, into `contiguous` or through staging.
  std::uint64_t issue_get(const server::Header& h, int target, std::byte* contiguous, RunWalker local,
                          std::span<const std::byte> desc, bool blocking, const char* what);
  /// Issues a small get whose data comes back inside the reply (one message to match).
  std::uint64_t get_in_reply(server::Header h, int target, RunWalker local, std::span<const std::byte> desc,
                             bool blocking, const char* what);
  /// Sends a request that carries no data and waits for its reply. `awaits_grant`: a lock
  /// request, which fences do not wait for.
  server::Reply round_trip(const server::Header& h, int target, bool awaits_grant = false);
  /// Whether a fence waits for `op`: everything in flight except lock requests.
  static bool fence_waits_for(const Op& op) { return !op.done && !op.awaits_grant; }
  [[noreturn]] void fail(const char* what, int target, std::int32_t status, std::uint64_t value = 0);
  void complete(std::uint64_t token, const char* what);

  int me_;
  MPI_Comm comm_;
  ServerMap map_;
  ServerSettings settings_;
  std::unique_ptr<NodeServer> node_server_;  // on the first rank of each node
  long rss_growth_kb_ = 0;
  std::mutex mutex_;
  std::unordered_map<std::uint64_t, std::unique_ptr<Op>> ops_;
  std::vector<int> in_flight_;  // per first-hop server
  std::unordered_map<int, LazyWrites> lazy_;  // per server written (not sized by P)
  std::atomic<std::uint64_t> next_token_{1};
  std::string deferred_error_;   // a put/accumulate the target's server could not execute
  // progress_locked's scratch (under mutex_): every pending request, and where each op's start.
  std::vector<MPI_Request> pending_;
  std::vector<std::pair<Op*, std::size_t>> pending_ops_;
  std::vector<int> completed_;

  // The completer thread (under mutex_): nonblocking gets in flight, and the stop request.
  int background_gets_ = 0;
  bool stopping_ = false;
  std::condition_variable completer_cv_;
  std::thread completer_;
};

}  // namespace armada::rma::detail
