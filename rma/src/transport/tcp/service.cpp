#include "transport/tcp/service.hpp"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "common/check.hpp"
#include "common/tsan.hpp"
#include "desc/runs.hpp"
#include "desc/strided.hpp"
#include "transport/base/locks.hpp"
#include "transport/base/node_memory.hpp"
#include "transport/base/waiting.hpp"
#include "transport/tcp/protocol.hpp"

namespace armada::rma::detail::tcp {

namespace {

constexpr const char* kOp = "rma::init (tcp service)";
constexpr std::size_t kInputBytes = 64 * 1024;
// From this size, the rest of a contiguous put or an accumulate is received straight into its
// place (target memory, the staging buffer) rather than through the input buffer.
constexpr std::size_t kDirectMin = 16 * 1024;
// Bytes read from one connection before the others get their turn.
constexpr std::size_t kTurnBytes = std::size_t{4} << 20;
// How often a polling service thread looks again whether a CPU is still idle (each look ~1 us):
// where the ranks want every CPU, it stops within IdleCpuProbe::kBusyLooks looks.
constexpr auto kIdleCheckEvery = std::chrono::microseconds(2);
// A staging buffer above this size is released after its frame.
constexpr std::size_t kKeepStaging = std::size_t{16} << 20;
constexpr std::uint64_t kMaxDescriptor = std::uint64_t{1} << 30;
// epoll tags: a served connection's is its address; an answer watch's, its owner's address + 2.
constexpr std::uint64_t kStopTag = 0, kListenerTag = 1, kAnswersBit = 2;

void watch(int epoll_fd, int fd, std::uint64_t tag) {
  epoll_event event{};
  event.events = EPOLLIN;
  event.data.u64 = tag;
  if (epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &event) != 0) throw_system(kOp, "epoll_ctl", errno);
}

bool strided_kind(Kind k) { return k == Kind::Put || k == Kind::Get || k == Kind::Acc; }
bool vector_kind(Kind k) { return k == Kind::PutV || k == Kind::GetV || k == Kind::AccV; }

// The remote side of a strided frame (levels > 0): counts and strides from the descriptor on the
// side `remote_dst` names, the packed layout the payload travels in on the other.
Shape remote_shape(const Header& h, const std::vector<std::byte>& desc, bool remote_dst) {
  Shape s;
  s.levels = h.levels;
  std::uint64_t v[2 * kMaxLevels + 1];
  std::memcpy(v, desc.data(), desc.size());
  for (int l = 0; l <= s.levels; ++l) s.count[l] = v[l];
  std::size_t packed = s.count[0];
  for (int l = 0; l < s.levels; ++l) {
    (remote_dst ? s.dst_stride : s.src_stride)[l] = v[s.levels + 1 + l];
    (remote_dst ? s.src_stride : s.dst_stride)[l] = packed;
    packed *= s.count[l + 1];
  }
  return s;
}

// f(remote address, bytes) for every segment of a vector descriptor, in order.
template <class F>
void for_each_segment(const std::vector<std::byte>& desc, F&& f) {
  const std::byte* p = desc.data();
  const std::byte* const end = p + desc.size();
  while (static_cast<std::size_t>(end - p) >= sizeof(SetHead)) {
    SetHead set;
    std::memcpy(&set, p, sizeof set);
    p += sizeof set;
    for (std::uint64_t i = 0; i < set.count && end - p >= 8; ++i, p += 8) {
      std::uint64_t address;
      std::memcpy(&address, p, 8);
      f(reinterpret_cast<std::byte*>(address), static_cast<std::size_t>(set.bytes));
    }
  }
}

}  // namespace

