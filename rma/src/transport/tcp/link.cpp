#include "transport/tcp/link.hpp"

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

#include "common/check.hpp"
#include "common/tsan.hpp"
#include "desc/strided.hpp"
#include "transport/base/locks.hpp"
#include "transport/base/node_memory.hpp"
#include "transport/base/waiting.hpp"

namespace armada::rma::detail::tcp {

namespace {

std::int64_t steady_ns() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

constexpr std::size_t kInputBytes = 64 * 1024;
// From this size, the rest of a contiguous payload (a put, an accumulate, a get's answer) is
// received straight into its place rather than through the input buffer.
constexpr std::size_t kDirectMin = 16 * 1024;
// A thread asleep for the rest of a direct payload is woken once this much of it has arrived (or
// all of it), not for every batch of segments: each wake-up is a context switch for a few
// segments' copying, on CPUs the sender's kernel needs too where hosts share a machine
// (emulated cluster, Zen 3 VM, medians: 1 MiB put 1.51 -> 2.19 GB/s, accumulate 1.21 -> 1.99,
// 64 KiB put 1.42 -> 1.58; docs/benchmarks.md, session 37). 256 KiB keeps the receiver copying
// while the rest streams in; 64 KiB and a whole MiB did no better.
constexpr std::uint64_t kWakeBytes = 256 * 1024;
// How long such a sleep may last before the thread looks again, whatever the kernel does.
constexpr int kWakeRecheckMs = 10;
// Bytes read from one link before the service gives the others their turn.
constexpr std::size_t kTurnBytes = std::size_t{4} << 20;
// A staging buffer above this size is released after its frame.
constexpr std::size_t kKeepStaging = std::size_t{16} << 20;
constexpr std::uint64_t kMaxDescriptor = std::uint64_t{1} << 30;

// The link this thread holds the send lock of (a Writer), so that an answer the thread makes
// while it reads during its own send goes to the outbox (std::mutex cannot be tried by its owner).
thread_local const Link* t_sending = nullptr;

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

// One non-blocking sendmsg of what `parts` still holds: the bytes it took, or -errno.
ssize_t send_some(int fd, iovec* parts, int count) {
  msghdr m{};
  m.msg_iov = parts;
  m.msg_iovlen = static_cast<std::size_t>(std::min(count, IOV_MAX));
  for (;;) {
    const ssize_t sent = ::sendmsg(fd, &m, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (sent >= 0) return sent;
    if (errno == EINTR) continue;
    return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -errno;
  }
}

}  // namespace

Link::Link(Fd fd, LinkHost& host, int peer, bool opened)
    : fd_(std::move(fd)), host_(host), peer_(peer), opened_(opened), in_(kInputBytes) {}

// ---- the read turn -----------------------------------------------------------------------------

bool Link::try_read() { return read_mutex_.try_lock(); }

// Lets the turn go; the service's watch is re-armed when the service was turned away meanwhile
// (it took the one-shot event and left the link to us) or when answers wait for room.
void Link::end_read(bool rearm) {
  const bool output = !outbox_empty();
  read_mutex_.unlock();
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  if (turned_away_.exchange(false) || output || rearm) host_.rearm(*this, output);
}

Link::Turn Link::serve(bool service_thread) { return read_now(service_thread, true); }

Link::Turn Link::look(bool service_thread) { return read_now(service_thread, false); }

Link::Turn Link::read_now(bool service_thread, bool watch_fired) {
  if (watch_fired) watched.store(false, std::memory_order_relaxed);  // its event was taken: the watch is off
  if (closed()) return Turn::Done;
  if (watch_fired) turned_away_.store(true);  // before the try: a holder that lets go from now on re-arms
  if (!try_read()) return Turn::Busy;
  if (watch_fired) turned_away_.store(false, std::memory_order_relaxed);
  const std::uint64_t frames_before = requests_run_, bytes_before = received_;
  bool ok;
  {
    const TsanRemoteAgentScope agent;  // it writes this process's memory for the peer (common/tsan.hpp)
    ok = pump(Pump::Serve, kTurnBytes, 0, nullptr);
  }
  if (!service_thread) host_.waiter_frames.fetch_add(requests_run_ - frames_before, std::memory_order_relaxed);
  if (ok) flush_now();
  const bool came = received_ != bytes_before;
  // A watch that fired is ours to renew; one that did not is armed still (or was switched off by
  // a waiter meanwhile, who took the turn from us: end_read renews it then).
  end_read(/*rearm=*/watch_fired);
  if (!ok) return Turn::Done;
  return came || watch_fired ? Turn::Served : Turn::Idle;
}

// Reads and runs what arrives (Pump says until when). A thread that sleeps here for bytes also
// wakes for room while answers of ours wait in the outbox: the peer may be sleeping for the rest
// of one of them, as we sleep for the rest of one of its. False: the link failed (failure_ says
// why) or closed.
bool Link::pump(Pump mode, std::size_t budget, std::uint64_t until, const WaitStyle* wait) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const long spin_ns = mode == Pump::Wait ? wait->spin_ns : 0;
  auto spin_until = start + std::chrono::nanoseconds(spin_ns);
  bool warned = mode != Pump::Wait || wait->stall_ms <= 0;
  bool room_wanted = !outbox_empty() && flush_now() == Flush::NoRoom;
  for (;;) {
    if (!consume()) return false;
    if (mode == Pump::Wait ? answered_.load(std::memory_order_acquire) >= until : budget == 0) break;
    lo_ = hi_ = 0;
    // From kDirectMin on, the rest of a contiguous payload goes straight to its place.
    const bool direct = stage_ == Stage::Payload && direct_ && left_ >= kDirectMin;
    std::byte* into = direct ? direct_ : in_.data();
    const std::size_t want = direct ? static_cast<std::size_t>(std::min<std::uint64_t>(left_, mode == Pump::Wait ? left_ : budget))
                                    : in_.size();
    const ssize_t n = ::recv(fd_.get(), into, want, MSG_DONTWAIT);
    if (n == 0) return fail("the peer closed the connection");
    if (n > 0) {
      const auto got = static_cast<std::size_t>(n);
      received_ += got;
      budget -= std::min(budget, got);
      warned = true;  // bytes came: the peer is alive
      spin_until = Clock::now() + std::chrono::nanoseconds(spin_ns);  // bytes keep coming
      if (direct) {
        direct_ += got;
        left_ -= got;
        if (left_ == 0 && !finish()) return false;
        continue;
      }
      hi_ = got;
      // Less than the buffer holds: drained for now (the watch reports more), so no recv that would
      // only say EAGAIN.
      if (mode != Pump::Wait && hi_ < in_.size()) {
        if (!consume()) return false;
        break;
      }
      continue;
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) return fail("receiving: " + std::string(std::strerror(errno)));
    if (owes_flush_ || room_wanted) {
      owes_flush_ = false;
      room_wanted = flush_now() == Flush::NoRoom;
    }
    // Nothing more now. The service stays for the rest of a direct payload that has begun (one
    // sleep until it comes, not a wake-up per segment; its sender is committed to it); a sender
    // reading meanwhile (Drain) never sleeps here: its own frame is what the peer may wait for.
    if (mode == Pump::Drain || (mode == Pump::Serve && !direct)) break;
    if (Clock::now() < spin_until) {
      cpu_relax();
      continue;
    }
    const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
    const int timeout = warned ? -1 : static_cast<int>(std::max<long long>(0, wait->stall_ms - waited));
    const Woke woke = sleep(room_wanted, timeout, direct ? left_ : 0);
    if (woke == Woke::Failed) return fail("setting SO_RCVLOWAT back to 1: " + std::string(std::strerror(errno)));
    if (woke == Woke::Timeout && !warned) {
      warned = true;
      if (wait->stalled) wait->stalled();
    }
    if (woke == Woke::Room) room_wanted = flush_now() == Flush::NoRoom;
  }
  if (owes_flush_) {
    owes_flush_ = false;
    flush_now();
  }
  return true;
}

// A direct payload's sleeper asks to be woken at min(payload_left, kWakeBytes) bytes for this
// sleep only (the service's watch and every later sleep see the default again), and looks again
// within kWakeRecheckMs. Failing to ask costs only wake-ups; failing to take it back would leave
// the link's next small frames unseen: that fails the link (Failed, errno set).
Link::Woke Link::sleep(bool room_wanted, int timeout_ms, std::uint64_t payload_left) {
  pollfd p{fd_.get(), static_cast<short>(POLLIN | (room_wanted ? POLLOUT : 0)), 0};
  const int low_water = static_cast<int>(std::min(payload_left, kWakeBytes));
  const bool raised = low_water > 1 && set_receive_low_water(fd_.get(), low_water) == 0;
  const int limit = raised && (timeout_ms < 0 || timeout_ms > kWakeRecheckMs) ? kWakeRecheckMs : timeout_ms;
  if (payload_left > 0) host_.payload_sleeps.fetch_add(1, std::memory_order_relaxed);
  const int ready = ::poll(&p, 1, limit);
  if (raised) {
    if (const int e = set_receive_low_water(fd_.get(), 1); e != 0) {
      errno = e;
      return Woke::Failed;
    }
  }
  if (ready > 0 && (p.revents & POLLOUT)) return Woke::Room;
  if (ready == 0 && limit == timeout_ms) return Woke::Timeout;
  return Woke::Input;  // bytes, the end of the stream, an error, EINTR or a recheck: recv tells
}

bool Link::consume() {
  while (lo_ < hi_) {
    const std::byte* p = in_.data() + lo_;
    const std::size_t available = hi_ - lo_;
    switch (stage_) {
      case Stage::Header: {
        const std::size_t n = std::min(available, sizeof(Header) - got_);
        std::memcpy(reinterpret_cast<std::byte*>(&h_) + got_, p, n);
        got_ += n;
        lo_ += n;
        if (got_ == sizeof(Header) && !begin_frame()) return false;
        break;
      }
      case Stage::Descriptor: {
        const std::size_t n = std::min(available, desc_.size() - got_);
        std::memcpy(desc_.data() + got_, p, n);
        got_ += n;
        lo_ += n;
        if (got_ == desc_.size() && !begin_payload()) return false;
        break;
      }
      case Stage::Payload: {
        const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(available, left_));
        deliver(p, n);
        lo_ += n;
        if (left_ == 0 && !finish()) return false;
        break;
      }
    }
  }
  return !failed_.load(std::memory_order_relaxed);
}

