#include "transport/tcp/tcp_transport.hpp"

#include <mpi.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <chrono>
#include <random>

#include "common/check.hpp"
#include "common/stall.hpp"
#include "desc/runs.hpp"
#include "transport/base/locks.hpp"
#include "transport/base/waiting.hpp"
#include "transport/tcp/fabric.hpp"

namespace armada::rma::detail {

namespace {

using tcp::Header;
using tcp::Kind;

// Strided data travels in pieces of this size: packing the next overlaps the kernel's sending.
constexpr std::size_t kChunk = std::size_t{256} << 10;
// How old the look at the machine's idle CPUs may be that an origin's wait goes by (a look costs
// ~1 us; a get ping-pong makes one every few gets).
constexpr auto kOriginLookAge = std::chrono::microseconds(100);
// The longest sleep between a waiting mutex's polls of its owner (each poll is a round trip).
constexpr long kMutexPollSleepMaxNs = 100000;

constexpr const char* kKindName[] = {"rma::put (tcp)", "rma::get (tcp)", "rma::acc (tcp)"};
constexpr const char* kRmwName[] = {"rma::rmw fetch_add (tcp)", "rma::rmw swap (tcp)", "rma::rmw compare_swap (tcp)"};

const char* name_of(OpKind kind) { return kKindName[static_cast<int>(kind)]; }

Header header(Kind kind, const void* remote, std::uint64_t payload) {
  Header h{};
  h.kind = kind;
  h.remote = reinterpret_cast<std::uint64_t>(remote);
  h.payload = payload;
  return h;
}

void set_acc(Header& h, AccType type, const void* scale) {
  h.acc_type = static_cast<std::uint8_t>(type);
  std::memcpy(h.scale, scale, size_of(type));
}

// A strided frame's descriptor: the counts, then the remote side's strides.
std::size_t describe_shape(const Shape& s, bool remote_dst, std::uint64_t (&desc)[2 * kMaxLevels + 1]) {
  for (int l = 0; l <= s.levels; ++l) desc[l] = s.count[l];
  for (int l = 0; l < s.levels; ++l) desc[s.levels + 1 + l] = (remote_dst ? s.dst_stride : s.src_stride)[l];
  return (2 * static_cast<std::size_t>(s.levels) + 1) * sizeof(std::uint64_t);
}

// A failure of one rank's set-up fails init on every rank, naming the first rank that failed and
// why, instead of leaving the others waiting in the address exchange.
void fail_together(MPI_Comm world, int rank, const std::string& failure) {
  struct {
    int failed;
    int rank;
  } first{failure.empty() ? 0 : 1, rank};
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_2INT, MPI_MAXLOC, world);  // ties: the lowest rank
  if (!first.failed) return;
  std::string why = failure;
  int length = static_cast<int>(why.size());
  MPI_Bcast(&length, 1, MPI_INT, first.rank, world);
  why.resize(static_cast<std::size_t>(length));
  MPI_Bcast(why.data(), length, MPI_CHAR, first.rank, world);
  throw_state("rma::init (tcp)", "rank " + std::to_string(first.rank) + " cannot listen for the tcp transport: " + why);
}

}  // namespace

