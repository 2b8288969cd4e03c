// The tcp transport's socket plumbing: listening, connecting by the addresses a rank published,
// and moving whole frames over a stream (every call here either moves all its bytes or reports
// why not).
#pragma once

#include <sys/uio.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace armada::rma::detail::tcp {

/// An owned file descriptor (closed on destruction).
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) noexcept : fd_(fd) {}
  Fd(Fd&& o) noexcept : fd_(o.release()) {}
  Fd& operator=(Fd&& o) noexcept;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd();
  int get() const noexcept { return fd_; }
  int release() noexcept {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }
  explicit operator bool() const noexcept { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

/// Where a rank listens: its host's IPv4 addresses (network byte order) and its port. Fixed
/// size, so that init gathers every rank's with one MPI_Allgather.
struct Endpoint {
  static constexpr int kMaxAddresses = 4;
  std::uint32_t address[kMaxAddresses];
  std::uint16_t port;
  std::uint16_t count;
};

/// This host's IPv4 addresses to publish: those of the interfaces named in `only` (comma
/// separated; empty: every interface that is up, loopback excepted), in the kernel's order;
/// loopback alone when there is no other. Throws InvalidArgument (naming `op` and
/// ARMADA_TCP_IF) when `only` names no interface with an IPv4 address.
std::vector<std::uint32_t> local_addresses(const char* op, const std::string& only);

/// A listening socket on every interface, at a port the kernel picks (returned in `port`).
Fd listen_any(const char* op, std::uint16_t& port);

/// Connects to `to` (world rank `target`), trying each published address for up to
/// `timeout_ms`; the socket is blocking, with TCP_NODELAY and keep-alive probes. Throws
/// SystemError naming `op`, the rank and the addresses tried.
Fd connect_to(const char* op, const Endpoint& to, int target, int timeout_ms);

/// TCP_NODELAY (a frame leaves at once) and keep-alive probes (a peer whose host vanished is
/// noticed in about half a minute, not after TCP's retransmissions give up).
void tune(int fd) noexcept;

/// Readiness (poll, epoll) reports `fd` readable only once `bytes` have arrived, or at the end of
/// the stream or an error (SO_RCVLOWAT; 1, the default: any byte). Returns 0 or the errno.
int set_receive_low_water(int fd, int bytes) noexcept;

/// Sends every byte of `parts` (modified: advanced past what was sent), waiting in poll() for
/// room. Returns 0, or the errno that stopped it. With `while_blocked`, the sends never block
/// and it is called whenever no room has come for kBlockedCheckMs (the peer is not reading: it
/// may be waiting for the caller to read something else first); its exceptions pass through,
/// and false gives up (ECANCELED).
int send_all(int fd, iovec* parts, int count, const std::function<bool()>& while_blocked = {});
inline constexpr int kBlockedCheckMs = 1;

/// Receives exactly `n` bytes. Polls without blocking while bytes keep coming, and for up to
/// `spin_ns` since the last ones (an answer that comes within microseconds is not paid a
/// wake-up, nor is every segment of a large one); then sleeps until the rest is in.
/// Returns 0, the errno, or ECONNRESET when the peer closed the stream.
/// `first_byte_ms` > 0: returns ETIMEDOUT, having received nothing, when no byte came within
/// that many milliseconds (the caller warns of a silent peer and waits on).
int recv_all(int fd, void* into, std::size_t n, long spin_ns, int first_byte_ms = -1) noexcept;

/// "10.1.0.2:40123, 10.2.0.2:40123": for error messages.
std::string describe(const Endpoint& e);

}  // namespace armada::rma::detail::tcp