// A frame's header is in: check what a peer of this job always sends (anything else is a stray
// connection or a broken stream, and is closed before it can touch memory).
bool Link::begin_frame() {
  const Header& h = h_;
  if (static_cast<int>(h.kind) >= kKinds || h.levels > kMaxLevels || h.desc_bytes > kMaxDescriptor)
    return fail("a frame of an unknown kind or shape: the stream is out of step");
  if ((peer() < 0) != (h.kind == Kind::Hello)) return fail("a frame before the connection said who it is");
  if (strided_kind(h.kind) && h.desc_bytes != (h.levels ? (2u * h.levels + 1) * 8 : 0))
    return fail("a strided frame with a descriptor of the wrong size");
  if (!strided_kind(h.kind) && !vector_kind(h.kind) && h.desc_bytes != 0)
    return fail("a descriptor on a frame that has none");
  desc_.resize(h.desc_bytes);
  got_ = 0;
  if (h.desc_bytes == 0) return begin_payload();
  stage_ = Stage::Descriptor;
  return true;
}

bool Link::begin_payload() {
  const Header& h = h_;
  auto* remote = reinterpret_cast<std::byte*>(h.remote);
  left_ = 0;
  switch (h.kind) {
    case Kind::Put:
      if (h.levels == 0)
        direct_ = remote;
      else
        walker_.emplace(remote, remote_shape(h, desc_, true), true);
      left_ = h.payload;
      break;
    case Kind::PutV: {
      std::vector<std::pair<std::byte*, std::size_t>> runs;
      for_each_segment(desc_, [&](std::byte* at, std::size_t n) { runs.emplace_back(at, n); });
      walker_.emplace(std::move(runs));
      left_ = h.payload;
      break;
    }
    case Kind::Acc:
    case Kind::AccV:
      staging_.resize(h.payload);
      direct_ = staging_.data();
      left_ = h.payload;
      break;
    case Kind::Answer: {
      std::lock_guard guard(owed_mutex_);
      if (owed_.empty()) return fail("an answer to no request: the stream is out of step");
      Owed& o = owed_.front();
      if (h.payload != o.bytes)
        return fail("an answer of " + std::to_string(h.payload) + " bytes to a request of " + std::to_string(o.bytes) +
                    ": the stream is out of step");
      if (o.value) *o.value = h.remote;
      if (o.walker)
        walker_ = std::move(o.walker);
      else
        direct_ = o.direct;
      left_ = h.payload;
      break;
    }
    default:
      break;
  }
  stage_ = Stage::Payload;
  return left_ > 0 || finish();
}