TcpTransport::TcpTransport(const TransportContext& c, const TcpSettings& settings)
    : me_(c.rank), settings_(settings), spin_ns_(static_cast<long>(settings.spin_us) * 1000),
      waiter_poll_ns_(std::int64_t{settings.waiter_poll_us} * 1000), stall_warn_s_(c.config.stall_warn_s),
      topology_(c.topology),
      endpoints_(static_cast<std::size_t>(c.size)), peers_(new std::atomic<Peer*>[static_cast<std::size_t>(c.size)]) {
  constexpr const char* op = "rma::init (tcp)";
  for (int r = 0; r < c.size; ++r) peers_[static_cast<std::size_t>(r)].store(nullptr, std::memory_order_relaxed);
  tcp::Endpoint mine{};
  tcp::Fd listener;
  std::string failure;  // why this rank cannot listen (an interface ARMADA_TCP_IF names is missing here)
  try {
    const std::vector<std::uint32_t> addresses = tcp::local_addresses(op, settings.interfaces);
    listener = tcp::listen_any(op, mine.port);
    mine.count = static_cast<std::uint16_t>(addresses.size());
    std::copy(addresses.begin(), addresses.end(), mine.address);
  } catch (const Error& e) {
    failure = e.what();
  }
  fail_together(c.world, c.rank, failure);
  MPI_Allgather(&mine, sizeof mine, MPI_BYTE, endpoints_.data(), sizeof mine, MPI_BYTE, c.world);
  // The job's key: a connection from anything else (a stray process that found the port) runs nothing.
  job_key_ = c.rank == 0 ? (std::uint64_t{std::random_device{}()} << 32 | std::random_device{}()) : 0;
  MPI_Bcast(&job_key_, 1, MPI_UINT64_T, 0, c.world);
  service_ = std::make_unique<tcp::Service>(std::move(listener), job_key_, me_, c.node_memory,
                                           static_cast<long>(settings.service_spin_us) * 1000, idle_cpu_,
                                           [this](void* peer, bool may_wait) { collect_answers(*static_cast<Peer*>(peer), may_wait); });
}

TcpTransport::~TcpTransport() {
  service_.reset();    // first: it may be collecting a connection's answers
  connected_.clear();  // every peer's service sees its end of our connections close
}

TransportCaps TcpTransport::caps() const noexcept {
  TransportCaps c;  // the target's service thread runs every operation
  c.progress_thread = true;
  return c;
}

// auto's choice where no host has a fabric device: MPI runs over TCP there too, and this
// transport's service thread sleeps until a request arrives (no idle core needed, unlike the
// server's). With one, rdma (UCX) or the server (MPI's own path) is faster than the TCP stack.
bool TcpTransport::suits_as_default(std::string& why) const {
  const std::vector<std::string> fabric = tcp::fabric_devices("/sys/class");
  if (!fabric.empty()) {
    why = "this host has a fabric device (" + fabric.front() + (fabric.size() > 1 ? ", ..." : "") +
          "), a faster path for MPI than TCP";
    return false;
  }
  why = "no fabric device on the hosts (/sys/class/infiniband, /sys/class/cxi), so MPI runs over TCP too: tcp's own "
        "connections, served by a thread asleep until a request arrives (no idle core needed)";
  return true;
}

// ---- connections -----------------------------------------------------------------------------

TcpTransport::Peer& TcpTransport::peer(const char* op, int target) {
  Peer* p = peers_[static_cast<std::size_t>(target)].load(std::memory_order_acquire);
  if (p) return *p;
  std::lock_guard guard(connect_mutex_);
  p = peers_[static_cast<std::size_t>(target)].load(std::memory_order_relaxed);
  if (p) return *p;
  auto made = std::make_unique<Peer>([this, target]() noexcept {
    Peer* self = peers_[static_cast<std::size_t>(target)].load(std::memory_order_acquire);
    try {
      service_->watch_answers(self->fd.get(), self);
    } catch (const Error&) {
      // Not watched again (epoll_ctl failed): the answers wait for the rank's wait or test.
    }
  });
  made->rank = target;
  made->fd = tcp::connect_to(op, endpoints_[static_cast<std::size_t>(target)], target, settings_.connect_timeout_ms);
  Header hello = header(Kind::Hello, nullptr, static_cast<std::uint64_t>(me_));
  hello.remote = job_key_;
  iovec part{&hello, sizeof hello};
  send(*made, op, target, &part, 1);
  p = made.get();
  connected_.push_back(std::move(made));
  connections_out_.store(static_cast<int>(connected_.size()), std::memory_order_relaxed);
  peers_[static_cast<std::size_t>(target)].store(p, std::memory_order_release);
  return *p;
}

