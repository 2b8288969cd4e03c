#include "transport/tcp/tcp_transport.hpp"

#include <mpi.h>

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
      endpoints_(static_cast<std::size_t>(c.size)), links_(new std::atomic<tcp::Link*>[static_cast<std::size_t>(c.size)]),
      connecting_(new std::atomic<bool>[static_cast<std::size_t>(c.size)]) {
  constexpr const char* op = "rma::init (tcp)";
  for (int r = 0; r < c.size; ++r) {
    links_[static_cast<std::size_t>(r)].store(nullptr, std::memory_order_relaxed);
    connecting_[static_cast<std::size_t>(r)].store(false, std::memory_order_relaxed);
  }
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
  host_.reset(new tcp::LinkHost{.job_key = job_key_, .me = me_, .memory = c.node_memory,
                                 .introduced = [this](tcp::Link& l) { return introduced(l); },
                                 .rearm = {},   // the service's
                                 .disarm = {},  // the service's
                                 .describe = [this](int rank) { return describe_rank(rank); }});
  service_ = std::make_unique<tcp::Service>(std::move(listener), *host_,
                                           static_cast<long>(settings.service_spin_us) * 1000, idle_cpu_);
}

// The service goes first (it may be reading a link); its links close with it, so every peer sees
// its end of them close.
TcpTransport::~TcpTransport() { service_.reset(); }

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

// ---- links -----------------------------------------------------------------------------------

std::string TcpTransport::describe_rank(int rank) const {
  return "rank " + std::to_string(rank) + " (" + tcp::describe(endpoints_[static_cast<std::size_t>(rank)]) + ")";
}

// The link requests to `target` go by, the same at both ends: the first one made between the
// two processes, or, when both open one at the same moment, the one the lower rank opened. The
// opener's Hello is answered with the verdict (introduced(), at the other end); a link that lost
// stays open and served, and carries nothing.
tcp::Link& TcpTransport::link(const char* op, int target) {
  const auto t = static_cast<std::size_t>(target);
  tcp::Link* l = links_[t].load(std::memory_order_acquire);
  if (l) return *l;
  std::lock_guard guard(connect_mutex_);
  l = links_[t].load(std::memory_order_acquire);
  if (l) return *l;
  connecting_[t].store(true, std::memory_order_seq_cst);
  const struct Done {
    std::atomic<bool>& flag;
    ~Done() { flag.store(false, std::memory_order_release); }
  } done{connecting_[t]};
  tcp::Fd fd = tcp::connect_to(op, endpoints_[t], target, settings_.connect_timeout_ms);
  tcp::Link& made = service_->add_opened(std::move(fd), target);
  std::uint64_t verdict = 0, seq;
  {
    Header hello = header(Kind::Hello, nullptr, static_cast<std::uint64_t>(me_));
    hello.remote = job_key_;
    iovec part{&hello, sizeof hello};
    tcp::Link::Writer w(made, op);
    seq = w.owe(tcp::Owed::value_into(&verdict));
    w.send(&part, 1);
  }
  await(made, op, target, seq);
  tcp::Link* expected = nullptr;
  if (verdict == 1 && links_[t].compare_exchange_strong(expected, &made, std::memory_order_acq_rel)) {
    contacted(made);
    return made;
  }
  // The other end's link is the pair's: its Hello has come or is on its way (a reader of this
  // process registers it), as the target opened it before it answered ours.
  using Clock = std::chrono::steady_clock;
  const auto give_up = Clock::now() + std::chrono::milliseconds(settings_.connect_timeout_ms);
  PollPause pause(kMutexPollSleepMaxNs);
  while (!(l = links_[t].load(std::memory_order_acquire))) {
    if (Clock::now() > give_up)
      throw_state(op, describe_rank(target) + " answered that its own connection to this rank is the pair's, and it did "
                                              "not arrive within ARMADA_TCP_CONNECT_TIMEOUT_MS");
    pause.pause();
  }
  return *l;
}

// An accepted link's Hello (a reader of this process, which must not wait for connect_mutex_: its
// holder may be waiting for the other end to read our own Hello). The pair's link is the one
// already registered, else the lower rank's when both ends are connecting, else this one.
bool TcpTransport::introduced(tcp::Link& l) {
  const int from = l.peer();
  const auto f = static_cast<std::size_t>(from);
  if (links_[f].load(std::memory_order_acquire)) return false;
  if (connecting_[f].load(std::memory_order_seq_cst) && me_ < from) return false;  // ours wins
  tcp::Link* expected = nullptr;
  if (!links_[f].compare_exchange_strong(expected, &l, std::memory_order_acq_rel)) return false;
  contacted(l);
  return true;
}

