// The tcp transport's service thread: one per process, it accepts the connections of the ranks
// that address this process and runs their requests on this process's memory, so a target
// makes progress whatever its own thread does (ARMCI's unilateral progress).
//
// It never polls while idle: it blocks in epoll_wait on the listening socket, the connections
// and a private eventfd (stop), so the arrival of a frame wakes it. That is the point of this
// transport beside the server one (which polls MPI): on a host where every core runs a rank, or
// where other processes compute, a request costs the kernel's wake-up, not a wait for a polling
// thread's turn. After a frame it keeps polling for ARMADA_TCP_SERVICE_SPIN_US, but only while
// the machine has an idle CPU (transport/base/idle_cpus.hpp): there the next request of a
// ping-pong saves the wake-up, and no thread that has work loses its core.
//
// A rank's own thread that waits in the library (a flag, a collective, a lock) serves too
// (poll_once, from the transport's poll()): it is awake and on a core already.
//
// Each connection is read into a buffer and parsed as a stream of frames (protocol.hpp); a
// contiguous put's payload beyond the buffer is received straight into the target memory.
// Accumulates take the node's stripe locks and atomics are hardware atomics on the same words
// the shm transport uses (NodeMemory), so they stay atomic with the node's own operations.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "transport/base/idle_cpus.hpp"
#include "transport/tcp/sockets.hpp"

namespace armada::rma::detail {
class NodeMemory;
}

namespace armada::rma::detail::tcp {

class Service {
 public:
  /// Reads what has arrived of the answers on one of this process's own connections (an
  /// origin's nonblocking gets), for `owner` (what watch_answers was given). Called by the
  /// service thread (before it takes the serving lock) and by whoever serves: it must take its
  /// connection's own lock without waiting for it. `may_wait`: it may wait for the rest of an
  /// answer that has begun (its sender is committed to it); false inside an answer of ours
  /// that waits for room, which must not wait on the network at all.
  using CollectAnswers = std::function<void(void* owner, bool may_wait)>;

  /// Starts the thread on `listener` (non-blocking). Frames of a connection whose Hello does not
  /// carry `job_key` are never run (a stray connection is closed).
  /// Polls for `spin_ns` after a frame while `idle_cpu` says a CPU is idle (it must outlive the service).
  Service(Fd listener, std::uint64_t job_key, int me, NodeMemory& memory, long spin_ns, const IdleCpuProbe& idle_cpu,
          CollectAnswers collect);

  /// Once answers arrive on `fd` (a connection this process opened), calls the collector for
  /// `owner` (8-byte aligned) from the serving thread, once: call again for the next answers.
  /// So a nonblocking get's data lands while the rank computes (unilateral progress).
  void watch_answers(int fd, void* owner);
  /// Stops and joins the thread, then closes every connection.
  ~Service();
  Service(const Service&) = delete;
  Service& operator=(const Service&) = delete;

  /// Serves what is ready now, unless the thread (or another waiter) is serving: for a rank's
  /// thread that waits in the library anyway (a flag, a collective), so that a request that
  /// comes meanwhile costs no wake-up of the service thread. Takes the serving lock only when
  /// something is ready.
  void poll_once();

  std::uint64_t frames() const noexcept { return frames_.load(std::memory_order_relaxed); }
  /// Connections served by a waiting rank's thread rather than the service thread.
  std::uint64_t waiter_serves() const noexcept { return waiter_frames_.load(std::memory_order_relaxed); }
  std::uint64_t wakeups() const noexcept { return wakeups_.load(std::memory_order_relaxed); }
  int connections() const noexcept { return connections_.load(std::memory_order_relaxed); }

  struct Connection;  // service.cpp

 private:
  void run();
  bool serve_ready(bool service_thread);   // false: stop (the service thread only)
  void accept_all();
  bool serve(Connection& c);               // false: the connection is done with
  bool consume(Connection& c);             // parses what is buffered
  bool begin_frame(Connection& c);         // its header is in
  bool begin_payload(Connection& c);       // its descriptor is in
  void deliver(Connection& c, const std::byte* data, std::size_t n);
  bool finish(Connection& c);              // runs the frame
  bool run_frame(Connection& c);
  bool reply(Connection& c, std::uint64_t value, const std::byte* data, std::size_t bytes);
  bool collect_while_blocked();            // false: stop
  void accumulate(const Connection& c, const std::byte* src, std::byte* dst, std::size_t bytes);
  void close(Connection& c);

  Fd listener_;
  std::uint64_t job_key_;
  int me_;
  NodeMemory& memory_;
  long spin_ns_;
  const IdleCpuProbe& idle_cpu_;
  CollectAnswers collect_;
  Fd epoll_;
  Fd stop_;
  std::vector<std::unique_ptr<Connection>> open_;
  bool partial_ = false;  // the connection served last stopped inside a frame
  std::mutex serve_mutex_;  // whoever serves (the thread, or a waiting rank) holds it
  std::atomic<std::uint64_t> frames_{0}, wakeups_{0}, waiter_frames_{0};
  std::atomic<int> connections_{0};
  std::thread thread_;
};

}  // namespace armada::rma::detail::tcp