// While the target does not take the frame, it may be answering this connection's earlier gets
// (it runs a connection's frames in order): those answers are read meanwhile, or neither side
// would move. Called with p.lock held.
void TcpTransport::send(Peer& p, const char* op, int target, iovec* parts, int count) {
  // Two pointers: std::function keeps the hook in place, no allocation per frame.
  const struct {
    Peer& p;
    const char* op;
    int target;
  } at{p, op, target};
  const auto read_answers = [this, a = &at] {
    read_arrived_answers(a->p, a->op, a->target, false);  // this frame's target waits for room too: no waiting here
    return true;
  };
  if (const int error = tcp::send_all(p.fd.get(), parts, count, read_answers))
    throw_system(op, "sending to rank " + std::to_string(target) + " (" + tcp::describe(endpoints_[static_cast<std::size_t>(target)]) + ")", error);
}

void TcpTransport::fail_receiving(const char* op, int target, int error) const {
  throw_system(op, "receiving from rank " + std::to_string(target) + " (" + tcp::describe(endpoints_[static_cast<std::size_t>(target)]) + ")", error);
}

// Polled for ARMADA_TCP_SPIN_US unless the CPUs have been busy for the last looks (idle_cpus.hpp:
// a polling thread that lost its core to another would wait for a time slice; a sleeping one is
// woken at once). An answer that has not begun after ARMADA_STALL_WARN seconds is said so, once,
// naming the rank and its host (a cut link or a stopped process: the launcher names neither),
// then waited for.
void TcpTransport::receive(Peer& p, const char* op, int target, void* into, std::size_t bytes) {
  const long spin_ns = spin_ns_ > 0 && idle_cpu_.idle_cpu(kOriginLookAge) ? spin_ns_ : 0;
  int error = tcp::recv_all(p.fd.get(), into, bytes, spin_ns, stall_warn_s_ > 0 ? stall_warn_s_ * 1000 : -1);
  if (error == ETIMEDOUT) {
    warn_stall(op, rank_on_host(target, topology_), stall_warn_s_);
    error = tcp::recv_all(p.fd.get(), into, bytes, spin_ns);
  }
  if (error) fail_receiving(op, target, error);
}

tcp::Reply TcpTransport::ask(Peer& p, const char* op, int target, const Header& h) {
  iovec part{const_cast<Header*>(&h), sizeof h};
  send(p, op, target, &part, 1);
  return answer(p, op, target);
}

// Called with p.lock held.
void TcpTransport::mark_written(Peer& p, int target) {
  if (p.written) return;
  p.written = true;
  std::lock_guard guard(written_mutex_);
  written_.push_back(target);
}

// ---- data movement ---------------------------------------------------------------------------

std::uint64_t TcpTransport::transfer_contiguous(OpKind kind, AccType type, const void* scale, std::byte* local,
                                                std::byte* remote, std::size_t bytes, const Slice&, int target,
                                                bool blocking) {
  const char* op = name_of(kind);
  Peer& p = peer(op, target);
  if (kind == OpKind::Get) return get(op, local, remote, Shape::single_run(bytes), target, blocking);
  Header h = header(kind == OpKind::Put ? Kind::Put : Kind::Acc, remote, bytes);
  if (kind == OpKind::Acc) set_acc(h, type, scale);
  iovec parts[2] = {{&h, sizeof h}, {local, bytes}};
  std::lock_guard guard(p.lock);
  send(p, op, target, parts, 2);
  mark_written(p, target);
  return 0;
}

std::uint64_t TcpTransport::strided(const StridedOp& op, bool blocking) {
  if (op.shape.levels == 0)
    return transfer_contiguous(op.kind, op.type, op.scale, op.local, op.remote, op.shape.count[0], *op.slice, op.target,
                               blocking);
  if (op.kind == OpKind::Get) return get(name_of(op.kind), op.local, op.remote, op.shape, op.target, blocking);
  Header h = header(op.kind == OpKind::Put ? Kind::Put : Kind::Acc, op.remote, 0);
  if (op.kind == OpKind::Acc) set_acc(h, op.type, op.scale);
  write_strided(name_of(op.kind), h, op);
  return 0;
}