void TcpTransport::contacted(tcp::Link& l) {
  std::lock_guard guard(written_mutex_);
  contacted_.push_back(&l);
}

// A request continues a loop when the link's last answer came within ARMADA_TCP_SPIN_US: the
// origin sends back to back (a get or atomic loop, a run of blocking calls). It then says so to
// the target (kNextSoon: the service polls for the next request) and polls for its own answer,
// whatever the CPUs' load: where both ends poll, no request and no answer pays a wake-up, and on a
// full node a wake-up is what costs (docs/rma.md, tcp "Progress"). Each poll is bounded by the
// window, so a loop that ends costs each end one window.
bool TcpTransport::in_request_loop(const tcp::Link& l, Header& h) const {
  const bool loop = spin_ns_ > 0 && l.answered_within(spin_ns_);
  if (loop) h.hints |= tcp::kNextSoon;
  return loop;
}

// Polled for ARMADA_TCP_SPIN_US in a loop of requests, or else unless the CPUs have been busy for
// the last looks (idle_cpus.hpp: a polling thread that lost its core to another would wait for a
// time slice; a sleeping one is woken at once). An answer that has not begun after
// ARMADA_STALL_WARN seconds is said so, once, naming the rank and its host (a cut link or a
// stopped process: the launcher names neither), then waited for.
tcp::WaitStyle TcpTransport::wait_style(const char* op, int target, bool in_loop) const {
  tcp::WaitStyle style;
  style.spin_ns = spin_ns_ > 0 && (in_loop || idle_cpu_.idle_cpu(kOriginLookAge)) ? spin_ns_ : 0;
  style.stall_ms = stall_warn_s_ > 0 ? stall_warn_s_ * 1000 : -1;
  style.stalled = [this, op, target] { warn_stall(op, rank_on_host(target, topology_), stall_warn_s_); };
  return style;
}

void TcpTransport::await(tcp::Link& l, const char* op, int target, std::uint64_t seq, bool in_loop) {
  l.await(op, seq, wait_style(op, target, in_loop));
}

// A request whose answer is a value (an atomic, a mutex step, an Ack), waited for.
std::uint64_t TcpTransport::ask(const char* op, int target, Header h) {
  tcp::Link& l = link(op, target);
  const bool loop = in_request_loop(l, h);
  std::uint64_t value = 0;
  std::uint64_t seq;
  {
    tcp::Link::Writer w(l, op);
    seq = w.owe(tcp::Owed::value_into(&value));
    iovec part{&h, sizeof h};
    w.send(&part, 1);
  }
  await(l, op, target, seq, loop);
  return value;
}

// Called with the link's Writer.
void TcpTransport::mark_written(tcp::Link::Writer& w, int target) {
  if (w.written()) return;
  w.written() = true;
  std::lock_guard guard(written_mutex_);
  written_.push_back(target);
}

// ---- data movement ---------------------------------------------------------------------------

