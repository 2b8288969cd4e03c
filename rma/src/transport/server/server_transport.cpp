#include "transport/server/server_transport.hpp"

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <set>

#include "common/check.hpp"
#include "common/stall.hpp"
#include "transport/base/waiting.hpp"

namespace armada::rma::detail {

using server::Header;
using server::Kind;

ServerTransport::ServerTransport(int rank, MPI_Comm comm, ServerMap map, ServerSettings settings,
                                 std::unique_ptr<NodeServer> node_server, long rss_growth_kb)
    : me_(rank),
      comm_(comm),
      map_(std::move(map)),
      settings_(settings),
      node_server_(std::move(node_server)),
      rss_growth_kb_(rss_growth_kb) {
  in_flight_.assign(map_.node_of.size(), 0);
  if (settings_.origin_progress) completer_ = std::thread([this] { completer_loop(); });
}

ServerTransport::~ServerTransport() {
  // The world has fenced: no request is in flight.
  if (node_server_) node_server_->stop();
  node_server_.reset();
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  completer_cv_.notify_all();
  if (completer_.joinable()) completer_.join();
  MPI_Comm_free(&comm_);
}

void ServerTransport::completer_loop() {
  // While a nonblocking get is in flight: poll, then sleep ~10 us (timer slack makes it 50-70 us
  // on a VM) and poll again; one poll matches every chunk that has arrived and receives it. No
  // spinning or yielding: on a full machine that would take the core from the computation this
  // thread exists to overlap, or from the target's server. Otherwise block: an idle rank's
  // completer costs nothing.
  std::unique_lock lock(mutex_);
  for (;;) {
    completer_cv_.wait(lock, [&] { return stopping_ || background_gets_ > 0; });
    if (stopping_) return;
    while (background_gets_ > 0 && !stopping_) {
      progress_locked();
      if (background_gets_ == 0) break;
      lock.unlock();
      const timespec ts{0, 10000};
      nanosleep(&ts, nullptr);
      lock.lock();
    }
  }
}

Header ServerTransport::header(Kind kind, int target, const Slice* slice) const {
  Header h{};
  h.kind = kind;
  h.origin = me_;
  h.target = target;
  h.segment = slice ? slice->segment : -1;
  return h;
}

template <class Pred>
void ServerTransport::wait_until(Pred&& pred) {
  // Replies usually come within microseconds, a large transfer's within a few hundred; a longer
  // wait (a contended mutex) sleeps up to 1 ms between polls instead of burning a core (PollPause).
  PollPause pause(server::kWaitSleepMaxNs);
  StallWatch stall(settings_.stall_warn_s);
  for (;;) {
    {
      std::lock_guard lock(mutex_);
      progress_locked();
      if (pred()) return;
      if (stall.due()) {
        const std::string peers = unanswered_locked();
        if (!peers.empty()) warn_stall("rma (server transport): waiting for replies", peers, stall.seconds());
      }
    }
    // This rank's node server may be the one other ranks wait for meanwhile (node_server.hpp).
    if (node_server_ && settings_.waiter_serves) node_server_->serve_arrived();
    pause.pause();
  }
}

std::string ServerTransport::unanswered_locked() const {
  std::map<int, std::set<int>> targets_of;  // server -> targets of its unanswered operations
  for (const auto& [token, op] : ops_)
    if (fence_waits_for(*op)) targets_of[op->server].insert(op->target);
  std::string text;
  for (const auto& [server, targets] : targets_of) {
    if (!text.empty()) text += "; ";
    text += "the node server of " + rank_on_host(server, *map_.topology) + ", for operations on rank";
    if (targets.size() > 1) text += "s";
    const char* separator = " ";
    for (int t : targets) text += separator + std::to_string(t), separator = ", ";
  }
  return text;
}

void ServerTransport::take_credit(int hop, std::unique_lock<std::mutex>& lock) {
  const auto h = static_cast<std::size_t>(hop);
  for (;;) {  // credits can be taken by another thread between the wait and the lock
    wait_until([&] { return in_flight_[h] < settings_.buffers; });
    lock.lock();
    if (in_flight_[h] < settings_.buffers) break;
    lock.unlock();
  }
  ++in_flight_[h];
}

template <class Prepare>
ServerTransport::Ticket ServerTransport::register_locked(int target, int server, int hop, bool has_waiter,
                                                         Prepare&& prepare) {
  auto op = std::make_unique<Op>();
  op->token = next_token_.fetch_add(1, std::memory_order_relaxed);
  op->server = server;
  op->hop = hop;
  op->target = target;
  op->has_waiter = has_waiter;
  op->requests.push_back(MPI_REQUEST_NULL);
  prepare(*op);
  void* reply = op->data_in_reply ? static_cast<void*>(op->staging.data()) : &op->reply;
  const int reply_bytes = static_cast<int>(op->data_in_reply ? op->staging.size() : sizeof(server::Reply));
  MPI_Irecv(reply, reply_bytes, MPI_BYTE, server, server::reply_tag(static_cast<std::uint32_t>(op->token)), comm_,
            &op->requests[0]);
  const Ticket ticket{op->token, server, hop, op->counts ? server::kReplyCount : server::kReplyEach};
  ops_.emplace(op->token, std::move(op));
  return ticket;
}

template <class Prepare>
ServerTransport::Ticket ServerTransport::begin(int target, bool has_waiter, Prepare&& prepare) {
  const int server = map_.target_server(target);
  const int hop = map_.first_hop(me_, target);
  std::unique_lock lock(mutex_, std::defer_lock);
  take_credit(hop, lock);
  return register_locked(target, server, hop, has_waiter, prepare);
}

ServerTransport::Ticket ServerTransport::begin(int target, bool has_waiter) {
  return begin(target, has_waiter, [](Op&) {});
}

ServerTransport::Ticket ServerTransport::begin_write(int target) {
  const int server = map_.target_server(target);
  const int hop = map_.first_hop(me_, target);
  std::unique_lock lock(mutex_, std::defer_lock);
  take_credit(hop, lock);
  LazyWrites& l = lazy_[server];
  l.hop = hop;
  l.target = target;
  ++l.issued;
  // Ask for the count every half of the credits, and with the last credit (so a rank whose
  // credits all went to writes of several servers behind one hop always gets some back).
  const auto batch = static_cast<std::uint64_t>(std::max(1, settings_.buffers / 2));
  if (l.issued - l.asked < batch && in_flight_[static_cast<std::size_t>(hop)] < settings_.buffers)
    return {next_token_.fetch_add(1, std::memory_order_relaxed), server, hop, server::kReplyNone};
  l.asked = l.issued;
  ++l.counts_in_flight;
  return register_locked(target, server, hop, false, [](Op& o) { o.counts = o.lazy = true; });
}

void ServerTransport::ask_count(int server) {
  int target = -1;
  {
    std::lock_guard lock(mutex_);
    target = lazy_.at(server).target;
  }
  const Ticket t = begin(target, false, [&](Op& o) {  // under the lock
    LazyWrites& l = lazy_.at(server);
    l.asked = l.issued;
    ++l.counts_in_flight;
    o.counts = true;
  });
  send_request(t, header(Kind::Ack, target, nullptr), nullptr, 0);
}

void ServerTransport::take_count_locked(Op& op) {
  LazyWrites& l = lazy_.at(op.server);
  --l.counts_in_flight;
  if (op.reply.value > l.acked) {
    in_flight_[static_cast<std::size_t>(l.hop)] -= static_cast<int>(op.reply.value - l.acked);
    l.acked = op.reply.value;
  }
  if (op.reply.status != server::kOk && deferred_error_.empty())
    deferred_error_ = "a put or accumulate to a rank served by " + rank_on_host(op.server, *map_.topology) +
                      " failed at that node's server (status " + std::to_string(op.reply.status) + ")";
  op.reply.status = server::kOk;  // reported once, here
}

void ServerTransport::fence_lazy(const std::vector<int>& servers) {
  std::vector<std::pair<int, std::uint64_t>> wanted;  // server, the writes issued before the call
  {
    std::lock_guard lock(mutex_);
    for (int server : servers)
      if (auto it = lazy_.find(server); it != lazy_.end() && it->second.acked < it->second.issued)
        wanted.emplace_back(server, it->second.issued);
  }
  // Ask every server first (one round trip to each, overlapped), then wait. A count can come
  // back short when another thread's write was counted here before it left: ask again.
  while (!wanted.empty()) {
    std::vector<int> ask;
    {
      std::lock_guard lock(mutex_);
      for (const auto& [server, issued] : wanted) {
        const LazyWrites& l = lazy_.at(server);
        if (l.acked < issued && (l.counts_in_flight == 0 || l.asked < issued)) ask.push_back(server);
      }
    }
    for (int server : ask) ask_count(server);
    wait_until([&] {
      return std::all_of(wanted.begin(), wanted.end(), [&](const auto& w) {
        const LazyWrites& l = lazy_.at(w.first);
        return l.acked >= w.second || l.counts_in_flight == 0;
      });
    });
    std::lock_guard lock(mutex_);
    std::erase_if(wanted, [&](const auto& w) { return lazy_.at(w.first).acked >= w.second; });
  }
}

void ServerTransport::send_watched(const void* data, std::size_t bytes, int to, int tag, bool last) {
  MPI_Request request;
  MPI_Isend(data, static_cast<int>(bytes), MPI_BYTE, to, tag, comm_, &request);
  complete_send(request, to, last);
}

// Each MPI_Test progresses MPI as MPI_Send's own wait does; pausing between them (a relax, a
// yield) made 1 MiB puts across hosts 10-25 % slower. A send still in flight after
// kServeAfter, when it is its operation's last message, also executes what has reached this
// rank's node server: in a halo exchange the peer sends to this node while this rank sends to the
// peer's, and where ranks and servers outnumber cores the server threads waited for a core while
// both ranks spun here (a 135 kB face each way took 4.5 ms, not 0.25). Not sooner: where the
// server thread has a core it receives while this rank goes on computing (CG across hosts, whose
// 56 kB pieces leave within that time: 0.83x MPI, 1.35x when every send served at once). Not
// before the last message: a request served here may wait for its origin's next message (a
// descriptor after its header, the next chunk), and if that origin is itself serving inside an
// unfinished send of its own, each waits for the other.
void ServerTransport::complete_send(MPI_Request& request, int to, bool last) {
  constexpr auto kServeAfter = std::chrono::microseconds(200);
  int sent = 0;
  MPI_Test(&request, &sent, MPI_STATUS_IGNORE);  // a small message leaves at once
  if (sent) return;
  StallWatch stall(settings_.stall_warn_s);
  const bool may_serve = last && node_server_ && settings_.waiter_serves;
  const auto start = std::chrono::steady_clock::now();
  bool serve = false;
  for (unsigned round = 1; !sent; ++round) {
    if (may_serve && !serve && round % 16 == 0) serve = std::chrono::steady_clock::now() - start >= kServeAfter;
    if (serve && round % 8 == 0) node_server_->serve_arrived();
    MPI_Test(&request, &sent, MPI_STATUS_IGNORE);
    if (!sent && stall.due()) warn_stall("rma (server transport): sending", rank_on_host(to, *map_.topology), stall.seconds());
  }
}

void ServerTransport::send_request(const Ticket& op, const Header& h0, const std::byte* payload, std::size_t bytes) {
  Header h = h0;
  h.id = static_cast<std::uint32_t>(op.token);
  h.reply_mode = op.reply_mode;
  h.inline_bytes = bytes;
  thread_local std::vector<std::byte> tls_message;
  std::vector<std::byte>& message = tls_message;
  message.resize(sizeof h + bytes);
  std::memcpy(message.data(), &h, sizeof h);
  if (bytes) std::memcpy(message.data() + sizeof h, payload, bytes);
  send_watched(message.data(), message.size(), op.hop, server::kTagRequest);
}

void ServerTransport::send_request_with(const Ticket& op, const Header& h, std::span<const std::byte> desc) {
  if (desc.size() <= settings_.inline_bytes) {
    send_request(op, h, desc.data(), desc.size());
    return;
  }
  send_request(op, h, nullptr, 0);
  send_watched(desc.data(), desc.size(), op.server, server::to_server_tag(static_cast<std::uint32_t>(op.token)));
}

void ServerTransport::send_data(const Ticket& op, RunWalker local, std::size_t bytes, const std::byte* contiguous,
                                std::size_t piece) {
  const int tag = server::to_server_tag(static_cast<std::uint32_t>(op.token));
  if (contiguous) {  // straight from the user's buffer, in pieces
    for (std::size_t done = 0; done < bytes;) {
      const std::size_t n = std::min(bytes - done, piece);
      send_watched(contiguous + done, n, op.server, tag, /*last=*/done + n == bytes);
      done += n;
    }
    return;
  }
  // Pack chunk k+1 while chunk k is on the wire.
  std::vector<std::byte> buffers[2] = {std::vector<std::byte>(std::min(bytes, settings_.chunk)),
                                       std::vector<std::byte>(std::min(bytes, settings_.chunk))};
  MPI_Request sending[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  int b = 0;
  for (std::size_t left = bytes; left > 0; b ^= 1) {
    const std::size_t n = std::min(left, settings_.chunk);
    if (sending[b] != MPI_REQUEST_NULL) complete_send(sending[b], op.server, false);
    local.gather(buffers[b].data(), n);
    MPI_Isend(buffers[b].data(), static_cast<int>(n), MPI_BYTE, op.server, tag, comm_, &sending[b]);
    left -= n;
  }
  for (MPI_Request& r : sending)  // the last chunks: nothing of this operation left to post
    if (r != MPI_REQUEST_NULL) complete_send(r, op.server, true);
}

void ServerTransport::post_data_receives(Op& op, std::byte* into, std::size_t bytes, std::size_t piece) {
  const int tag = server::to_origin_tag(static_cast<std::uint32_t>(op.token));
  for (std::size_t done = 0; done < bytes;) {
    const std::size_t n = std::min(bytes - done, piece);
    op.requests.push_back(MPI_REQUEST_NULL);
    MPI_Irecv(into + done, static_cast<int>(n), MPI_BYTE, op.server, tag, comm_, &op.requests.back());
    done += n;
  }
}

namespace {
Kind kind_of(OpKind k, bool vector) {
  switch (k) {
    case OpKind::Put: return vector ? Kind::PutV : Kind::Put;
    case OpKind::Get: return vector ? Kind::GetV : Kind::Get;
    case OpKind::Acc: break;
  }
  return vector ? Kind::AccV : Kind::Acc;
}
const char* name_of(OpKind k, bool vector) {
  switch (k) {
    case OpKind::Put: return vector ? "rma::put_vector" : "rma::put";
    case OpKind::Get: return vector ? "rma::get_vector" : "rma::get";
    case OpKind::Acc: break;
  }
  return vector ? "rma::acc_vector" : "rma::acc";
}
void set_acc(Header& h, OpKind kind, AccType type, const void* scale) {
  if (kind != OpKind::Acc) return;
  h.acc_type = static_cast<std::uint8_t>(type);
  std::memcpy(h.scale, scale, size_of(type));
}
}  // namespace

void ServerTransport::put_notify(const StridedOp& data, const NotifyFlag& n) {
  if (n.slice == data.slice) {
    strided(data, true, &n);
    return;
  }
  Header h = header(Kind::Rmw, data.target, n.slice);
  h.rmw_op = static_cast<std::uint8_t>(n.how == Notify::Add ? RmwOp::FetchAdd : RmwOp::Swap);
  h.rmw_width = static_cast<std::int32_t>(n.width);
  h.remote = reinterpret_cast<std::uintptr_t>(n.flag);
  std::memcpy(h.operand, &n.value, n.width);
  strided(data, true, nullptr);
  // Executed after the put's request: the server runs an origin's requests in issue order
  // (node_server.hpp, fifo_), and the put's data is in place once its request has run.
  send_request(begin_write(data.target), h, nullptr, 0);
}

std::uint64_t ServerTransport::strided(const StridedOp& o, bool blocking, const NotifyFlag* notify) {
  const Shape& shape = o.shape;
  const bool get = o.kind == OpKind::Get;
  Header h = header(kind_of(o.kind, false), o.target, o.slice);
  if (notify) {
    h.notify = reinterpret_cast<std::uintptr_t>(notify->flag);
    h.rmw_op = static_cast<std::uint8_t>(notify->how == Notify::Add ? RmwOp::FetchAdd : RmwOp::Swap);
    h.rmw_width = static_cast<std::int32_t>(notify->width);
    std::memcpy(h.operand, &notify->value, notify->width);
  }
  h.remote = reinterpret_cast<std::uintptr_t>(o.remote);
  h.bytes = shape.bytes();
  h.levels = shape.levels;
  for (int l = 0; l <= shape.levels; ++l) h.count[l] = shape.count[l];
  for (int l = 0; l < shape.levels; ++l) h.stride[l] = get ? shape.src_stride[l] : shape.dst_stride[l];
  set_acc(h, o.kind, o.type, o.scale);
  // The local side (src strides for put/acc, dst strides for get), when it is one run.
  std::byte* contiguous = extent(shape, get) == h.bytes ? o.local : nullptr;

  if (direct_for(o.target, h.bytes))
    return issue_direct(h, o.target, contiguous,
                        contiguous ? std::nullopt : std::optional<RunWalker>(std::in_place, o.local, shape, get), {},
                        blocking, name_of(o.kind, false));
  if (!get) {
    issue_write(h, o.target, RunWalker(o.local, shape, false), contiguous, nullptr);
    return 0;  // locally complete; the reply (for fences) is tracked until it arrives
  }
  if (h.bytes <= settings_.inline_bytes)
    return get_in_reply(h, o.target, RunWalker(o.local, shape, true), {}, blocking, "rma::get");
  return issue_get(h, o.target, contiguous, RunWalker(o.local, shape, true), {}, blocking, "rma::get");
}

std::uint64_t ServerTransport::vector(const VectorOp& o, bool blocking) {
  const bool get = o.kind == OpKind::Get;
  std::vector<std::byte> desc;
  std::vector<std::pair<std::byte*, std::size_t>> local;
  Header h = header(kind_of(o.kind, true), o.target, o.slices ? nullptr : o.slice);  // one slice: the server may map it
  h.bytes = vector_descriptor(o, desc, local);
  h.desc_bytes = desc.size();
  set_acc(h, o.kind, o.type, o.scale);

  if (desc.size() + h.bytes > settings_.inline_bytes && direct_for(o.target, h.bytes))
    return issue_direct(h, o.target, nullptr, std::optional<RunWalker>(std::in_place, std::move(local)), desc, blocking,
                        name_of(o.kind, true));
  if (!get) {
    issue_write(h, o.target, RunWalker(std::move(local)), nullptr, &desc);
    return 0;
  }
  if (h.bytes <= settings_.inline_bytes && desc.size() <= settings_.inline_bytes)
    return get_in_reply(h, o.target, RunWalker(std::move(local)), desc, blocking, "rma::get_vector");
  return issue_get(h, o.target, nullptr, RunWalker(std::move(local)), desc, blocking, "rma::get_vector");
}

std::size_t ServerTransport::vector_descriptor(const VectorOp& o, std::vector<std::byte>& desc,
                                               std::vector<std::pair<std::byte*, std::size_t>>& local) {
  // Per set its size and count, then the remote addresses; the local runs in the same order.
  const bool get = o.kind == OpKind::Get;
  std::size_t total = 0;
  for (const IoSet& set : o.sets) {
    if (set.src.empty()) continue;
    const server::SetHead sh{set.bytes, set.src.size()};
    const std::size_t at = desc.size();
    desc.resize(at + sizeof sh + set.src.size() * sizeof(std::uint64_t));
    std::memcpy(desc.data() + at, &sh, sizeof sh);
    std::byte* p = desc.data() + at + sizeof sh;
    for (std::size_t i = 0; i < set.src.size(); ++i, p += sizeof(std::uint64_t)) {
      const auto a = reinterpret_cast<std::uint64_t>(get ? set.src[i] : set.dst[i]);
      std::memcpy(p, &a, sizeof a);
      local.emplace_back(static_cast<std::byte*>(get ? set.dst[i] : set.src[i]), set.bytes);
    }
    total += set.bytes * set.src.size();
  }
  return total;
}

void ServerTransport::issue_write(const Header& h, int target, RunWalker local, const std::byte* contiguous,
                                  std::vector<std::byte>* desc) {
  const Ticket op = begin_write(target);
  const std::size_t d = desc ? desc->size() : 0;
  if (d + h.bytes <= settings_.inline_bytes) {
    // Everything inside the request: the descriptor (vector), then the data.
    thread_local std::vector<std::byte> tls_packed;
    std::vector<std::byte>& packed = desc ? *desc : tls_packed;
    packed.resize(d + h.bytes);
    local.gather(packed.data() + d, h.bytes);
    send_request(op, h, packed.data(), packed.size());
    return;
  }
  send_request(op, h, nullptr, 0);
  if (desc)
    send_watched(desc->data(), d, op.server, server::to_server_tag(static_cast<std::uint32_t>(op.token)));
  send_data(op, std::move(local), h.bytes, contiguous, server::piece(h, settings_.chunk));
}

std::uint64_t ServerTransport::issue_get(const Header& h, int target, std::byte* contiguous, RunWalker local,
                                         std::span<const std::byte> desc, bool blocking, const char* what) {
  const bool background = !blocking && settings_.origin_progress;
  const std::size_t piece = server::piece(h, settings_.chunk);
  const Ticket op = begin(target, true, [&](Op& p) {
    if (contiguous) {
      post_data_receives(p, contiguous, h.bytes, piece);
    } else {
      p.staging.resize(h.bytes);
      p.unpack.emplace(std::move(local));
      post_data_receives(p, p.staging.data(), h.bytes, piece);
    }
    p.background = background;
    background_gets_ += background;
  });
  send_request_with(op, h, desc);
  if (background) completer_cv_.notify_one();
  if (!blocking) return op.token;
  complete(op.token, what);
  return 0;
}

bool ServerTransport::direct_for(int target, std::size_t bytes) const {
  return bytes > settings_.inline_bytes && direct_to(target);
}

std::uint64_t ServerTransport::issue_direct(Header h, int target, std::byte* contiguous, std::optional<RunWalker> local,
                                            std::span<const std::byte> desc, bool blocking, const char* what) {
  const bool get = h.kind == Kind::Get || h.kind == Kind::GetV;
  std::vector<std::byte> staging;
  if (!contiguous) {
    staging.resize(h.bytes);
    if (!get) {  // pack before taking the lock
      local->gather(staging.data(), h.bytes);
      local.reset();
    }
  }
  std::byte* buffer = contiguous;
  const Ticket op = begin(target, true, [&](Op& p) {
    if (!contiguous) {
      p.staging = std::move(staging);
      buffer = p.staging.data();
      if (get) p.unpack = std::move(local);
    }
  });
  h.delivery = server::kDirect;
  h.origin_buffer = reinterpret_cast<std::uintptr_t>(buffer);
  send_request_with(op, h, desc);
  if (!blocking) return op.token;
  complete(op.token, what);
  return 0;
}

std::uint64_t ServerTransport::get_in_reply(Header h, int target, RunWalker local, std::span<const std::byte> desc,
                                            bool blocking, const char* what) {
  const Ticket op = begin(target, true, [&](Op& p) {
    p.staging.resize(sizeof(server::Reply) + h.bytes);
    p.unpack.emplace(std::move(local));
    p.data_in_reply = true;
  });
  h.delivery = server::kInReply;
  send_request(op, h, desc.data(), desc.size());
  if (!blocking) return op.token;
  complete(op.token, what);
  return 0;
}

server::Reply ServerTransport::round_trip(const Header& h, int target, bool awaits_grant) {
  const Ticket op = begin(target, true, [&](Op& o) { o.awaits_grant = awaits_grant; });
  send_request(op, h, nullptr, 0);
  wait_until([&] { return ops_.at(op.token)->done; });
  std::lock_guard lock(mutex_);
  const server::Reply reply = ops_.at(op.token)->reply;
  ops_.erase(op.token);
  return reply;
}

void ServerTransport::fail(const char* what, int target, std::int32_t status, std::uint64_t value) {
  if (status == server::kDirectFailed)
    throw_system(what, "the server of rank " + std::to_string(target) + "'s node (rank " +
                           std::to_string(map_.target_server(target)) + ") could not copy the data to or from this process's buffer (direct delivery)",
                 static_cast<int>(value));
  if (status == server::kUnreachable)
    throw_unsupported(what, "the server of rank " + std::to_string(target) + "'s node (rank " +
                                std::to_string(map_.target_server(target)) + ") could not map the target memory");
  throw_system(what, "the server of rank " + std::to_string(target) + " failed the request (status " +
                         std::to_string(status) + ")", 0);
}

void ServerTransport::rmw(RmwOp rop, std::size_t width, void* remote, const Slice& slice, int target,
                          const void* operand, const void* compare, void* result) {
  Header h = header(Kind::Rmw, target, &slice);
  h.rmw_op = static_cast<std::uint8_t>(rop);
  h.rmw_width = static_cast<std::int32_t>(width);
  h.remote = reinterpret_cast<std::uintptr_t>(remote);
  std::memcpy(h.operand, operand, width);
  if (compare) std::memcpy(h.compare, compare, width);
  const server::Reply reply = round_trip(h, target);
  if (reply.status != server::kOk) fail("rma::rmw", target, reply.status);
  std::memcpy(result, &reply.value, width);  // little-endian: the low bytes are the 4-byte value
}

void ServerTransport::mutex_lock(void* word, const Slice& slice, int target) {
  Header h = header(Kind::Lock, target, &slice);
  h.remote = reinterpret_cast<std::uintptr_t>(word);
  // The grant may take long (the mutex is held): round_trip's wait sleeps between polls.
  const server::Reply reply = round_trip(h, target, /*awaits_grant=*/true);
  if (reply.status != server::kOk) fail("rma::MutexSet::lock", target, reply.status);
}

bool ServerTransport::mutex_try_lock(void* word, const Slice& slice, int target) {
  Header h = header(Kind::TryLock, target, &slice);
  h.remote = reinterpret_cast<std::uintptr_t>(word);
  const server::Reply reply = round_trip(h, target);
  if (reply.status != server::kOk && reply.status != server::kBusy) fail("rma::MutexSet::try_lock", target, reply.status);
  return reply.status == server::kOk;
}

void ServerTransport::mutex_unlock(void* word, const Slice& slice, int target) {
  Header h = header(Kind::Unlock, target, &slice);
  h.remote = reinterpret_cast<std::uintptr_t>(word);
  const server::Reply reply = round_trip(h, target);
  if (reply.status == server::kNotHolder)
    throw_invalid("rma::MutexSet::unlock", "mutex", to_hex(word) + " on rank " + std::to_string(target),
                  "this rank does not hold the mutex");
  if (reply.status != server::kOk) fail("rma::MutexSet::unlock", target, reply.status);
}

// One MPI_Testsome over every pending request of every operation. Open MPI runs its progress
// engine once per test call that finds its request incomplete (over TCP, a poll of its sockets,
// ~1 us on this VM): testing op by op cost one such round per operation in flight at every
// progress call, and a stream of puts keeps `buffers` (32 at 2 ranks) in flight, so each put
// paid ~32 rounds in begin()'s credit wait.
void ServerTransport::progress_locked() {
  pending_.clear();
  pending_ops_.clear();
  for (auto& [token, op] : ops_) {
    if (op->done) continue;
    pending_ops_.emplace_back(op.get(), pending_.size());
    pending_.insert(pending_.end(), op->requests.begin(), op->requests.end());
  }
  if (!pending_.empty()) {
    completed_.resize(pending_.size());
    int count = 0;
    MPI_Testsome(static_cast<int>(pending_.size()), pending_.data(), &count, completed_.data(), MPI_STATUSES_IGNORE);
    if (count > 0)
      for (auto [op, first] : pending_ops_) {
        std::copy_n(pending_.begin() + static_cast<std::ptrdiff_t>(first), op->requests.size(), op->requests.begin());
        settle_locked(*op);
      }
  }
  for (auto it = ops_.begin(); it != ops_.end();) {
    Op& op = *it->second;
    // Puts and accumulates have nobody waiting: forget them once replied (keeping failures).
    if (op.done && !op.has_waiter) {
      if (op.reply.status != server::kOk && deferred_error_.empty())
        deferred_error_ = "a put or accumulate to rank " + std::to_string(op.target) +
                          " failed at its node's server (status " + std::to_string(op.reply.status) + ")";
      it = ops_.erase(it);
    } else {
      ++it;
    }
  }
}

void ServerTransport::settle_locked(Op& op) {
  const auto done = [](MPI_Request r) { return r == MPI_REQUEST_NULL; };
  if (std::all_of(op.requests.begin(), op.requests.end(), done)) {
    finish_locked(op);
    return;
  }
  // A get the server refused sends no data: once its reply is in, withdraw the receives.
  if (op.requests.size() > 1 && done(op.requests[0]) && op.reply.status != server::kOk) {
    for (std::size_t i = 1; i < op.requests.size(); ++i)
      if (op.requests[i] != MPI_REQUEST_NULL) {
        MPI_Cancel(&op.requests[i]);
        MPI_Wait(&op.requests[i], MPI_STATUS_IGNORE);
      }
    finish_locked(op);
  }
}

void ServerTransport::finish_locked(Op& op) {
  op.done = true;
  if (op.background) {
    op.background = false;
    --background_gets_;
  }
  if (op.counts) take_count_locked(op);
  if (!op.lazy) --in_flight_[static_cast<std::size_t>(op.hop)];  // a lazy write's came back with the count
  std::size_t skip = 0;  // staging bytes before the data
  if (op.data_in_reply) {
    std::memcpy(&op.reply, op.staging.data(), sizeof op.reply);
    skip = sizeof op.reply;
  }
  if (op.unpack && op.reply.status == server::kOk) op.unpack->scatter(op.staging.data() + skip, op.staging.size() - skip);
  op.unpack.reset();
  std::vector<std::byte>().swap(op.staging);
}

void ServerTransport::complete(std::uint64_t token, const char* what) {
  {
    std::lock_guard lock(mutex_);
    if (!ops_.count(token)) return;  // completed by a fence and collected already
  }
  wait_until([&] { return ops_.at(token)->done; });
  std::lock_guard lock(mutex_);
  Op& op = *ops_.at(token);
  if (op.reply.status != server::kOk) {  // its data receives were withdrawn by progress_locked
    const int target = op.target;
    const server::Reply reply = op.reply;
    ops_.erase(token);
    fail(what, target, reply.status, reply.value);
  }
  ops_.erase(token);
}

void ServerTransport::wait(std::uint64_t token) { complete(token, "rma::Handle::wait"); }

bool ServerTransport::test(std::uint64_t token) {
  {
    std::lock_guard lock(mutex_);
    progress_locked();
    auto it = ops_.find(token);
    if (it != ops_.end() && !it->second->done) return false;
  }
  complete(token, "rma::Handle::test");
  return true;
}


void ServerTransport::raise_deferred() {
  std::string error;
  {
    std::lock_guard lock(mutex_);
    error.swap(deferred_error_);
  }
  if (!error.empty()) throw_unsupported("rma::fence", error);
}

void ServerTransport::fence(int target) {
  const int server = map_.target_server(target);
  fence_lazy({server});
  wait_until([&] {
    return std::none_of(ops_.begin(), ops_.end(),
                        [&](const auto& kv) { return kv.second->server == server && fence_waits_for(*kv.second); });
  });
  raise_deferred();
}

void ServerTransport::fence_all() {
  std::vector<int> servers;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [server, writes] : lazy_) servers.push_back(server);
  }
  fence_lazy(servers);
  wait_until([&] { return std::none_of(ops_.begin(), ops_.end(), [](const auto& kv) { return fence_waits_for(*kv.second); }); });
  raise_deferred();
}

void ServerTransport::poll() {
  {
    std::lock_guard lock(mutex_);
    progress_locked();
  }
  if (node_server_ && settings_.waiter_serves) node_server_->serve_arrived();
}

}  // namespace armada::rma::detail