// A put or accumulate with levels: the header and descriptor, then the local runs packed in
// pieces of kChunk (the service stages or scatters them as they come).
void TcpTransport::write_strided(const char* name, Header h, const StridedOp& op) {
  Peer& p = peer(name, op.target);
  std::uint64_t desc[2 * kMaxLevels + 1];
  h.levels = static_cast<std::uint8_t>(op.shape.levels);
  h.desc_bytes = static_cast<std::uint32_t>(describe_shape(op.shape, true, desc));
  h.payload = op.shape.bytes();
  RunWalker local(op.local, op.shape, false);
  std::lock_guard guard(p.lock);
  p.scratch.resize(std::max<std::size_t>(p.scratch.size(), std::min<std::size_t>(h.payload, kChunk)));
  iovec parts[3] = {{&h, sizeof h}, {desc, h.desc_bytes}, {p.scratch.data(), 0}};
  parts[2].iov_len = local.gather(p.scratch.data(), std::min<std::size_t>(h.payload, kChunk));
  send(p, name, op.target, parts, 3);
  while (!local.at_end()) {
    iovec piece{p.scratch.data(), local.gather(p.scratch.data(), kChunk)};
    send(p, name, op.target, &piece, 1);
  }
  mark_written(p, op.target);
}

// A get: the request now; its answer read now (blocking) or by the wait for its token, so that
// nonblocking gets to one target are in flight together. Answers come in order, so reading one
// first reads every earlier pending answer on the connection (finish_gets).
std::uint64_t TcpTransport::get(const char* name, std::byte* local, std::byte* remote, const Shape& shape, int target,
                                bool blocking) {
  Peer& p = peer(name, target);
  std::uint64_t desc[2 * kMaxLevels + 1];
  Header h = header(Kind::Get, remote, shape.bytes());
  h.levels = static_cast<std::uint8_t>(shape.levels);
  h.desc_bytes = shape.levels ? static_cast<std::uint32_t>(describe_shape(shape, false, desc)) : 0;
  iovec parts[2] = {{&h, sizeof h}, {desc, h.desc_bytes}};
  std::lock_guard guard(p.lock);
  send(p, name, target, parts, h.desc_bytes ? 2 : 1);
  p.gets.push_back({local, shape});
  const std::uint64_t seq = ++p.gets_issued;
  if (blocking) {
    finish_gets(p, name, target, seq);
    return 0;
  }
  service_->watch_answers(p.fd.get(), &p);
  return (static_cast<std::uint64_t>(target) + 1) << kTokenSeqBits | (seq & kTokenSeqMask);
}

// Moves the front pending get's answer on by one piece (its Reply, the rest of a contiguous
// payload, or a strided payload's next chunk): all of the piece (blocking), or what has arrived
// of it. False: nothing had (non-blocking only). Strided answers pass through `unpack`, not
// `scratch`, which a send that is reading answers meanwhile may be packing from. Called with
// p.lock held.
bool TcpTransport::read_answer_piece(Peer& p, const char* name, int target, bool blocking) {
  PendingGet& g = p.gets.front();
  const bool in_reply = p.reply_got < sizeof p.reply;
  std::byte* into = reinterpret_cast<std::byte*>(&p.reply) + p.reply_got;
  std::size_t want = sizeof p.reply - p.reply_got;
  if (!in_reply) {
    want = static_cast<std::size_t>(p.reply.payload - p.payload_got);
    if (g.shape.levels == 0) {
      into = g.local + p.payload_got;
    } else {
      want = std::min(want, kChunk);
      if (p.unpack.size() < want) p.unpack.resize(want);
      into = p.unpack.data();
      if (!p.walker) p.walker.emplace(g.local, g.shape, true);
    }
  }
  std::size_t got = want;
  if (blocking) {
    receive(p, name, target, into, want);
  } else if (want > 0) {
    const ssize_t n = ::recv(p.fd.get(), into, want, MSG_DONTWAIT);
    if (n == 0) fail_receiving(name, target, ECONNRESET);
    if (n < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return false;
      fail_receiving(name, target, errno);
    }
    got = static_cast<std::size_t>(n);
  }
  if (in_reply) {
    p.reply_got += got;
    if (p.reply_got == sizeof p.reply && p.reply.payload != g.shape.bytes())
      throw_state(name, "rank " + std::to_string(target) + " answered a get of " + std::to_string(g.shape.bytes()) +
                            " bytes with " + std::to_string(p.reply.payload) + ": the connection is out of step");
  } else {
    if (p.walker) p.walker->scatter(into, got);
    p.payload_got += got;
  }
  if (p.reply_got == sizeof p.reply && p.payload_got == p.reply.payload) {
    p.gets.pop_front();
    ++p.gets_done;
    p.reply_got = 0;
    p.payload_got = 0;
    p.walker.reset();
  }
  return true;
}