std::uint64_t TcpTransport::transfer_contiguous(OpKind kind, AccType type, const void* scale, std::byte* local,
                                                std::byte* remote, std::size_t bytes, const Slice&, int target,
                                                bool blocking) {
  const char* op = name_of(kind);
  if (kind == OpKind::Get) return get(op, local, remote, Shape::single_run(bytes), target, blocking);
  Header h = header(kind == OpKind::Put ? Kind::Put : Kind::Acc, remote, bytes);
  if (kind == OpKind::Acc) set_acc(h, type, scale);
  iovec parts[2] = {{&h, sizeof h}, {local, bytes}};
  tcp::Link::Writer w(link(op, target), op);
  w.send(parts, 2);
  mark_written(w, target);
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
// pieces of kChunk (the target stages or scatters them as they come).
void TcpTransport::write_strided(const char* name, Header h, const StridedOp& op) {
  std::uint64_t desc[2 * kMaxLevels + 1];
  h.levels = static_cast<std::uint8_t>(op.shape.levels);
  h.desc_bytes = static_cast<std::uint32_t>(describe_shape(op.shape, true, desc));
  h.payload = op.shape.bytes();
  RunWalker local(op.local, op.shape, false);
  tcp::Link::Writer w(link(name, op.target), name);
  std::vector<std::byte>& scratch = w.scratch();
  scratch.resize(std::max<std::size_t>(scratch.size(), std::min<std::size_t>(h.payload, kChunk)));
  iovec parts[3] = {{&h, sizeof h}, {desc, h.desc_bytes}, {scratch.data(), 0}};
  parts[2].iov_len = local.gather(scratch.data(), std::min<std::size_t>(h.payload, kChunk));
  w.send(parts, 3);
  while (!local.at_end()) {
    iovec piece{scratch.data(), local.gather(scratch.data(), kChunk)};
    w.send(&piece, 1);
  }
  mark_written(w, op.target);
}

// A get: the request now; its answer waited for now (blocking) or by the wait for its token. The
// answer lands in `local` wherever the link is read first (link.hpp), so nonblocking gets to one
// target are in flight together and complete while the rank computes.
std::uint64_t TcpTransport::get(const char* name, std::byte* local, std::byte* remote, const Shape& shape, int target,
                                bool blocking) {
  tcp::Link& l = link(name, target);
  std::uint64_t desc[2 * kMaxLevels + 1];
  Header h = header(Kind::Get, remote, shape.bytes());
  const bool loop = blocking && in_request_loop(l, h);
  h.levels = static_cast<std::uint8_t>(shape.levels);
  h.desc_bytes = shape.levels ? static_cast<std::uint32_t>(describe_shape(shape, false, desc)) : 0;
  iovec parts[2] = {{&h, sizeof h}, {desc, h.desc_bytes}};
  tcp::Owed owed = tcp::Owed::data(shape.bytes());
  if (shape.levels == 0)
    owed.direct = local;
  else
    owed.walker.emplace(local, shape, true);
  std::uint64_t seq;
  {
    tcp::Link::Writer w(l, name);
    seq = w.owe(std::move(owed));
    w.send(parts, h.desc_bytes ? 2 : 1);
  }
  if (blocking) {
    await(l, name, target, seq, loop);
    return 0;
  }
  return (static_cast<std::uint64_t>(target) + 1) << kTokenSeqBits | (seq & kTokenSeqMask);
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
  tcp::Link& l = link(name, op.target);
  if (op.kind == OpKind::Get) {  // the answer goes straight to the local segments, in order
    const bool loop = in_request_loop(l, h);
    std::vector<std::pair<std::byte*, std::size_t>> runs;
    for (const IoSet& set : op.sets)
      for (void* local : set.dst) runs.emplace_back(static_cast<std::byte*>(local), set.bytes);
    tcp::Owed owed = tcp::Owed::data(total);
    owed.walker.emplace(std::move(runs));
    std::uint64_t seq;
    {
      tcp::Link::Writer w(l, name);
      seq = w.owe(std::move(owed));
      iovec parts[2] = {{&h, sizeof h}, {desc.data(), h.desc_bytes}};
      w.send(parts, 2);
    }
    await(l, name, op.target, seq, loop);
    return 0;
  }
  tcp::Link::Writer w(l, name);
  std::vector<std::byte>& scratch = w.scratch();
  scratch.resize(std::max<std::size_t>(scratch.size(), total));
  // A vector operation packs all its data at once: a large one's buffer is not kept afterwards.
  const struct Release {
    std::vector<std::byte>& scratch;
    ~Release() {
      if (scratch.capacity() > 4 * kChunk) std::vector<std::byte>().swap(scratch);
    }
  } release{scratch};
  std::byte* packed = scratch.data();
  for (const IoSet& set : op.sets)
    for (void* local : set.src) {
      std::memcpy(packed, local, set.bytes);
      packed += set.bytes;
    }
  iovec parts[3] = {{&h, sizeof h}, {desc.data(), h.desc_bytes}, {scratch.data(), total}};
  w.send(parts, 3);
  mark_written(w, op.target);
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

// One frame: the target writes the flag after the data, on the same thread.
void TcpTransport::put_notify(const StridedOp& data, const NotifyFlag& flag) {
  constexpr const char* name = "rma::put_notify (tcp)";
  Header h = notify_header(data.remote, flag);
  if (data.shape.levels > 0) {
    write_strided(name, h, data);
    return;
  }
  h.payload = data.shape.count[0];
  iovec parts[2] = {{&h, sizeof h}, {data.local, h.payload}};
  tcp::Link::Writer w(link(name, data.target), name);
  w.send(parts, 2);
  mark_written(w, data.target);
}

// A put frame without payload: one way, like a put (its completion is the next fence's).
void TcpTransport::put_flag(const NotifyFlag& flag, int target) {
  constexpr const char* name = "rma::put_notify (tcp)";
  Header h = notify_header(nullptr, flag);
  iovec part{&h, sizeof h};
  tcp::Link::Writer w(link(name, target), name);
  w.send(&part, 1);
  mark_written(w, target);
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
  const std::uint64_t old = ask(name, target, h);
  std::memcpy(result, &old, width);  // little-endian: the low `width` bytes
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
  return static_cast<std::uint32_t>(ask(name, target, h));
}

// The ticket is taken at the owner, which says at once whether it is served (one round trip for
// a free mutex: session 39, lock + unlock 4 round trips -> 2); else the ticket's turn is polled.
void TcpTransport::mutex_lock(void* word, const Slice& slice, int target) {
  constexpr const char* name = "rma::MutexSet::lock (tcp)";
  const std::uint64_t taken = ask(name, target, header(Kind::Lock, word, static_cast<std::uint64_t>(me_)));
  if (taken & tcp::kLockHeld) return;
  const auto ticket = static_cast<std::uint32_t>(taken);
  PollPause pause(kMutexPollSleepMaxNs, 0);  // each poll is a round trip already
  while (mutex_word(name, word, offsetof(TicketMutex, serving), RmwOp::FetchAdd, 0, 0, slice, target) != ticket)
    pause.pause();
  mutex_word(name, word, offsetof(TicketMutex, owner), RmwOp::Swap, static_cast<std::uint32_t>(me_ + 1), 0, slice, target);
}

// Run at the owner as one step (TicketMutex::try_lock): one round trip.
bool TcpTransport::mutex_try_lock(void* word, const Slice&, int target) {
  constexpr const char* name = "rma::MutexSet::try_lock (tcp)";
  return ask(name, target, header(Kind::TryLock, word, static_cast<std::uint64_t>(me_))) == 1;
}

// The owner releases it (TicketMutex::unlock there wakes the node's sleeping waiters).
void TcpTransport::mutex_unlock(void* word, const Slice&, int target) {
  constexpr const char* name = "rma::MutexSet::unlock (tcp)";
  fence_all();  // what the critical section wrote, anywhere, is in place before the next holder
  if (ask(name, target, header(Kind::Unlock, word, static_cast<std::uint64_t>(me_))) != 1)
    throw_invalid("rma::MutexSet::unlock", "mutex", to_hex(word) + " on rank " + std::to_string(target),
                  "this rank does not hold the mutex");
}

// ---- completion ----

void TcpTransport::wait(std::uint64_t token) {
  if (token == 0) return;
  const int target = static_cast<int>((token >> kTokenSeqBits) - 1);
  tcp::Link& l = *links_[static_cast<std::size_t>(target)].load(std::memory_order_acquire);
  const std::uint64_t seq = (l.requests_sent() & ~kTokenSeqMask) | (token & kTokenSeqMask);
  await(l, "rma::wait (tcp)", target, seq);
}

bool TcpTransport::test(std::uint64_t token) {
  if (token == 0) return true;
  const int target = static_cast<int>((token >> kTokenSeqBits) - 1);
  tcp::Link& l = *links_[static_cast<std::size_t>(target)].load(std::memory_order_acquire);
  const std::uint64_t seq = (l.requests_sent() & ~kTokenSeqMask) | (token & kTokenSeqMask);
  return l.arrived("rma::test (tcp)", seq);
}

// A fence waits for an Ack sent after this thread's writes: its own if the link was written
// since the last one, else the last one (another thread's fence may have taken the written mark
// and its Ack still be on its way).
void TcpTransport::fence(int target) {
  constexpr const char* name = "rma::fence (tcp)";
  tcp::Link* l = links_[static_cast<std::size_t>(target)].load(std::memory_order_acquire);
  if (!l) return;  // never contacted: nothing to complete
  std::uint64_t seq;
  {
    tcp::Link::Writer w(*l, name);
    if (w.written()) {
      w.written() = false;
      seq = w.ack();
    } else {
      seq = l->last_ack();  // sent after whatever write cleared the mark (the send lock orders them)
    }
  }
  if (seq && !l->answered(seq)) await(*l, name, target, seq);
}

// Every written target is asked at once, then each answer is awaited: one round trip in all,
// not one per target. Then any Ack another thread's fence has on its way (its written marks
// may have been this thread's writes): the links contacted, not every rank.
void TcpTransport::fence_all() {
  constexpr const char* name = "rma::fence_all (tcp)";
  std::vector<int> targets;
  {
    std::lock_guard guard(written_mutex_);
    targets.swap(written_);
  }
  std::sort(targets.begin(), targets.end());
  targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
  for (int t : targets) {
    tcp::Link::Writer w(*links_[static_cast<std::size_t>(t)].load(std::memory_order_acquire), name);
    if (!w.written()) continue;  // a fence(t) came first
    w.written() = false;
    w.ack();
  }
  std::vector<tcp::Link*> contacted;
  {
    std::lock_guard guard(written_mutex_);
    contacted = contacted_;
  }
  for (tcp::Link* l : contacted) {
    const std::uint64_t seq = l->last_ack();
    if (seq && !l->answered(seq)) await(*l, name, l->peer(), seq);
  }
}

// A waiting rank serves, at most once per ARMADA_TCP_WAITER_POLL_US: each look is a system call
// (NAS CG class A, 2 emulated hosts x 2 ranks on 2 cores: 1.59 s looking on every round of a wait,
// 0.60 s never, 0.68 s every 20 us, when a look held a serving lock for the whole process). Where
// the CPUs are busy a look takes a link's read turn only when epoll reported it
// (Service::poll_once), so frequent looks cost CG nothing; where one is idle (the waiter keeps its
// core) it first reads the link served last directly, as the polling service does. Either way it
// finds a request before the service thread would (woken on the sender's CPU, two system calls
// before it reads): the setting's default and its measurements are in its row (init.cpp) and
// docs/rma.md.
void TcpTransport::poll() {
  if (waiter_poll_ns_ <= 0) return;
  const std::int64_t now = std::chrono::steady_clock::now().time_since_epoch().count();
  std::int64_t last = last_poll_ns_.load(std::memory_order_relaxed);
  if (now - last < waiter_poll_ns_ || !last_poll_ns_.compare_exchange_strong(last, now, std::memory_order_relaxed))
    return;
  service_->poll_once(idle_cpu_.idle_cpu(kOriginLookAge));
}

// A waiter that looks at most once per ARMADA_TCP_WAITER_POLL_US serves what arrives meanwhile:
// the service thread need not be woken for it (Service::waiter_polls). Where waiters never look,
// they change nothing.
void TcpTransport::polling(bool starts) noexcept {
  if (waiter_poll_ns_ > 0) service_->waiter_polls(starts);
}

// ---- diagnostics -----------------------------------------------------------------------------

void TcpTransport::describe(int target, TransportInfo& info) const {
  info.route.push_back({"address", tcp::describe(endpoints_[static_cast<std::size_t>(target)])});
  const tcp::Link* l = links_[static_cast<std::size_t>(target)].load();
  info.route.push_back({"connected", l ? "yes" : "no"});
  // Which end opened the pair's connection (the same link at both ends: test_tcp checks it).
  if (l) info.route.push_back({"opened_by", std::to_string(l->opened() ? me_ : target)});
  info.process.push_back({"listening", tcp::describe(endpoints_[static_cast<std::size_t>(me_)])});
  info.process.push_back({"connections_out", std::to_string(service_->links_opened())});
  info.process.push_back({"connections_in", std::to_string(service_->links_accepted())});
  info.process.push_back({"frames_served", std::to_string(host_->frames.load(std::memory_order_relaxed))});
  info.process.push_back({"service_wakeups", std::to_string(service_->wakeups())});
  info.process.push_back({"service_direct_reads", std::to_string(service_->direct_reads())});
  info.process.push_back({"requests_next_soon", std::to_string(host_->next_soon_frames.load(std::memory_order_relaxed))});
  info.process.push_back({"waiter_serves", std::to_string(host_->waiter_frames.load(std::memory_order_relaxed))});
  info.process.push_back({"waiter_spells", std::to_string(service_->waiter_spells())});
  info.process.push_back({"payload_sleeps", std::to_string(host_->payload_sleeps.load(std::memory_order_relaxed))});
  info.process.push_back({"service_watches_links", service_->links_watched() ? "yes" : "no"});
  info.process.push_back({"spin_us", std::to_string(settings_.spin_us)});
  info.process.push_back({"service_spin_us", std::to_string(settings_.service_spin_us)});
  info.process.push_back({"waiter_poll_us", std::to_string(settings_.waiter_poll_us)});
}

}  // namespace armada::rma::detail