void Link::deliver(const std::byte* data, std::size_t n) {
  if (direct_) {
    std::memcpy(direct_, data, n);
    direct_ += n;
  } else {
    walker_->scatter(data, n);
  }
  left_ -= n;
}

bool Link::finish() {
  bool ok = true;
  if (h_.kind == Kind::Answer) {
    {
      std::lock_guard guard(owed_mutex_);
      owed_.pop_front();
    }
    answer_ns_.store(steady_ns(), std::memory_order_relaxed);
    answered_.fetch_add(1, std::memory_order_release);
    generation_.fetch_add(1, std::memory_order_release);
    generation_.notify_all();
  } else {
    ++requests_run_;  // before its answer goes: whoever has the answer finds the frame counted
    host_.frames.fetch_add(1, std::memory_order_relaxed);
    ok = run_request();
  }
  stage_ = Stage::Header;
  got_ = 0;
  direct_ = nullptr;
  walker_.reset();
  if (staging_.capacity() > kKeepStaging) std::vector<std::byte>().swap(staging_);
  return ok && !failed_.load(std::memory_order_relaxed);
}

void Link::accumulate(const std::byte* src, std::byte* dst, std::size_t bytes) {
  host_.memory.accumulate(static_cast<AccType>(h_.acc_type), h_.scale, src, dst, reinterpret_cast<std::uintptr_t>(dst),
                          host_.me, bytes);
}