// Reads the answers of this connection's pending gets up to number `seq`, in order, each into
// its destination. Called with p.lock held.
void TcpTransport::finish_gets(Peer& p, const char* name, int target, std::uint64_t seq) {
  if (!p.broken.empty()) throw_state(name, p.broken);
  while (p.gets_done < seq) read_answer_piece(p, name, target, true);
}

// Reads what has arrived of the pending gets' answers. `finish_begun`: an answer that has begun
// is read to its end (one sleep until it is in, not a wake-up per segment): safe where the
// caller waits for nothing of ours, as its sender only waits for room on this connection. Else
// (inside a send or an answer of ours that waits for room, whose peer may wait for us) it never
// blocks, polling for ARMADA_TCP_SPIN_US while an answer's bytes flow. Called with p.lock held.
void TcpTransport::read_arrived_answers(Peer& p, const char* name, int target, bool finish_begun) {
  if (!p.broken.empty()) throw_state(name, p.broken);
  using Clock = std::chrono::steady_clock;
  auto last = Clock::now();
  while (p.gets_done < p.gets_issued) {
    if (read_answer_piece(p, name, target, false)) {
      while (finish_begun && (p.reply_got > 0 || p.payload_got > 0)) read_answer_piece(p, name, target, true);
      last = Clock::now();
      continue;
    }
    const bool mid_answer = p.reply_got > 0 || p.payload_got > 0;
    if (!mid_answer || Clock::now() - last >= std::chrono::nanoseconds(spin_ns_)) return;
    cpu_relax();
  }
}

// From the serving thread: the answers that have begun to arrive are read into their
// destinations now, while the rank computes. A rank that holds the connection reads them itself.
void TcpTransport::collect_answers(Peer& p, bool may_wait) {
  p.lock.turn_away();
  std::unique_lock guard(p.lock, std::try_to_lock);
  if (!guard) return;  // the holder re-arms the watch as it lets go
  p.lock.taken();
  try {
    read_arrived_answers(p, "rma::get_nb (tcp)", p.rank, may_wait);
  } catch (const Error& e) {
    p.broken = e.what();  // the rank's wait reports it
    return;
  }
  if (p.gets_done < p.gets_issued) service_->watch_answers(p.fd.get(), &p);
}

tcp::Reply TcpTransport::answer(Peer& p, const char* name, int target) {
  finish_gets(p, name, target, p.gets_issued);
  tcp::Reply r{};
  receive(p, name, target, &r, sizeof r);
  return r;
}

