#include "transport/tcp/service.hpp"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "common/check.hpp"
#include "common/tsan.hpp"
#include "transport/base/waiting.hpp"

namespace armada::rma::detail::tcp {

namespace {

constexpr const char* kOp = "rma::init (tcp service)";
// How often a polling service thread looks again whether a CPU is still idle (a look is a pread
// of /proc/loadavg, 1.8-2.6 us on a VM) and at its own set (stop, new connections): between looks
// it polls the links alone (a recv on the link served last, an epoll_wait on the others), so a
// request waits for little more than those. Where the ranks want every CPU, it stops within IdleCpuProbe::kBusyLooks looks; a thread
// that runs for less than a few looks (a rank testing an MPI request, a kernel thread) does not
// stop it (docs/rma.md, tcp "Progress").
constexpr auto kIdleCheckEvery = std::chrono::microseconds(10);
// epoll tags: in the service's set, kStopTag, kListenerTag and kLinksTag (the links' set); in
// the links' set, a link's address.
constexpr std::uint64_t kStopTag = 0, kListenerTag = 1, kLinksTag = 2;

void watch(int epoll_fd, int op, int fd, std::uint32_t events, std::uint64_t tag) {
  epoll_event event{};
  event.events = events;
  event.data.u64 = tag;
  if (epoll_ctl(epoll_fd, op, fd, &event) != 0) throw_system(kOp, "epoll_ctl", errno);
}

}  // namespace

Service::Service(Fd listener, LinkHost& host, long spin_ns, const IdleCpuProbe& idle_cpu)
    : listener_(std::move(listener)), host_(host), spin_ns_(spin_ns), idle_cpu_(idle_cpu) {
  epoll_ = Fd(epoll_create1(EPOLL_CLOEXEC));
  links_epoll_ = Fd(epoll_create1(EPOLL_CLOEXEC));
  if (!epoll_ || !links_epoll_) throw_system(kOp, "epoll_create1", errno);
  stop_ = Fd(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  if (!stop_) throw_system(kOp, "eventfd", errno);
  watch(epoll_.get(), EPOLL_CTL_ADD, stop_.get(), EPOLLIN, kStopTag);
  watch(epoll_.get(), EPOLL_CTL_ADD, listener_.get(), EPOLLIN, kListenerTag);
  watch(epoll_.get(), EPOLL_CTL_ADD, links_epoll_.get(), EPOLLIN, kLinksTag);  // level-triggered: while a watch has fired
  host_.rearm = [this](Link& link, bool output) { rearm(link, output); };
  host_.disarm = [this](Link& link) {
    epoll_event event{};  // registered, reporting nothing (but a hang-up or an error, once)
    event.events = EPOLLONESHOT;
    event.data.u64 = reinterpret_cast<std::uint64_t>(&link);
    epoll_ctl(links_epoll_.get(), EPOLL_CTL_MOD, link.fd(), &event);
  };
  thread_ = std::thread([this] { run(); });
}

Service::~Service() {
  const std::uint64_t one = 1;
  if (::write(stop_.get(), &one, sizeof one) < 0) std::abort();  // an eventfd write cannot fail here
  thread_.join();
}

void Service::run() {
  // The thread is a remote agent for ThreadSanitizer (common/tsan.hpp): it writes this process's
  // memory for other ranks, ordered with the application's reads by what TSan cannot see (the
  // origin's fence and a barrier, a flag).
  const TsanRemoteAgentScope agent;
  using Clock = std::chrono::steady_clock;
  auto last_frame = Clock::now();
  auto last_look = last_frame;  // at the service's own set, while polling
  for (;;) {
    // Spin only between frames, and only while a CPU is idle or the origin said its next request
    // follows (kNextSoon: it sends back to back and polls for its answers): while a frame's
    // payload streams in, polling would take the core the sender's kernel needs (on a small host,
    // half the bandwidth of a 1 MiB put); and a polling thread on a busy host waits for a time
    // slice when the next frame comes, where a sleeping one is woken at once (idle_cpus.hpp) —
    // unless that frame comes within the window, as in an origin's loop, where polling at both
    // ends saves each request and each answer its wake-up (docs/rma.md, tcp "Progress").
    const bool spin = spin_ns_ > 0 && !mid_frame_ && Clock::now() - last_frame < std::chrono::nanoseconds(spin_ns_) &&
                      (next_soon_ || idle_cpu_.idle_cpu(kIdleCheckEvery));
    // Polling: the link served last directly (the next request of a ping-pong comes on it: one
    // system call reads it), then the links' set, whether or not a waiter switched it off; the
    // service's own set once per kIdleCheckEvery.
    if (spin) {
      if (look_at_last(true) || serve_links()) {
        last_frame = Clock::now();
        continue;
      }
      if (Clock::now() - last_look < kIdleCheckEvery) {
        cpu_relax();
        continue;
      }
      last_look = Clock::now();
    }
    epoll_event ready[16];
    const int n = epoll_wait(epoll_.get(), ready, 16, spin ? 0 : -1);
    if (n < 0) {
      if (errno == EINTR) continue;
      std::fprintf(stderr, "%sarmada::rma tcp service: epoll_wait: %s\n", rank_prefix().c_str(), std::strerror(errno));
      std::abort();  // no request could be served any more: a silent stop would hang every origin
    }
    if (n == 0) {
      cpu_relax();
      continue;
    }
    if (!spin) wakeups_.fetch_add(1, std::memory_order_relaxed);
    bool served = false;
    for (int i = 0; i < n; ++i) {
      const std::uint64_t tag = ready[i].data.u64;
      if (tag == kStopTag) return;
      if (tag == kListenerTag) {
        accept_all();
        served = true;
        continue;
      }
      served |= serve_links();  // kLinksTag: a watch has fired (a waiter may have taken it meanwhile)
    }
    // A link another thread was reading (an origin waiting for its answer) is no reason to poll.
    if (served) last_frame = Clock::now();
  }
}

bool Service::serve_links() {
  epoll_event ready[16];
  const int n = epoll_wait(links_epoll_.get(), ready, 16, 0);
  bool served = false;
  for (int i = 0; i < n; ++i) served |= serve_event(ready[i].data.u64, true);
  return served;
}

// The link served last, by this thread or a waiter: the next frame of a ping-pong or of a
// halo exchange comes on it. A look there is one recv, and a frame found so leaves the link's
// watch armed (Link::look): no epoll_wait before it, no epoll_ctl after it.
bool Service::look_at_last(bool service_thread) {
  Link* last = last_served_.load(std::memory_order_acquire);
  if (!last) return false;
  const Link::Turn turn = last->look(service_thread);
  if (turn == Link::Turn::Done) {
    Link* expected = last;
    last_served_.compare_exchange_strong(expected, nullptr);
  }
  if (turn != Link::Turn::Served) return false;
  if (service_thread) {
    mid_frame_ = last->mid_frame();
    next_soon_ = last->next_soon();
  }
  direct_reads_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

bool Service::serve_event(std::uint64_t tag, bool service_thread) {
  Link& link = *reinterpret_cast<Link*>(tag);
  if (link.serve(service_thread) != Link::Turn::Served) return false;
  if (service_thread) {
    mid_frame_ = link.mid_frame();
    next_soon_ = link.next_soon();
  }
  last_served_.store(&link, std::memory_order_release);
  return true;
}

void Service::poll_once(bool look_at_last_link) {
  // Most looks find nothing: one system call, no lock (and a recv under the link's read turn
  // before it, where the caller may look at the last link).
  if (look_at_last_link && look_at_last(false)) return;
  epoll_event ready[8];
  const int n = epoll_wait(links_epoll_.get(), ready, 8, 0);
  for (int i = 0; i < n; ++i) serve_event(ready[i].data.u64, false);
}

// The links' set reports nothing to the service thread's set while a waiter polls (a watch with
// no events is switched off: epoll(7)), and everything again after: a watch that fired meanwhile
// and was not taken wakes the thread at once (level-triggered). epoll_ctl on two live epoll
// descriptors of this process fails only without kernel memory: switching off then leaves the
// thread woken as before; switching on must not fail silently (no request would be served while
// the rank computes, and every origin would hang).
void Service::waiter_polls(bool starts) noexcept {
  std::lock_guard guard(waiters_mutex_);
  waiters_ += starts ? 1 : -1;
  if (waiters_ != (starts ? 1 : 0)) return;
  epoll_event event{};
  event.events = starts ? 0u : EPOLLIN;
  event.data.u64 = kLinksTag;
  if (epoll_ctl(epoll_.get(), EPOLL_CTL_MOD, links_epoll_.get(), &event) != 0) {
    if (starts) return;
    std::fprintf(stderr, "%sarmada::rma tcp service: epoll_ctl: %s\n", rank_prefix().c_str(), std::strerror(errno));
    std::abort();
  }
  switched_off_.store(starts, std::memory_order_relaxed);
  if (starts) spells_.fetch_add(1, std::memory_order_relaxed);
}

Link& Service::keep(std::unique_ptr<Link> link) {
  Link& l = *link;
  std::lock_guard guard(links_mutex_);
  links_.push_back(std::move(link));
  watch(links_epoll_.get(), EPOLL_CTL_ADD, l.fd(), EPOLLIN | EPOLLONESHOT, reinterpret_cast<std::uint64_t>(&l));
  return l;
}

Link& Service::add_opened(Fd fd, int peer) {
  Link& l = keep(std::make_unique<Link>(std::move(fd), host_, peer, true));
  opened_.fetch_add(1, std::memory_order_relaxed);
  return l;
}

void Service::accept_all() {
  for (;;) {
    Fd fd(accept4(listener_.get(), nullptr, nullptr, SOCK_CLOEXEC));  // blocking; reads pass MSG_DONTWAIT
    if (!fd) return;  // EAGAIN: none left (or a connection reset before it was taken)
    tune(fd.get());
    keep(std::make_unique<Link>(std::move(fd), host_, -1, false));
    accepted_.fetch_add(1, std::memory_order_relaxed);
  }
}

// A closed link leaves the watch (it stays allocated: the transport may hold it); any other is
// watched again, for room too when answers wait in its outbox.
void Service::rearm(Link& link, bool output) {
  epoll_event event{};
  event.events = EPOLLIN | EPOLLONESHOT | (output ? EPOLLOUT : 0u);
  event.data.u64 = reinterpret_cast<std::uint64_t>(&link);
  if (!link.closed()) link.watched.store(true, std::memory_order_relaxed);
  epoll_ctl(links_epoll_.get(), link.closed() ? EPOLL_CTL_DEL : EPOLL_CTL_MOD, link.fd(), &event);
}

}  // namespace armada::rma::detail::tcp