bool Link::answered_within(long ns) const noexcept {
  const std::int64_t at = answer_ns_.load(std::memory_order_relaxed);
  return at >= 0 && steady_ns() - at < ns;
}

bool Link::run_request() {
  const Header& h = h_;
  auto* remote = reinterpret_cast<std::byte*>(h.remote);
  const bool next_soon = (h.hints & kNextSoon) != 0;
  next_soon_.store(next_soon, std::memory_order_relaxed);
  if (next_soon) host_.next_soon_frames.fetch_add(1, std::memory_order_relaxed);
  switch (h.kind) {
    case Kind::Hello:
      if (h.remote != host_.job_key) return fail("a connection from outside the job (wrong key)");
      peer_.store(static_cast<int>(h.payload), std::memory_order_release);
      answer(host_.introduced(*this) ? 1 : 0, nullptr, 0);
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
        accumulate(staging_.data(), remote, staging_.size());
      } else {
        for_each_run(remote_shape(h, desc_, true), staging_.data(), remote,
                     [&](const std::byte* s, std::byte* d, std::size_t n) { accumulate(s, d, n); });
      }
      return true;
    case Kind::AccV: {
      const std::byte* from = staging_.data();
      for_each_segment(desc_, [&](std::byte* at, std::size_t n) {
        accumulate(from, at, n);
        from += n;
      });
      return true;
    }
    case Kind::Get:
      if (h.levels == 0) {
        answer(0, remote, h.payload);
      } else {
        staging_.resize(h.payload);
        copy_strided(remote_shape(h, desc_, false), remote, staging_.data());
        answer(0, staging_.data(), staging_.size());
      }
      return true;
    case Kind::GetV: {
      staging_.resize(h.payload);
      std::byte* to = staging_.data();
      for_each_segment(desc_, [&](std::byte* at, std::size_t n) {
        std::memcpy(to, at, n);
        to += n;
      });
      answer(0, staging_.data(), staging_.size());
      return true;
    }
    case Kind::Rmw: {
      std::uint64_t old = 0;
      NodeMemory::rmw(static_cast<RmwOp>(h.rmw_op), h.width, remote, h.operand, h.compare, &old);
      answer(old, nullptr, 0);
      return true;
    }
    case Kind::Lock: {
      std::uint32_t ticket = 0;
      const bool held = reinterpret_cast<TicketMutex*>(remote)->take_ticket(static_cast<int>(h.payload), ticket);
      answer((held ? kLockHeld : 0) | ticket, nullptr, 0);
      return true;
    }
    case Kind::TryLock:
      answer(reinterpret_cast<TicketMutex*>(remote)->try_lock(static_cast<int>(h.payload)) ? 1 : 0, nullptr, 0);
      return true;
    case Kind::Unlock:
      answer(reinterpret_cast<TicketMutex*>(remote)->unlock(static_cast<int>(h.payload)) ? 1 : 0, nullptr, 0);
      return true;
    case Kind::Ack:
      answer(requests_run_, nullptr, 0);
      return true;
    case Kind::Answer:
      break;
  }
  return false;
}

