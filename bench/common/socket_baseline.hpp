// The physical limit of the link between two ranks, as the benchmarks measure it beside MPI and
// Armada: a plain TCP connection (TCP_NODELAY, blocking sends, receives that poll the socket
// like MPI's and Armada's waiters poll, or sleep in the kernel as theirs do on a full node;
// nothing else) between them, with a ping-pong and a stream over it. Across hosts it takes the
// route the hosts' names resolve to (the address MPI's TCP traffic uses when the hostfile names
// hosts); on one host, the loopback. It is what a program that owned the link and no runtime could reach: the floor under
// every transport's latency and the ceiling of its bandwidth on TCP (docs/benchmarks.md).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <string>

#include "common/sizes.hpp"

namespace armada::bench {

/// How a receiver waits for its bytes: polling the socket (what MPI's and Armada's waiters do
/// while a CPU is idle: no wake-up to pay) or asleep in the kernel until they come (what
/// Armada's do when every CPU has work: a polling thread would hold a core another wants).
enum class Receive { Poll, Sleep };

class SocketLink {
 public:
  SocketLink() = default;
  SocketLink(const SocketLink&) = delete;
  SocketLink& operator=(const SocketLink&) = delete;
  ~SocketLink() { close(); }

  /// Collective over `comm`: `origin` connects to a listening socket of `target` (ranks of
  /// `comm`); other ranks only learn the outcome. Failures are not fatal: ok() is then false on
  /// every rank and error() says which step failed and why.
  bool open(MPI_Comm comm, int origin, int target);
  void close();

  bool ok() const noexcept { return fd_ >= 0; }
  const std::string& error() const noexcept { return error_; }
  /// "a.b.c.d:port" the origin connected to (empty when not open).
  const std::string& peer_address() const noexcept { return address_; }

  /// Origin: n round trips of `bytes`, sending from src + rot.offset(first + i) and receiving
  /// the echo into dst + rot.offset(first + i) as `how` says; seconds.
  double pingpong(const std::byte* src, std::byte* dst, std::size_t bytes, std::size_t n, const Rotation& rot,
                  std::size_t first = 0, Receive how = Receive::Poll) const;
  /// Target: receive (as `how` says) and send back n times, round trip i in buffer + rot.offset(first + i).
  void echo(std::byte* buffer, std::size_t bytes, std::size_t n, const Rotation& rot, std::size_t first = 0,
            Receive how = Receive::Poll) const;
  /// Origin: n messages of `bytes` written back to back from src + rot.offset(first + j), then
  /// the target's one-byte acknowledgement; seconds.
  double stream_send(const std::byte* src, std::size_t bytes, std::size_t n, const Rotation& rot,
                     std::size_t first = 0) const;
  /// Target: n messages into buffers + rot.offset(first + j), then the acknowledgement.
  void stream_receive(std::byte* buffers, std::size_t bytes, std::size_t n, const Rotation& rot,
                      std::size_t first = 0) const;

 private:
  void send_all(const std::byte* data, std::size_t bytes) const;
  void receive_all(std::byte* data, std::size_t bytes, Receive how = Receive::Poll) const;

  int fd_ = -1;
  std::string error_;
  std::string address_;
};

}  // namespace armada::bench