std::uint64_t TcpTransport::vector(const VectorOp& op, bool) {
  const char* name = op.kind == OpKind::Put ? "rma::putv (tcp)" : op.kind == OpKind::Get ? "rma::getv (tcp)" : "rma::accv (tcp)";
  const bool remote_dst = op.kind != OpKind::Get;
  std::vector<std::uint64_t> desc;
  std::uint64_t total = 0;
  for (const IoSet& set : op.sets) {
    desc.push_back(set.bytes);
    desc.push_back(set.src.size());
    for (void* remote : remote_dst ? set.dst : set.src) desc.push_back(reinterpret_cast<std::uint64_t>(remote));
    total += set.bytes * set.src.size();
  }
  if (desc.size() * sizeof(std::uint64_t) > std::uint64_t{1} << 30)
    throw_unsupported(name, "an I/O vector operation of more than 2^27 segments over the tcp transport");
  Header h = header(op.kind == OpKind::Put ? Kind::PutV : op.kind == OpKind::Get ? Kind::GetV : Kind::AccV, nullptr, total);
  if (op.kind == OpKind::Acc) set_acc(h, op.type, op.scale);
  h.desc_bytes = static_cast<std::uint32_t>(desc.size() * sizeof(std::uint64_t));
  Peer& p = peer(name, op.target);
  std::lock_guard guard(p.lock);
  p.scratch.resize(std::max<std::size_t>(p.scratch.size(), total));
  std::byte* packed = p.scratch.data();
  // A vector operation packs all its data at once: a large one's buffer is not kept afterwards.
  const struct Release {
    std::vector<std::byte>& scratch;
    ~Release() {
      if (scratch.capacity() > 4 * kChunk) std::vector<std::byte>().swap(scratch);
    }
  } release{p.scratch};
  if (op.kind == OpKind::Get) {
    iovec parts[2] = {{&h, sizeof h}, {desc.data(), h.desc_bytes}};
    send(p, name, op.target, parts, 2);
    answer(p, name, op.target);
    receive(p, name, op.target, packed, total);
    for (const IoSet& set : op.sets)
      for (void* local : set.dst) {
        std::memcpy(local, packed, set.bytes);
        packed += set.bytes;
      }
    return 0;
  }
  for (const IoSet& set : op.sets)
    for (void* local : set.src) {
      std::memcpy(packed, local, set.bytes);
      packed += set.bytes;
    }
  iovec parts[3] = {{&h, sizeof h}, {desc.data(), h.desc_bytes}, {p.scratch.data(), total}};
  send(p, name, op.target, parts, 3);
  mark_written(p, op.target);
  return 0;
}

namespace {
Header notify_header(const void* remote, const NotifyFlag& flag) {
  Header h = header(Kind::Put, remote, 0);
  h.notify_how = flag.how == Notify::Set ? tcp::kNotifySet : tcp::kNotifyAdd;
  h.width = static_cast<std::uint8_t>(flag.width);
  h.notify = reinterpret_cast<std::uint64_t>(flag.flag);
  h.notify_value = flag.value;
  return h;
}
}  // namespace

// One frame: the service writes the flag after the data, on the same thread.
void TcpTransport::put_notify(const StridedOp& data, const NotifyFlag& flag) {
  constexpr const char* name = "rma::put_notify (tcp)";
  Header h = notify_header(data.remote, flag);
  if (data.shape.levels > 0) {
    write_strided(name, h, data);
    return;
  }
  Peer& p = peer(name, data.target);
  h.payload = data.shape.count[0];
  iovec parts[2] = {{&h, sizeof h}, {data.local, h.payload}};
  std::lock_guard guard(p.lock);
  send(p, name, data.target, parts, 2);
  mark_written(p, data.target);
}

// A put frame without payload: one way, like a put (its completion is the next fence's).
void TcpTransport::put_flag(const NotifyFlag& flag, int target) {
  constexpr const char* name = "rma::put_notify (tcp)";
  Header h = notify_header(nullptr, flag);
  Peer& p = peer(name, target);
  iovec part{&h, sizeof h};
  std::lock_guard guard(p.lock);
  send(p, name, target, &part, 1);
  mark_written(p, target);
}

// ---- atomics and mutexes ---------------------------------------------------------------------

void TcpTransport::rmw(RmwOp op, std::size_t width, void* remote, const Slice&, int target, const void* operand,
                       const void* compare, void* result) {
  const char* name = kRmwName[static_cast<int>(op)];
  Header h = header(Kind::Rmw, remote, 0);
  h.rmw_op = static_cast<std::uint8_t>(op);
  h.width = static_cast<std::uint8_t>(width);
  std::memcpy(h.operand, operand, width);
  if (op == RmwOp::CompareSwap) std::memcpy(h.compare, compare, width);
  Peer& p = peer(name, target);
  std::lock_guard guard(p.lock);
  const tcp::Reply r = ask(p, name, target, h);
  std::memcpy(result, &r.value, width);  // little-endian: the low `width` bytes
}

