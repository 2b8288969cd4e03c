#include "transport/tcp/sockets.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <sstream>

#include "common/check.hpp"
#include "transport/base/waiting.hpp"

namespace armada::rma::detail::tcp {

Fd& Fd::operator=(Fd&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = o.release();
  }
  return *this;
}

Fd::~Fd() {
  if (fd_ >= 0) ::close(fd_);
}

namespace {

bool named_in(const std::string& list, const char* name) {
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');)
    if (item == name) return true;
  return false;
}

std::string dotted(std::uint32_t address) {
  char text[INET_ADDRSTRLEN] = {};
  in_addr a{};
  a.s_addr = address;
  inet_ntop(AF_INET, &a, text, sizeof text);
  return text;
}

// One non-blocking connect, waited for up to `timeout_ms`. Returns 0 or the errno.
int try_connect(int fd, std::uint32_t address, std::uint16_t port, int timeout_ms) {
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(port);
  to.sin_addr.s_addr = address;
  const int flags = fcntl(fd, F_GETFL);
  fcntl(fd, F_SETFL, flags | O_NONBLOCK);
  int error = 0;
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&to), sizeof to) != 0) {
    error = errno;
    if (error == EINPROGRESS) {
      pollfd p{fd, POLLOUT, 0};
      const int ready = ::poll(&p, 1, timeout_ms);
      socklen_t length = sizeof error;
      if (ready == 0) error = ETIMEDOUT;
      else if (ready < 0) error = errno;
      else getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length);
    }
  }
  fcntl(fd, F_SETFL, flags);
  return error;
}

}  // namespace

std::vector<std::uint32_t> local_addresses(const char* op, const std::string& only) {
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) throw_system(op, "getifaddrs", errno);
  std::vector<std::uint32_t> found, loopback;
  for (const ifaddrs* i = list; i; i = i->ifa_next) {
    if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || !(i->ifa_flags & IFF_UP)) continue;
    const std::uint32_t a = reinterpret_cast<const sockaddr_in*>(i->ifa_addr)->sin_addr.s_addr;
    if (!only.empty()) {
      if (named_in(only, i->ifa_name)) found.push_back(a);
    } else {
      (i->ifa_flags & IFF_LOOPBACK ? loopback : found).push_back(a);
    }
  }
  freeifaddrs(list);
  if (!only.empty() && found.empty())
    throw_invalid(op, "ARMADA_TCP_IF", "'" + only + "'", "no interface of that name with an IPv4 address is up on this host");
  if (found.empty()) found = loopback;
  if (found.size() > Endpoint::kMaxAddresses) found.resize(Endpoint::kMaxAddresses);
  return found;
}

Fd listen_any(const char* op, std::uint16_t& port) {
  Fd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (!fd) throw_system(op, "socket", errno);
  sockaddr_in any{};
  any.sin_family = AF_INET;
  any.sin_addr.s_addr = htonl(INADDR_ANY);
  if (::bind(fd.get(), reinterpret_cast<const sockaddr*>(&any), sizeof any) != 0) throw_system(op, "bind", errno);
  if (::listen(fd.get(), SOMAXCONN) != 0) throw_system(op, "listen", errno);
  socklen_t length = sizeof any;
  if (getsockname(fd.get(), reinterpret_cast<sockaddr*>(&any), &length) != 0) throw_system(op, "getsockname", errno);
  port = ntohs(any.sin_port);
  return fd;
}

void tune(int fd) noexcept {
  const int one = 1, idle_s = 10, interval_s = 5, probes = 3;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
  setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle_s, sizeof idle_s);
  setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval_s, sizeof interval_s);
  setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &probes, sizeof probes);
}

int set_receive_low_water(int fd, int bytes) noexcept {
  return setsockopt(fd, SOL_SOCKET, SO_RCVLOWAT, &bytes, sizeof bytes) == 0 ? 0 : errno;
}

Fd connect_to(const char* op, const Endpoint& to, int target, int timeout_ms) {
  int error = EHOSTUNREACH;
  for (int i = 0; i < to.count; ++i) {
    Fd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!fd) throw_system(op, "socket", errno);
    error = try_connect(fd.get(), to.address[i], to.port, timeout_ms);
    if (error == 0) {
      tune(fd.get());
      return fd;
    }
  }
  throw_system(op, "connecting to rank " + std::to_string(target) + " at " + describe(to), error);
}

int send_all(int fd, iovec* parts, int count, const std::function<bool()>& while_blocked) {
  const int flags = MSG_NOSIGNAL | (while_blocked ? MSG_DONTWAIT : 0);
  while (count > 0) {
    msghdr m{};
    m.msg_iov = parts;
    m.msg_iovlen = static_cast<std::size_t>(count < IOV_MAX ? count : IOV_MAX);
    const ssize_t sent = ::sendmsg(fd, &m, flags);
    if (sent < 0) {
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) return errno;
      pollfd p{fd, POLLOUT, 0};
      const int ready = ::poll(&p, 1, while_blocked ? kBlockedCheckMs : -1);
      if (ready < 0 && errno != EINTR) return errno;
      if (ready == 0 && !while_blocked()) return ECANCELED;
      continue;
    }
    auto left = static_cast<std::size_t>(sent);
    while (count > 0 && left >= parts->iov_len) {
      left -= parts->iov_len;
      ++parts;
      --count;
    }
    if (count > 0) {
      parts->iov_base = static_cast<std::byte*>(parts->iov_base) + left;
      parts->iov_len -= left;
    }
  }
  return 0;
}

int recv_all(int fd, void* into, std::size_t n, long spin_ns, int first_byte_ms) noexcept {
  using Clock = std::chrono::steady_clock;
  auto* at = static_cast<std::byte*>(into);
  auto spin_until = Clock::now() + std::chrono::nanoseconds(spin_ns);
  bool spinning = spin_ns > 0;
  bool watched = first_byte_ms > 0;  // until the first byte comes
  while (n > 0) {
    if (watched && !spinning) {
      pollfd p{fd, POLLIN, 0};
      const int ready = ::poll(&p, 1, first_byte_ms);
      if (ready == 0) return ETIMEDOUT;
      if (ready < 0 && errno != EINTR) return errno;
      watched = false;
    }
    const ssize_t got = ::recv(fd, at, n, spinning ? MSG_DONTWAIT : MSG_WAITALL);
    if (got == 0) return ECONNRESET;
    if (got < 0) {
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) return errno;
      if (Clock::now() >= spin_until) spinning = false;
      cpu_relax();
      continue;
    }
    at += got;
    n -= static_cast<std::size_t>(got);
    watched = false;
    // Bytes keep coming: keep polling (each sleep would cost a wake-up per segment the link delivers).
    if (spinning) spin_until = Clock::now() + std::chrono::nanoseconds(spin_ns);
  }
  return 0;
}

std::string describe(const Endpoint& e) {
  std::string text;
  for (int i = 0; i < e.count; ++i)
    text += (i ? ", " : "") + dotted(e.address[i]) + ":" + std::to_string(e.port);
  return text.empty() ? "(no address)" : text;
}

}  // namespace armada::rma::detail::tcp
