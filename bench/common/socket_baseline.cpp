#include "common/socket_baseline.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "common/timing.hpp"

namespace armada::bench {

namespace {

constexpr int kTagAddress = 901, kTagConnected = 902;
constexpr int kConnectTimeoutMs = 10000;

std::string system_error(const std::string& step) { return step + ": " + std::strerror(errno); }

/// What the target tells the origin: where it listens, or why it cannot.
struct Listening {
  std::uint32_t ip = 0;  // network order
  std::uint16_t port = 0;
  char error[240] = {};
};

/// This host's IPv4 address as its name resolves (the cluster's address, not the loopback, when
/// the name has one); 127.0.0.1 when the name resolves to nothing else.
std::uint32_t host_address() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  std::uint32_t ip = htonl(INADDR_LOOPBACK);
  if (getaddrinfo(name, nullptr, &hints, &found) != 0) return ip;
  for (addrinfo* a = found; a; a = a->ai_next) {
    const std::uint32_t candidate = reinterpret_cast<sockaddr_in*>(a->ai_addr)->sin_addr.s_addr;
    if ((ntohl(candidate) >> 24) != 127) {
      ip = candidate;
      break;
    }
  }
  freeaddrinfo(found);
  return ip;
}

void no_delay(int fd) {
  const int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

/// Target: a listening socket on every address, an ephemeral port.
Listening listen_socket(int& listener) {
  Listening l;
  auto failed = [&](const std::string& step) {
    std::snprintf(l.error, sizeof l.error, "%s", system_error(step).c_str());
    if (listener >= 0) ::close(listener);
    listener = -1;
    return l;
  };
  listener = socket(AF_INET, SOCK_STREAM, 0);
  if (listener < 0) return failed("socket");
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_ANY);
  socklen_t length = sizeof a;
  if (bind(listener, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) return failed("bind");
  if (listen(listener, 1) != 0) return failed("listen");
  if (getsockname(listener, reinterpret_cast<sockaddr*>(&a), &length) != 0) return failed("getsockname");
  l.ip = host_address();
  l.port = a.sin_port;
  return l;
}

/// Origin: connects within kConnectTimeoutMs; the socket, or -1 with `error` set.
int connect_to(const Listening& l, std::string& error) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  if (fd < 0) return error = system_error("socket"), -1;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = l.ip;
  a.sin_port = l.port;
  int rc = connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  if (rc != 0 && errno == EINPROGRESS) {
    pollfd p{fd, POLLOUT, 0};
    rc = poll(&p, 1, kConnectTimeoutMs) == 1 ? 0 : -1;
    int so_error = rc == 0 ? 0 : ETIMEDOUT;
    socklen_t length = sizeof so_error;
    if (rc == 0) getsockopt(fd, SOL_SOCKET, SO_ERROR, &so_error, &length);
    errno = so_error;
    rc = so_error == 0 ? 0 : -1;
  }
  if (rc != 0) {
    error = system_error("connect");
    ::close(fd);
    return -1;
  }
  // Sends block again (a stream waits for room in the socket); receives poll (receive_all).
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  no_delay(fd);
  return fd;
}

}  // namespace