// An answer never waits for room: it goes out now if the send lock is free and nothing is queued
// before it, and whatever the socket does not take (or all of it, when another thread is
// mid-frame) is copied to the outbox, in order. The data is read now, so a later write from the
// same origin (behind it on the stream) cannot change what this answer carries.
void Link::answer(std::uint64_t value, const std::byte* data, std::size_t bytes) {
  Header a{};
  a.kind = Kind::Answer;
  a.remote = value;
  a.payload = bytes;
  iovec parts[2] = {{&a, sizeof a}, {const_cast<std::byte*>(data), bytes}};
  const int count = bytes ? 2 : 1;
  if (t_sending != this && send_mutex_.try_lock()) {
    std::size_t sent = 0;
    {
      std::lock_guard guard(outbox_mutex_);
      if (outbox_sent_ == outbox_.size()) {
        const ssize_t n = send_some(fd_.get(), parts, count);
        if (n < 0) {
          send_mutex_.unlock();
          fail("sending an answer: " + std::string(std::strerror(static_cast<int>(-n))));
          return;
        }
        sent = static_cast<std::size_t>(n);
      }
      if (sent < sizeof a + bytes) append(parts, count, sent);
    }
    send_mutex_.unlock();
  } else {
    std::lock_guard guard(outbox_mutex_);
    append(parts, count, 0);
  }
  if (!outbox_empty()) owes_flush_ = true;
}

// With outbox_mutex_ held.
void Link::append(const iovec* parts, int count, std::size_t skip) {
  for (int i = 0; i < count; ++i) {
    const auto* base = static_cast<const std::byte*>(parts[i].iov_base);
    const std::size_t n = parts[i].iov_len;
    if (skip >= n) {
      skip -= n;
      continue;
    }
    outbox_.insert(outbox_.end(), base + skip, base + n);
    skip = 0;
  }
}

bool Link::outbox_empty() {
  std::lock_guard guard(outbox_mutex_);
  return outbox_sent_ == outbox_.size();
}

// With the send lock: sends what the outbox holds; `block`: waits for room (reading the link
// meanwhile), else stops at the first EAGAIN. 0, EAGAIN (not blocking), or the errno.
int Link::send_outbox(bool block) {
  for (;;) {
    std::unique_lock guard(outbox_mutex_);
    if (outbox_sent_ == outbox_.size()) {
      outbox_.clear();
      outbox_sent_ = 0;
      if (outbox_.capacity() > kKeepStaging) std::vector<std::byte>().swap(outbox_);
      return 0;
    }
    iovec part{outbox_.data() + outbox_sent_, outbox_.size() - outbox_sent_};
    const ssize_t n = send_some(fd_.get(), &part, 1);
    if (n < 0) return static_cast<int>(-n);
    outbox_sent_ += static_cast<std::size_t>(n);
    if (n > 0) continue;
    guard.unlock();
    if (!block) return EAGAIN;
    pollfd p{fd_.get(), POLLOUT, 0};
    if (::poll(&p, 1, kBlockedCheckMs) == 0) drain_while_sending();
  }
}

// What is left for want of room is the service's to send as room comes (EPOLLOUT): whoever
// left it may be about to sleep somewhere else (a collective's wait) while the peer sleeps
// for the rest of an answer in it. A reader that stays on the link also polls for room itself.
Link::Flush Link::flush_now() {
  if (t_sending == this) return Flush::Busy;  // this thread's Writer empties it before it lets go
  for (;;) {
    if (outbox_empty()) return Flush::Done;
    if (!send_mutex_.try_lock()) return Flush::Busy;  // its holder empties it before it lets go
    const int error = send_outbox(false);
    send_mutex_.unlock();
    if (error == EAGAIN) {
      host_.rearm(*this, true);
      return Flush::NoRoom;
    }
    if (error) {
      fail("sending answers: " + std::string(std::strerror(error)));
      return Flush::Done;
    }
  }
}