struct Service::Connection {
  enum class Stage { Header, Descriptor, Payload };
  Fd fd;
  int origin = -1;                      // world rank, once its Hello is in
  std::uint64_t frames = 0;             // run so far (Ack's answer)
  std::vector<std::byte> in = std::vector<std::byte>(kInputBytes);
  std::size_t lo = 0, hi = 0;           // unparsed bytes of `in`
  Stage stage = Stage::Header;
  Header h{};
  std::size_t got = 0;                  // of the header or descriptor
  std::vector<std::byte> desc;
  std::vector<std::byte> staging;       // an accumulate's payload; a strided or vector get's reply
  std::byte* direct = nullptr;          // where the next payload byte goes (contiguous put, accumulate)
  std::optional<RunWalker> walker;      // where it goes otherwise (strided or vector put)
  std::uint64_t left = 0;               // payload bytes still to come
};

Service::Service(Fd listener, std::uint64_t job_key, int me, NodeMemory& memory, long spin_ns,
                 const IdleCpuProbe& idle_cpu, CollectAnswers collect)
    : listener_(std::move(listener)), job_key_(job_key), me_(me), memory_(memory), spin_ns_(spin_ns), idle_cpu_(idle_cpu),
      collect_(std::move(collect)) {
  epoll_ = Fd(epoll_create1(EPOLL_CLOEXEC));
  if (!epoll_) throw_system(kOp, "epoll_create1", errno);
  stop_ = Fd(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  if (!stop_) throw_system(kOp, "eventfd", errno);
  watch(epoll_.get(), stop_.get(), kStopTag);
  watch(epoll_.get(), listener_.get(), kListenerTag);
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
  // origin's fence and a barrier, a flag). Its own state is shared only under serve_mutex_.
  const TsanRemoteAgentScope agent;
  using Clock = std::chrono::steady_clock;
  auto last_frame = Clock::now();
  for (;;) {
    // Spin only between frames, and only while a CPU is idle: while a frame's payload streams in,
    // polling would take the core the sender's kernel needs (on a small host, half the bandwidth
    // of a 1 MiB put); and a polling thread on a busy host waits for a time slice when the next
    // frame comes, where a sleeping one is woken at once (idle_cpus.hpp).
    const bool spin = spin_ns_ > 0 && !partial_ && Clock::now() - last_frame < std::chrono::nanoseconds(spin_ns_) &&
                      idle_cpu_.idle_cpu(kIdleCheckEvery);
    // Wait until something is ready without taking it: what is ready is read again under the
    // lock, as a waiting rank (poll_once) may have served it meanwhile (level-triggered events
    // are reported again; a one-shot answer watch is not, and is acted on below).
    epoll_event ready;
    const int n = epoll_wait(epoll_.get(), &ready, 1, spin ? 0 : -1);
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
    // An answer watch is one-shot: this wait took its event, which no second look would find. It
    // is acted on before taking the serving lock (the collector has its connection's own lock): a
    // waiter holding the serving lock may be answering a peer that is waiting for these answers
    // to be read before it reads ours (the waiter's own look, collect_while_blocked, would never
    // see this event again).
    if (ready.data.u64 & kAnswersBit) collect_(reinterpret_cast<void*>(ready.data.u64 & ~kAnswersBit), true);
    std::lock_guard guard(serve_mutex_);
    if (!serve_ready(true)) return;
    last_frame = Clock::now();
  }
}

void Service::watch_answers(int fd, void* owner) {
  epoll_event event{};
  event.events = EPOLLIN | EPOLLONESHOT;
  event.data.u64 = reinterpret_cast<std::uint64_t>(owner) | kAnswersBit;
  if (epoll_ctl(epoll_.get(), EPOLL_CTL_MOD, fd, &event) != 0 &&
      (errno != ENOENT || epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, fd, &event) != 0))
    throw_system("rma::get_nb (tcp)", "epoll_ctl", errno);
}