// A 32-bit atomic on one word of a TicketMutex (transport/base/locks.hpp) at its owner; errors
// name the mutex operation `name`.
std::uint32_t TcpTransport::mutex_word(const char* name, void* word, std::size_t field, RmwOp how,
                                       std::uint32_t operand, std::uint32_t compare, const Slice&, int target) {
  Header h = header(Kind::Rmw, static_cast<std::byte*>(word) + field, 0);
  h.rmw_op = static_cast<std::uint8_t>(how);
  h.width = 4;
  std::memcpy(h.operand, &operand, 4);
  std::memcpy(h.compare, &compare, 4);
  Peer& p = peer(name, target);
  std::lock_guard guard(p.lock);
  return static_cast<std::uint32_t>(ask(p, name, target, h).value);
}

void TcpTransport::mutex_lock(void* word, const Slice& slice, int target) {
  constexpr const char* name = "rma::MutexSet::lock (tcp)";
  const std::uint32_t ticket = mutex_word(name, word, offsetof(TicketMutex, next), RmwOp::FetchAdd, 1, 0, slice, target);
  PollPause pause(kMutexPollSleepMaxNs, 0);  // each poll is a round trip already
  while (mutex_word(name, word, offsetof(TicketMutex, serving), RmwOp::FetchAdd, 0, 0, slice, target) != ticket)
    pause.pause();
  mutex_word(name, word, offsetof(TicketMutex, owner), RmwOp::Swap, static_cast<std::uint32_t>(me_ + 1), 0, slice, target);
}

bool TcpTransport::mutex_try_lock(void* word, const Slice& slice, int target) {
  constexpr const char* name = "rma::MutexSet::try_lock (tcp)";
  const std::uint32_t serving = mutex_word(name, word, offsetof(TicketMutex, serving), RmwOp::FetchAdd, 0, 0, slice, target);
  // Free exactly when next == serving: take the ticket only then.
  if (mutex_word(name, word, offsetof(TicketMutex, next), RmwOp::CompareSwap, serving + 1, serving, slice, target) != serving)
    return false;
  mutex_word(name, word, offsetof(TicketMutex, owner), RmwOp::Swap, static_cast<std::uint32_t>(me_ + 1), 0, slice, target);
  return true;
}

// The owner's service releases it (TicketMutex::unlock there wakes the node's sleeping waiters).
void TcpTransport::mutex_unlock(void* word, const Slice&, int target) {
  constexpr const char* name = "rma::MutexSet::unlock (tcp)";
  fence_all();  // what the critical section wrote, anywhere, is in place before the next holder
  const Header h = header(Kind::Unlock, word, static_cast<std::uint64_t>(me_));
  Peer& p = peer(name, target);
  std::unique_lock guard(p.lock);
  const tcp::Reply r = ask(p, name, target, h);
  guard.unlock();
  if (r.value != 1)
    throw_invalid("rma::MutexSet::unlock", "mutex", to_hex(word) + " on rank " + std::to_string(target),
                  "this rank does not hold the mutex");
}

// ---- completion ----

void TcpTransport::wait(std::uint64_t token) {
  if (token == 0) return;
  const int target = static_cast<int>((token >> kTokenSeqBits) - 1);
  Peer& p = *peers_[static_cast<std::size_t>(target)].load(std::memory_order_acquire);
  std::lock_guard guard(p.lock);
  const std::uint64_t seq = (p.gets_issued & ~kTokenSeqMask) | (token & kTokenSeqMask);
  finish_gets(p, "rma::wait (tcp)", target, seq);
}

// Done, after reading what has arrived of its answer and the earlier ones (a large answer is
// taken piece by piece over successive tests).
bool TcpTransport::test(std::uint64_t token) {
  if (token == 0) return true;
  const int target = static_cast<int>((token >> kTokenSeqBits) - 1);
  Peer& p = *peers_[static_cast<std::size_t>(target)].load(std::memory_order_acquire);
  std::lock_guard guard(p.lock);
  const std::uint64_t seq = (p.gets_issued & ~kTokenSeqMask) | (token & kTokenSeqMask);
  if (p.gets_done < seq) read_arrived_answers(p, "rma::test (tcp)", target, true);
  return p.gets_done >= seq;
}