bool SocketLink::open(MPI_Comm comm, int origin, int target) {
  close();
  int me = 0;
  MPI_Comm_rank(comm, &me);
  std::string error;
  if (me == target) {
    int listener = -1;
    const Listening l = listen_socket(listener);
    MPI_Send(&l, sizeof l, MPI_BYTE, origin, kTagAddress, comm);
    int connected = 0;
    MPI_Recv(&connected, 1, MPI_INT, origin, kTagConnected, comm, MPI_STATUS_IGNORE);
    if (listener >= 0 && connected) {  // the connection waits in the backlog: accept returns at once
      fd_ = accept(listener, nullptr, nullptr);
      if (fd_ < 0) error = system_error("accept");
      else no_delay(fd_);
    }
    if (listener >= 0) ::close(listener);
  } else if (me == origin) {
    Listening l;
    MPI_Recv(&l, sizeof l, MPI_BYTE, target, kTagAddress, comm, MPI_STATUS_IGNORE);
    if (l.error[0] != 0) error = std::string("rank ") + std::to_string(target) + ": " + l.error;
    else fd_ = connect_to(l, error);
    const int connected = fd_ >= 0;
    MPI_Send(&connected, 1, MPI_INT, target, kTagConnected, comm);
    char text[INET_ADDRSTRLEN] = {};
    inet_ntop(AF_INET, &l.ip, text, sizeof text);
    address_ = std::string(text) + ":" + std::to_string(ntohs(l.port));
  }
  // Every rank learns the outcome and, when it failed, the first failing rank's reason.
  int failed[2] = {!error.empty() || ((me == origin || me == target) && fd_ < 0), me}, first[2] = {0, 0};
  MPI_Allreduce(failed, first, 1, MPI_2INT, MPI_MAXLOC, comm);
  if (first[0] != 0) {
    if (error.empty() && me == first[1]) error = "no connection";
    int length = static_cast<int>(error.size());
    MPI_Bcast(&length, 1, MPI_INT, first[1], comm);
    error.resize(static_cast<std::size_t>(length));
    MPI_Bcast(error.data(), length, MPI_CHAR, first[1], comm);
    error_ = "TCP socket between ranks " + std::to_string(origin) + " and " + std::to_string(target) + ": " + error;
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    address_.clear();
  }
  return ok();
}

void SocketLink::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

void SocketLink::send_all(const std::byte* data, std::size_t bytes) const {
  while (bytes > 0) {
    const ssize_t n = ::send(fd_, data, bytes, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error(system_error("TCP socket baseline: send"));
    data += n;
    bytes -= static_cast<std::size_t>(n);
  }
}

// Polls by default, as MPI's and Armada's waiters do on an idle machine: a blocking recv adds the
// scheduler's wake-up (measured: 27-34 us one way blocking, against MPI's 8 us polling ping-pong
// over the same link), which is the cost of sleeping, not of the link. Receive::Sleep is that
// cost, for a full node where a polling receiver would wait for another process's time slice.
void SocketLink::receive_all(std::byte* data, std::size_t bytes, Receive how) const {
  const int flags = how == Receive::Poll ? MSG_DONTWAIT : 0;  // the socket itself blocks (connect_to, open)
  while (bytes > 0) {
    const ssize_t n = ::recv(fd_, data, bytes, flags);
    if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) continue;
    if (n == 0) throw std::runtime_error("TCP socket baseline: the peer closed the connection");
    if (n < 0) throw std::runtime_error(system_error("TCP socket baseline: recv"));
    data += n;
    bytes -= static_cast<std::size_t>(n);
  }
}

double SocketLink::pingpong(const std::byte* src, std::byte* dst, std::size_t bytes, std::size_t n,
                            const Rotation& rot, std::size_t first, Receive how) const {
  const auto t0 = Clock::now();
  for (std::size_t i = first; i < first + n; ++i) {
    send_all(src + rot.offset(i), bytes);
    receive_all(dst + rot.offset(i), bytes, how);
  }
  return seconds(t0, Clock::now());
}

void SocketLink::echo(std::byte* buffer, std::size_t bytes, std::size_t n, const Rotation& rot,
                      std::size_t first, Receive how) const {
  for (std::size_t i = first; i < first + n; ++i) {
    receive_all(buffer + rot.offset(i), bytes, how);
    send_all(buffer + rot.offset(i), bytes);
  }
}

double SocketLink::stream_send(const std::byte* src, std::size_t bytes, std::size_t n, const Rotation& rot,
                               std::size_t first) const {
  std::byte ack{};
  const auto t0 = Clock::now();
  for (std::size_t j = first; j < first + n; ++j) send_all(src + rot.offset(j), bytes);
  receive_all(&ack, 1);
  return seconds(t0, Clock::now());
}

void SocketLink::stream_receive(std::byte* buffers, std::size_t bytes, std::size_t n, const Rotation& rot,
                                std::size_t first) const {
  for (std::size_t j = first; j < first + n; ++j) receive_all(buffers + rot.offset(j), bytes);
  const std::byte ack{1};
  send_all(&ack, 1);
}

}  // namespace armada::bench