void Service::poll_once() {
  // A look without the serving lock first: most looks find nothing, and a waiter that holds the
  // lock while it loses its core (ranks sharing cores) would stall the service thread behind it.
  // What the look takes is handled as run() does: an answer watch (one-shot) collected here,
  // connections (level-triggered) found again under the lock.
  epoll_event ready;
  if (epoll_wait(epoll_.get(), &ready, 1, 0) != 1) return;
  const TsanRemoteAgentScope agent;  // as the service thread is (run())
  if (ready.data.u64 & kAnswersBit) collect_(reinterpret_cast<void*>(ready.data.u64 & ~kAnswersBit), true);
  std::unique_lock guard(serve_mutex_, std::try_to_lock);
  if (!guard) return;
  serve_ready(false);
}

bool Service::serve_ready(bool service_thread) {
  epoll_event events[64];
  const int n = epoll_wait(epoll_.get(), events, 64, 0);
  // Answers first: their one-shot events are in this batch only, and serving a request below may
  // wait for room until the peer reads our answers, which may wait for us to read these.
  for (int i = 0; i < n; ++i) {
    const std::uint64_t tag = events[i].data.u64;
    if (tag != kListenerTag && (tag & kAnswersBit)) collect_(reinterpret_cast<void*>(tag & ~kAnswersBit), true);
  }
  for (int i = 0; i < n; ++i) {
    const std::uint64_t tag = events[i].data.u64;
    if (tag == kStopTag) {
      if (service_thread) return false;
      continue;  // the thread's to act on
    }
    if (tag == kListenerTag) {
      accept_all();
      continue;
    }
    if (tag & kAnswersBit) continue;  // collected above
    auto* c = reinterpret_cast<Connection*>(tag);
    if (!serve(*c)) {
      close(*c);
      continue;
    }
    partial_ = c->stage != Connection::Stage::Header || c->got > 0;
    if (!service_thread) waiter_frames_.fetch_add(1, std::memory_order_relaxed);
  }
  return true;
}

void Service::accept_all() {
  for (;;) {
    Fd fd(accept4(listener_.get(), nullptr, nullptr, SOCK_CLOEXEC));  // blocking; polls pass MSG_DONTWAIT
    if (!fd) return;  // EAGAIN: none left (or a connection reset before it was taken)
    tune(fd.get());
    auto c = std::make_unique<Connection>();
    c->fd = std::move(fd);
    watch(epoll_.get(), c->fd.get(), reinterpret_cast<std::uint64_t>(c.get()));
    open_.push_back(std::move(c));
    connections_.store(static_cast<int>(open_.size()), std::memory_order_relaxed);
  }
}

void Service::close(Connection& c) {
  epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, c.fd.get(), nullptr);
  std::erase_if(open_, [&](const std::unique_ptr<Connection>& p) { return p.get() == &c; });
  connections_.store(static_cast<int>(open_.size()), std::memory_order_relaxed);
}

// Reads what the connection has (up to a turn's worth) and runs every frame completed.
bool Service::serve(Connection& c) {
  std::size_t budget = kTurnBytes;
  for (;;) {
    if (!consume(c)) return false;
    if (budget == 0) return true;
    c.lo = c.hi = 0;
    if (c.stage == Connection::Stage::Payload && c.direct && c.left >= kDirectMin) {
      // A payload that goes straight to its place (target memory, the staging buffer) is waited
      // for whole, up to a turn's bytes: one sleep until it is in, not a wake-up for every
      // segment the link delivers, nor polling that takes the sender's kernel's core (run()).
      const std::size_t ask = static_cast<std::size_t>(std::min<std::uint64_t>(c.left, budget));
      if (recv_all(c.fd.get(), c.direct, ask, 0) != 0) return false;
      budget -= ask;
      c.direct += ask;
      c.left -= ask;
      if (c.left == 0 && !finish(c)) return false;
      continue;
    }
    const ssize_t n = ::recv(c.fd.get(), c.in.data(), c.in.size(), MSG_DONTWAIT);
    if (n == 0) return false;  // the origin closed its end: finalize, or its process ended
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno == EAGAIN || errno == EWOULDBLOCK;
    }
    c.hi = static_cast<std::size_t>(n);
    budget -= std::min(budget, c.hi);
    // Less than the buffer holds: the socket is drained for now (epoll, level-triggered, reports
    // more), so the frames are run without another recv that would only say EAGAIN.
    if (c.hi < c.in.size()) return consume(c);
  }
}