// An origin whose frame finds no room reads the link meanwhile if no one else does (its peer
// may be waiting for room on this same link, reading only once we have read).
void Link::drain_while_sending() {
  if (!try_read()) return;  // its holder reads
  {
    const TsanRemoteAgentScope agent;
    pump(Pump::Drain, kTurnBytes, 0, nullptr);
  }
  end_read();
}

bool Link::fail(std::string why) {
  {
    std::lock_guard guard(failure_mutex_);
    if (failure_.empty()) {
      const int p = peer();
      failure_ = "the connection with " + (p >= 0 ? host_.describe(p) : std::string("a process not yet introduced")) +
                 " failed: " + why;
    }
  }
  failed_.store(true, std::memory_order_release);  // after failure_: whoever sees the flag reads it
  closed_.store(true, std::memory_order_release);
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  return false;
}

// ---- origins -------------------------------------------------------------------------------------

// The answers queued before this frame go first; nothing is sent between the pieces of a frame
// (a strided put's), so the outbox is emptied only here and as the frame ends.
Link::Writer::Writer(Link& link, const char* op) : link_(link), op_(op) {
  link_.send_mutex_.lock();
  t_sending = &link_;
  if (const int error = link_.send_outbox(true)) {
    t_sending = nullptr;
    link_.send_mutex_.unlock();
    throw_system(op_, "sending to " + link_.host_.describe(link_.peer()), error);
  }
}

Link::Writer::~Writer() {
  // What answers were queued while this frame went (or before) goes before anyone else's frame.
  const int error = link_.send_outbox(true);
  t_sending = nullptr;
  link_.send_mutex_.unlock();
  if (error == 0) link_.flush_now();  // an answer queued between the emptying and the unlock
  if (error) link_.fail("sending answers: " + std::string(std::strerror(error)));
}

std::uint64_t Link::Writer::owe(Owed owed) {
  std::lock_guard guard(link_.owed_mutex_);
  link_.owed_.push_back(std::move(owed));
  return link_.owed_total_.fetch_add(1, std::memory_order_relaxed) + 1;
}

std::uint64_t Link::Writer::ack() {
  Header h{};
  h.kind = Kind::Ack;
  const std::uint64_t seq = owe(Owed::data(0));
  iovec part{&h, sizeof h};
  send(&part, 1);
  link_.last_ack_.store(seq, std::memory_order_release);
  return seq;
}

void Link::Writer::send(iovec* parts, int count) {
  if (link_.failed_.load(std::memory_order_acquire)) throw_state(op_, link_.failure_);
  const auto read_meanwhile = [this] {
    link_.drain_while_sending();
    return true;
  };
  if (const int error = send_all(link_.fd_.get(), parts, count, read_meanwhile))
    throw_system(op_, "sending to " + link_.host_.describe(link_.peer()), error);
}

void Link::await(const char* op, std::uint64_t seq, const WaitStyle& style) {
  while (answered_.load(std::memory_order_acquire) < seq) {
    if (failed_.load(std::memory_order_acquire)) throw_state(op, failure_);
    const std::uint32_t seen = generation_.load(std::memory_order_acquire);
    if (try_read()) {
      // This thread reads the link until its answer comes: the service thread is not woken by
      // the answer (nor by a request meanwhile, which this thread runs), and watches again after.
      const bool disarmed = watched.exchange(false);
      if (disarmed) host_.disarm(*this);
      {
        const TsanRemoteAgentScope agent;  // it may run the peer's requests meanwhile
        pump(Pump::Wait, 0, seq, &style);
      }
      end_read(disarmed);
      continue;
    }
    // Another thread reads the link: it moves generation_ with each answer and as it lets go.
    for (int i = 0; i < 200 && generation_.load(std::memory_order_acquire) == seen; ++i) cpu_relax();
    generation_.wait(seen, std::memory_order_acquire);
  }
}

bool Link::arrived(const char* op, std::uint64_t seq) {
  if (answered_.load(std::memory_order_acquire) >= seq) return true;
  if (failed_.load(std::memory_order_acquire)) throw_state(op, failure_);
  if (try_read()) {
    {
      const TsanRemoteAgentScope agent;
      pump(Pump::Drain, kTurnBytes, 0, nullptr);
    }
    end_read();
  }
  return answered_.load(std::memory_order_acquire) >= seq;
}

}  // namespace armada::rma::detail::tcp