void TcpTransport::fence(int target) {
  Peer* p = peers_[static_cast<std::size_t>(target)].load(std::memory_order_acquire);
  if (!p) return;  // never contacted: nothing to complete
  std::lock_guard guard(p->lock);
  if (!p->written) return;
  p->written = false;
  ask(*p, "rma::fence (tcp)", target, header(Kind::Ack, nullptr, 0));
}

// Every written target is asked at once, then each answer is awaited: one round trip in all,
// not one per target. The peers' locks are taken in rank order, as every fence_all does.
void TcpTransport::fence_all() {
  constexpr const char* name = "rma::fence_all (tcp)";
  std::vector<int> targets;
  {
    std::lock_guard guard(written_mutex_);
    targets.swap(written_);
  }
  std::sort(targets.begin(), targets.end());
  targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
  std::vector<std::pair<int, std::unique_lock<PeerLock>>> asked;
  const Header ack = header(Kind::Ack, nullptr, 0);
  for (int t : targets) {
    Peer& p = *peers_[static_cast<std::size_t>(t)].load(std::memory_order_acquire);
    std::unique_lock guard(p.lock);
    if (!p.written) continue;  // a fence(t) came first
    p.written = false;
    iovec part{const_cast<Header*>(&ack), sizeof ack};
    send(p, name, t, &part, 1);
    asked.emplace_back(t, std::move(guard));
  }
  for (auto& [t, guard] : asked) answer(*peers_[static_cast<std::size_t>(t)].load(std::memory_order_relaxed), name, t);
}

// A waiting rank serves, at most once per ARMADA_TCP_WAITER_POLL_US: each look is a system call
// (NAS CG class A, 2 emulated hosts x 2 ranks on 2 cores: 1.59 s looking on every round of a wait,
// 0.60 s never, 0.68 s every 20 us, when a look held the serving lock). Since a look takes the lock
// only when it found something (Service::poll_once), frequent looks cost CG nothing and find a
// request before the service thread would (woken on the sender's CPU, two system calls before it
// reads): the setting's default and its measurements are in its row (init.cpp) and docs/rma.md.
void TcpTransport::poll() {
  if (waiter_poll_ns_ <= 0) return;
  const std::int64_t now = std::chrono::steady_clock::now().time_since_epoch().count();
  std::int64_t last = last_poll_ns_.load(std::memory_order_relaxed);
  if (now - last < waiter_poll_ns_ || !last_poll_ns_.compare_exchange_strong(last, now, std::memory_order_relaxed))
    return;
  service_->poll_once();
}

// ---- diagnostics -----------------------------------------------------------------------------

void TcpTransport::describe(int target, TransportInfo& info) const {
  info.route.push_back({"address", tcp::describe(endpoints_[static_cast<std::size_t>(target)])});
  info.route.push_back({"connected", peers_[static_cast<std::size_t>(target)].load() ? "yes" : "no"});
  info.process.push_back({"listening", tcp::describe(endpoints_[static_cast<std::size_t>(me_)])});
  info.process.push_back({"connections_out", std::to_string(connections_out_.load(std::memory_order_relaxed))});
  info.process.push_back({"connections_in", std::to_string(service_->connections())});
  info.process.push_back({"frames_served", std::to_string(service_->frames())});
  info.process.push_back({"service_wakeups", std::to_string(service_->wakeups())});
  info.process.push_back({"waiter_serves", std::to_string(service_->waiter_serves())});
  info.process.push_back({"spin_us", std::to_string(settings_.spin_us)});
  info.process.push_back({"service_spin_us", std::to_string(settings_.service_spin_us)});
  info.process.push_back({"waiter_poll_us", std::to_string(settings_.waiter_poll_us)});
}

}  // namespace armada::rma::detail