bool Service::consume(Connection& c) {
  using Stage = Connection::Stage;
  while (c.lo < c.hi) {
    const std::byte* p = c.in.data() + c.lo;
    const std::size_t available = c.hi - c.lo;
    switch (c.stage) {
      case Stage::Header: {
        const std::size_t n = std::min(available, sizeof(Header) - c.got);
        std::memcpy(reinterpret_cast<std::byte*>(&c.h) + c.got, p, n);
        c.got += n;
        c.lo += n;
        if (c.got == sizeof(Header) && !begin_frame(c)) return false;
        break;
      }
      case Stage::Descriptor: {
        const std::size_t n = std::min(available, c.desc.size() - c.got);
        std::memcpy(c.desc.data() + c.got, p, n);
        c.got += n;
        c.lo += n;
        if (c.got == c.desc.size() && !begin_payload(c)) return false;
        break;
      }
      case Stage::Payload: {
        const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(available, c.left));
        deliver(c, p, n);
        c.lo += n;
        if (c.left == 0 && !finish(c)) return false;
        break;
      }
    }
  }
  return true;
}

// A frame's header is in: check what a peer of this job always sends (anything else is a stray
// connection or a broken stream, and is closed before it can touch memory).
bool Service::begin_frame(Connection& c) {
  const Header& h = c.h;
  if (static_cast<int>(h.kind) >= kKinds || h.levels > kMaxLevels || h.desc_bytes > kMaxDescriptor) return false;
  if ((c.origin < 0) != (h.kind == Kind::Hello)) return false;
  if (strided_kind(h.kind) && h.desc_bytes != (h.levels ? (2u * h.levels + 1) * 8 : 0)) return false;
  if (!strided_kind(h.kind) && !vector_kind(h.kind) && h.desc_bytes != 0) return false;
  c.desc.resize(h.desc_bytes);
  c.got = 0;
  if (h.desc_bytes == 0) return begin_payload(c);
  c.stage = Connection::Stage::Descriptor;
  return true;
}

bool Service::begin_payload(Connection& c) {
  const Header& h = c.h;
  auto* remote = reinterpret_cast<std::byte*>(h.remote);
  c.left = 0;
  switch (h.kind) {
    case Kind::Put:
      if (h.levels == 0)
        c.direct = remote;
      else
        c.walker.emplace(remote, remote_shape(h, c.desc, true), true);
      c.left = h.payload;
      break;
    case Kind::PutV: {
      std::vector<std::pair<std::byte*, std::size_t>> runs;
      for_each_segment(c.desc, [&](std::byte* at, std::size_t n) { runs.emplace_back(at, n); });
      c.walker.emplace(std::move(runs));
      c.left = h.payload;
      break;
    }
    case Kind::Acc:
    case Kind::AccV:
      c.staging.resize(h.payload);
      c.direct = c.staging.data();
      c.left = h.payload;
      break;
    default:
      break;
  }
  c.stage = Connection::Stage::Payload;
  return c.left > 0 || finish(c);
}

void Service::deliver(Connection& c, const std::byte* data, std::size_t n) {
  if (c.direct) {
    std::memcpy(c.direct, data, n);
    c.direct += n;
  } else {
    c.walker->scatter(data, n);
  }
  c.left -= n;
}

bool Service::finish(Connection& c) {
  ++c.frames;  // before its answer goes: whoever has the answer finds the frame counted
  frames_.fetch_add(1, std::memory_order_relaxed);
  const bool ok = run_frame(c);
  c.stage = Connection::Stage::Header;
  c.got = 0;
  c.direct = nullptr;
  c.walker.reset();
  if (c.staging.capacity() > kKeepStaging) std::vector<std::byte>().swap(c.staging);
  return ok;
}

void Service::accumulate(const Connection& c, const std::byte* src, std::byte* dst, std::size_t bytes) {
  memory_.accumulate(static_cast<AccType>(c.h.acc_type), c.h.scale, src, dst, reinterpret_cast<std::uintptr_t>(dst),
                     me_, bytes);
}

bool Service::reply(Connection& c, std::uint64_t value, const std::byte* data, std::size_t bytes) {
  Reply r{value, bytes};
  iovec parts[2] = {{&r, sizeof r}, {const_cast<std::byte*>(data), bytes}};
  return send_all(c.fd.get(), parts, bytes ? 2 : 1, [this] { return collect_while_blocked(); }) == 0;
}

// An answer that finds no room: its origin is not reading now, and may be waiting for this
// process to read the answers it owes us (two services each answering gets the other's process
// has not read would otherwise wait for each other for ever). Meanwhile this process's own
// answers are read; other requests wait (their connections stay ready). False: stopping.
bool Service::collect_while_blocked() {
  epoll_event events[64];
  const int n = epoll_wait(epoll_.get(), events, 64, 0);
  bool go_on = true;
  for (int i = 0; i < n; ++i) {
    const std::uint64_t tag = events[i].data.u64;
    if (tag == kStopTag) go_on = false;
    if (tag != kListenerTag && (tag & kAnswersBit)) collect_(reinterpret_cast<void*>(tag & ~kAnswersBit), false);
  }
  return go_on;
}

bool Service::run_frame(Connection& c) {
  const Header& h = c.h;
  auto* remote = reinterpret_cast<std::byte*>(h.remote);
  switch (h.kind) {
    case Kind::Hello:
      if (h.remote != job_key_) return false;
      c.origin = static_cast<int>(h.payload);
      return true;
    case Kind::Put:
    case Kind::PutV:
      if (h.notify_how != kNoNotify) {  // the data is in place: now the flag
        std::uint64_t old = 0;
        NodeMemory::rmw(h.notify_how == kNotifySet ? RmwOp::Swap : RmwOp::FetchAdd, h.width,
                        reinterpret_cast<std::byte*>(h.notify), &h.notify_value, nullptr, &old);
      }
      return true;
    case Kind::Acc:
      if (h.levels == 0) {
        accumulate(c, c.staging.data(), remote, c.staging.size());
      } else {
        for_each_run(remote_shape(h, c.desc, true), c.staging.data(), remote,
                     [&](const std::byte* s, std::byte* d, std::size_t n) { accumulate(c, s, d, n); });
      }
      return true;
    case Kind::AccV: {
      const std::byte* from = c.staging.data();
      for_each_segment(c.desc, [&](std::byte* at, std::size_t n) {
        accumulate(c, from, at, n);
        from += n;
      });
      return true;
    }
    case Kind::Get:
      if (h.levels == 0) return reply(c, 0, remote, h.payload);
      c.staging.resize(h.payload);
      copy_strided(remote_shape(h, c.desc, false), remote, c.staging.data());
      return reply(c, 0, c.staging.data(), c.staging.size());
    case Kind::GetV: {
      c.staging.resize(h.payload);
      std::byte* to = c.staging.data();
      for_each_segment(c.desc, [&](std::byte* at, std::size_t n) {
        std::memcpy(to, at, n);
        to += n;
      });
      return reply(c, 0, c.staging.data(), c.staging.size());
    }
    case Kind::Rmw: {
      std::uint64_t old = 0;
      NodeMemory::rmw(static_cast<RmwOp>(h.rmw_op), h.width, remote, h.operand, h.compare, &old);
      return reply(c, old, nullptr, 0);
    }
    case Kind::Unlock:
      return reply(c, reinterpret_cast<TicketMutex*>(remote)->unlock(static_cast<int>(h.payload)) ? 1 : 0, nullptr, 0);
    case Kind::Ack:
      return reply(c, c.frames, nullptr, 0);
  }
  return false;
}

}  // namespace armada::rma::detail::tcp
