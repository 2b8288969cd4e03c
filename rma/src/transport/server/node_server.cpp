#include "transport/server/node_server.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>

#include "common/registry.hpp"
#include "common/tsan.hpp"
#include "transport/server/direct.hpp"
#include "desc/runs.hpp"
#include "transport/base/locks.hpp"
#include "transport/base/node_memory.hpp"
#include "transport/base/waiting.hpp"

namespace armada::rma::detail {

using server::Header;
using server::Kind;
using server::Reply;
using server::SetHead;

namespace {
std::atomic<bool> g_threads_held{false};  // hold_node_server_threads
}  // namespace

void hold_node_server_threads(bool held) noexcept { g_threads_held.store(held, std::memory_order_relaxed); }

int ServerMap::first_hop(int origin, int target) const {
  const std::vector<int> c = cluster_of(target_server(target));
  return c[static_cast<std::size_t>(origin) % c.size()];
}

std::vector<int> ServerMap::cluster_of(int server) const {
  const int nodes = static_cast<int>(leader_of_node.size());
  const int first = node_of[static_cast<std::size_t>(server)] / cluster * cluster;
  std::vector<int> members;
  for (int n = first; n < std::min(first + cluster, nodes); ++n) members.push_back(leader_of_node[static_cast<std::size_t>(n)]);
  return members;
}

NodeServer::NodeServer(const Registry& registry, NodeMemory& memory, int me, int world_size, MPI_Comm comm,
                       ServerMap map, ServerSettings settings)
    : registry_(registry), memory_(memory), comm_(comm), map_(std::move(map)), settings_(settings), me_(me) {
  const std::vector<int> cluster = map_.cluster_of(me_);
  const auto g = cluster.size();
  const auto k = static_cast<std::size_t>(std::find(cluster.begin(), cluster.end(), me_) - cluster.begin());
  const int my_node = map_.node_of[static_cast<std::size_t>(me_)];
  std::vector<int> clients, peers;
  for (int c = 0; c < world_size; ++c) {
    const bool assigned = static_cast<std::size_t>(c) % g == k;
    // Alone in its cluster, a server never hears from its own node (shared memory serves it).
    if (assigned && (g > 1 || map_.node_of[static_cast<std::size_t>(c)] != my_node)) clients.push_back(c);
  }
  for (int p : cluster)
    if (p != me_) peers.push_back(p);
  clients_ = static_cast<int>(clients.size());

  const std::size_t request_bytes = sizeof(Header) + settings_.inline_bytes;
  const std::size_t n_buffers = static_cast<std::size_t>(settings_.buffers) * (clients.size() + peers.size());
  const std::size_t n_acks = static_cast<std::size_t>(settings_.buffers) * peers.size();
  arena_.resize(n_buffers * request_bytes + n_acks * sizeof(int) + sizeof(Header));
  std::byte* p = arena_.data();
  std::uint32_t streams = 0;
  auto add = [&](Slot slot, int source, std::size_t capacity, std::uint32_t stream) {
    posted_.push_back({slot, source, p, capacity, stream});
    p += capacity;
  };
  for (int c : clients) {
    for (int b = 0; b < settings_.buffers; ++b) add(Slot::Client, c, request_bytes, streams);
    ++streams;
  }
  for (int q : peers) {
    for (int b = 0; b < settings_.buffers; ++b) add(Slot::Peer, q, request_bytes, streams);
    ++streams;
  }
  for (int q : peers)
    for (int b = 0; b < settings_.buffers; ++b) add(Slot::PeerAck, q, sizeof(int), 0);
  add(Slot::Control, MPI_ANY_SOURCE, sizeof(Header), 0);  // Quit from ourselves, Forget from the node
  chunk_[0].resize(settings_.chunk);
  chunk_[1].resize(settings_.chunk);
  buffer_bytes_ = arena_.size() + 2 * settings_.chunk;
  peer_credits_.assign(static_cast<std::size_t>(world_size), 0);
  for (int q : peers) peer_credits_[static_cast<std::size_t>(q)] = settings_.buffers;
  requests_.assign(posted_.size(), MPI_REQUEST_NULL);
  fifo_.resize(streams);
  fifo_slots_.resize(static_cast<std::size_t>(streams) * static_cast<std::size_t>(settings_.buffers));
}

// A stream has `buffers` slots and each is pushed when posted and popped when executed, so a
// ring never holds more than `buffers` (no check here: the server thread never throws).
void NodeServer::fifo_push(std::uint32_t stream, std::size_t slot) {
  Ring& r = fifo_[stream];
  const auto b = static_cast<std::uint32_t>(settings_.buffers);
  fifo_slots_[static_cast<std::size_t>(stream) * b + (r.head + r.count) % b] = slot;
  ++r.count;
}

std::size_t NodeServer::fifo_pop(std::uint32_t stream) {
  Ring& r = fifo_[stream];
  const auto b = static_cast<std::uint32_t>(settings_.buffers);
  const std::size_t slot = fifo_slots_[static_cast<std::size_t>(stream) * b + r.head];
  r.head = (r.head + 1) % b;
  --r.count;
  return slot;
}

NodeServer::~NodeServer() {
  if (running_) stop();
}

void NodeServer::post(std::size_t i) {
  static constexpr int kTags[] = {server::kTagRequest, server::kTagForward, server::kTagForwardAck, server::kTagControl};
  const Posted& p = posted_[i];
  MPI_Irecv(p.buffer, static_cast<int>(p.capacity), MPI_BYTE, p.source, kTags[static_cast<int>(p.slot)], comm_,
            &requests_[i]);
  if (p.slot == Slot::Client || p.slot == Slot::Peer) fifo_push(p.stream, i);
}

void NodeServer::start() {
  for (std::size_t i = 0; i < posted_.size(); ++i) post(i);
  running_ = true;
  thread_ = std::thread([this] { run(); });
}

void NodeServer::stop() {
  g_threads_held.store(false, std::memory_order_relaxed);  // the thread must see the Quit
  Header quit{};
  quit.kind = Kind::Quit;
  MPI_Send(&quit, sizeof quit, MPI_BYTE, me_, server::kTagControl, comm_);
  thread_.join();
  running_ = false;
}

// The idle policy's state (run()).
struct NodeServer::Idle {
  using Clock = std::chrono::steady_clock;
  Clock::time_point last_request = Clock::now();
  bool awake_now = true;
  int rounds = 0;
  long sleep_ns = 1000;

  void request_arrived() {
    rounds = 0;
    sleep_ns = 1000;
    last_request = Clock::now();
    awake_now = true;
  }
};

void NodeServer::run() {
  // Idle policy. After a request the server keeps polling for settings_.awake_us (yielding the
  // core whenever another thread wants it), because requests come in bursts and a sleeping
  // server adds its wake-up time to the next one: a nonblocking get issued 200 µs after the
  // last would otherwise start late and hide little. Past that it sleeps 1, 2, 4 ... up to
  // sleep_max_us microseconds between polls, so an idle server costs (almost) no CPU.
  // The thread's timer slack is 1 µs instead of the default 50, so those sleeps are as short
  // as asked (the server is the one thread whose wake-up delays other processes).
  prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
  // The whole thread is a remote agent for ThreadSanitizer (common/tsan.hpp): besides executing
  // requests, its MPI calls run Open MPI's progress engine for this process's other requests
  // too, copying received data into the application's buffers; the application reads them after
  // the request completed, an ordering made by MPI's request flags, which TSan cannot see. Its
  // own state is private to the thread.
  const TsanRemoteAgentScope agent;
  Idle idle;
  for (;;) {
    if (g_threads_held.load(std::memory_order_relaxed)) {  // a test's starved thread
      const timespec ts{0, 1000000};
      nanosleep(&ts, nullptr);
      continue;
    }
    Pause how;
    {
      std::lock_guard lock(serving_);
      if (quit_) return;
      if (poll_once() != Polled::nothing) {
        idle.request_arrived();
        continue;
      }
      how = idle_step(idle);
    }
    pause(how, idle);
  }
}

NodeServer::Polled NodeServer::poll_once() {
  int index = MPI_UNDEFINED, flag = 0;
  MPI_Status status;
  MPI_Testany(static_cast<int>(requests_.size()), requests_.data(), &index, &flag, &status);
  if (!flag || index == MPI_UNDEFINED) return Polled::nothing;
  const auto i = static_cast<std::size_t>(index);
  const Posted& p = posted_[i];
  switch (p.slot) {
    case Slot::Control:
      if (on_control(p)) {
        quit_ = true;
        return Polled::quit;
      }
      break;
    case Slot::Client:
    case Slot::Peer:
      on_request(i, status);
      break;
    case Slot::PeerAck:
      on_forward_ack(p);
      break;
  }
  post(i);
  return Polled::request;
}

void NodeServer::serve_arrived() {
  std::unique_lock lock(serving_, std::try_to_lock);
  if (!lock.owns_lock() || quit_) return;
  const TsanRemoteAgentScope agent;  // as the server's thread is (run())
  // A bounded batch: the caller goes back to its own replies between batches.
  for (int n = 0; n < 64 && poll_once() == Polled::request; ++n) {
  }
  if (!waiting_locks_.empty()) check_waiting_locks();
  if (!sends_in_flight_.empty()) reap_sends();
}

bool NodeServer::on_control(const Posted& p) {
  Header h;
  std::memcpy(&h, p.buffer, sizeof h);
  if (h.kind == Kind::Adopt) {
    adopt(h);
    return false;
  }
  if (h.kind == Kind::Forget) {
    if (auto it = foreign_.find(h.segment); it != foreign_.end()) {
      munmap(it->second.base, it->second.size);
      foreign_.erase(it);
    }
    return false;
  }
  // Quit.
  for (MPI_Request& r : requests_)
    if (r != MPI_REQUEST_NULL) {
      MPI_Cancel(&r);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
  // Every get has been received by now (its origin waited for it before finalizing).
  MPI_Waitall(static_cast<int>(sends_in_flight_.size()), sends_in_flight_.data(), MPI_STATUSES_IGNORE);
  sends_in_flight_.clear();
  for (auto& [id, f] : foreign_) munmap(f.base, f.size);
  foreign_.clear();
  return true;
}

void NodeServer::on_request(std::size_t i, const MPI_Status& status) {
  const Posted& p = posted_[i];
  // Execute this source's earlier requests first (already matched, so they complete).
  for (;;) {
    const std::size_t head = fifo_pop(p.stream);
    if (head == i) break;
    MPI_Status head_status;
    MPI_Wait(&requests_[head], &head_status);
    int head_length = 0;
    MPI_Get_count(&head_status, MPI_BYTE, &head_length);
    handle(posted_[head].buffer, static_cast<std::size_t>(head_length), head_status.MPI_SOURCE,
           posted_[head].slot == Slot::Peer);
    post(head);
  }
  int length = 0;
  MPI_Get_count(&status, MPI_BYTE, &length);
  handle(p.buffer, static_cast<std::size_t>(length), status.MPI_SOURCE, p.slot == Slot::Peer);
}

void NodeServer::on_forward_ack(const Posted& p) {
  int& credits = peer_credits_[static_cast<std::size_t>(p.source)];
  ++credits;
  // Send what waited for this peer's credit, in order.
  for (auto it = backlog_.begin(); it != backlog_.end();) {
    if (it->to != p.source) {
      ++it;
      continue;
    }
    if (credits == 0) break;
    --credits;
    MPI_Send(it->message.data(), static_cast<int>(it->message.size()), MPI_BYTE, it->to, server::kTagForward, comm_);
    it = backlog_.erase(it);
  }
}

NodeServer::Pause NodeServer::idle_step(Idle& idle) {
  if (!waiting_locks_.empty()) check_waiting_locks();
  if (!sends_in_flight_.empty()) {
    // Sends in flight may need this side again (a rendezvous answered by the origin, after
    // which the sender copies the data): stay awake while they progress, for up to ~10k
    // polls after the last one completed, then back off as when idle.
    const std::size_t before = sends_in_flight_.size();
    reap_sends();
    if (sends_in_flight_.size() < before) send_spin_ = 0;
    if (!sends_in_flight_.empty() && ++send_spin_ < 10000) return Pause::spin;
  }
  if (++idle.rounds < 200) return Pause::spin;
  if (!settings_.poll && (idle.rounds & 63) == 0)
    idle.awake_now = Idle::Clock::now() - idle.last_request < std::chrono::microseconds(settings_.awake_us);
  // Polling yields rather than spins: where threads outnumber cores (2 ranks, each with a
  // server, on 2 cores) a pure spin holds a core for whole scheduler slices (ms) while the
  // thread that would answer waits; a yield returns at once when nobody else is runnable.
  return settings_.poll || idle.awake_now ? Pause::yield : Pause::sleep;
}

void NodeServer::pause(Pause how, Idle& idle) const {
  switch (how) {
    case Pause::spin:
      cpu_relax();
      return;
    case Pause::yield:
      sched_yield();
      return;
    case Pause::sleep:
      break;
  }
  const timespec ts{0, idle.sleep_ns};
  nanosleep(&ts, nullptr);
  idle.sleep_ns = std::min<long>(idle.sleep_ns * 2, 1000L * settings_.sleep_max_us);
}

void NodeServer::reap_sends() {
  // One test call for all (a call per send would run MPI's progress engine once per send).
  completed_.resize(sends_in_flight_.size());
  int count = 0;
  MPI_Testsome(static_cast<int>(sends_in_flight_.size()), sends_in_flight_.data(), &count, completed_.data(),
               MPI_STATUSES_IGNORE);
  if (count > 0) std::erase(sends_in_flight_, MPI_REQUEST_NULL);
}

void NodeServer::handle(const std::byte* msg, std::size_t length, int source, bool forwarded) {
  Header h;
  std::memcpy(&h, msg, sizeof h);
  const int executor = map_.target_server(h.target);
  if (executor != me_) {  // clustering: the origin's assigned server passes it on
    forward(executor, msg, length);
    return;
  }
  execute(h, msg + sizeof(Header));  // as a remote agent, like everything this thread does (run())
  if (forwarded) {
    const int one = 1;
    MPI_Send(&one, 1, MPI_INT, source, server::kTagForwardAck, comm_);
  }
}

void NodeServer::forward(int to, const std::byte* msg, std::size_t length) {
  const bool queued = std::any_of(backlog_.begin(), backlog_.end(), [to](const Forward& f) { return f.to == to; });
  if (!queued && peer_credits_[static_cast<std::size_t>(to)] > 0) {
    --peer_credits_[static_cast<std::size_t>(to)];
    MPI_Send(msg, static_cast<int>(length), MPI_BYTE, to, server::kTagForward, comm_);
  } else {
    backlog_.push_back({to, std::vector<std::byte>(msg, msg + length)});
  }
}

void NodeServer::reply(const Header& h, std::int32_t status, std::uint64_t value) {
  if (h.reply_mode != server::kReplyEach) {
    acknowledge(h, status);
    return;
  }
  const Reply r{status, 0, value};
  MPI_Send(&r, sizeof r, MPI_BYTE, h.origin, server::reply_tag(h.id), comm_);
}

void NodeServer::acknowledge(const Header& h, std::int32_t status) {
  LazyWrites& w = lazy_[h.origin];
  if (h.kind != Kind::Ack) {
    ++w.done;
    if (status != server::kOk && w.failure == server::kOk) w.failure = status;
  }
  if (h.reply_mode != server::kReplyCount) return;
  const Reply r{w.failure, 0, w.done};
  w.failure = server::kOk;
  MPI_Send(&r, sizeof r, MPI_BYTE, h.origin, server::reply_tag(h.id), comm_);
}

void NodeServer::drain(const Header& h, std::size_t left) {
  const std::size_t piece = server::piece(h, settings_.chunk);
  std::vector<std::byte> big(piece > chunk_[0].size() ? piece : 0);  // a whole-message put (rare path)
  std::byte* into = big.empty() ? chunk_[0].data() : big.data();
  while (left > 0) {
    const std::size_t n = std::min(left, piece);
    MPI_Recv(into, static_cast<int>(n), MPI_BYTE, h.origin, server::to_server_tag(h.id), comm_, MPI_STATUS_IGNORE);
    left -= n;
  }
}

std::byte* NodeServer::map_remote(const Header& h, std::uint64_t addr, std::size_t extent) {
  void* remote = reinterpret_cast<void*>(addr);
  if (const Slice* slice = registry_.find(h.target, remote, extent); slice && slice->local)
    return slice->map(remote);
  const auto it = foreign_.find(h.segment);
  if (it == foreign_.end()) return nullptr;
  const Foreign& f = it->second;
  const auto member = std::lower_bound(f.members.begin(), f.members.end(), h.target,
                                       [](const server::AdoptMember& m, int owner) { return m.owner < owner; });
  if (member == f.members.end() || member->owner != h.target || addr < member->object_start) return nullptr;
  const std::uint64_t offset = addr - member->object_start;
  if (offset > f.size || extent > f.size - offset) return nullptr;
  return f.base + offset;
}

void NodeServer::adopt(const Header& h) {
  // The segment's group does not include this process: map the node object its creator holds
  // open (dropped again when the creator frees it: Kind::Forget).
  server::AdoptHead head{};
  MPI_Recv(&head, sizeof head, MPI_BYTE, h.origin, server::kTagAdopt, comm_, MPI_STATUS_IGNORE);
  Foreign f{nullptr, head.size, std::vector<server::AdoptMember>(head.members)};
  MPI_Recv(f.members.data(), static_cast<int>(f.members.size() * sizeof(server::AdoptMember)), MPI_BYTE, h.origin,
           server::kTagAdopt, comm_, MPI_STATUS_IGNORE);
  std::sort(f.members.begin(), f.members.end(), [](const auto& a, const auto& b) { return a.owner < b.owner; });
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/fd/%d", head.pid, head.fd);
  Reply r{server::kUnreachable, 0, 0};
  if (const int fd = open(path, O_RDWR); fd >= 0) {
    void* p = mmap(nullptr, head.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) r.value = static_cast<std::uint64_t>(errno);
    close(fd);
    if (p != MAP_FAILED) {
      f.base = static_cast<std::byte*>(p);
      foreign_[h.segment] = std::move(f);
      r.status = server::kOk;
    }
  } else {
    r.value = static_cast<std::uint64_t>(errno);
  }
  MPI_Send(&r, sizeof r, MPI_BYTE, h.origin, server::kTagAdopt, comm_);
}

void NodeServer::check_waiting_locks() {
  // Mutex words are application-visible memory, accessed as a remote agent (run()).
  std::erase_if(waiting_locks_, [this](const WaitingLock& w) {
    auto* m = static_cast<TicketMutex*>(w.word);
    if (m->serving.load(std::memory_order_acquire) != w.ticket) return false;
    m->owner.store(w.origin + 1, std::memory_order_relaxed);
    Header h{};
    h.origin = w.origin;
    h.id = w.id;
    reply(h, server::kOk, 0);
    return true;
  });
}

// ---- executing a request: dispatch, then named steps --------------------------------------------

namespace {
bool moves_data(Kind k) {
  return k == Kind::Put || k == Kind::Get || k == Kind::Acc || k == Kind::PutV || k == Kind::GetV || k == Kind::AccV;
}
bool data_in(Kind k) { return k == Kind::Put || k == Kind::Acc || k == Kind::PutV || k == Kind::AccV; }
bool is_vector(Kind k) { return k == Kind::PutV || k == Kind::GetV || k == Kind::AccV; }
bool is_acc(Kind k) { return k == Kind::Acc || k == Kind::AccV; }
}  // namespace

void NodeServer::execute(const Header& h, const std::byte* inline_data) {
  if (h.kind == Kind::Ack) acknowledge(h, server::kOk);
  else if (moves_data(h.kind)) execute_transfer(h, inline_data);
  else execute_word(h);
}

void NodeServer::execute_transfer(const Header& h, const std::byte* inline_data) {
  Transfer t{h, inline_data, h.inline_bytes};
  if (!map_target(t)) {
    // The origin sends the data regardless: take it off the wire.
    if (data_in(h.kind) && h.inline_bytes == 0 && h.delivery != server::kDirect) drain(h, h.bytes);
    reply(h, server::kUnreachable, 0);
    return;
  }
  if (h.delivery == server::kDirect) {
    // A put's flag only once its data is in place: whoever sees the flag finds the data.
    const int error = deliver_direct(t);
    if (error == 0 && !notify(h)) reply(h, server::kUnreachable, 0);
    else reply(h, error ? server::kDirectFailed : server::kOk, static_cast<std::uint64_t>(error));
    return;
  }
  if (data_in(h.kind)) {
    receive_data(t);  // returns with every byte in place
    if (!notify(h)) {
      reply(h, server::kUnreachable, 0);
      return;
    }
  } else if (h.delivery == server::kInReply) {
    send_in_reply(t);
    return;  // the reply carried the data
  } else if (t.contiguous) {
    send_from_target(t);
  } else {
    send_packed(t);
  }
  reply(h, server::kOk, 0);
}

bool NodeServer::map_target(Transfer& t) {
  const Header& h = t.h;
  if (is_vector(h.kind)) return map_vector_target(t);
  Shape shape;
  shape.levels = h.levels;
  for (int l = 0; l <= h.levels; ++l) shape.count[l] = h.count[l];
  for (int l = 0; l < h.levels; ++l) shape.dst_stride[l] = h.stride[l];
  std::byte* mapped = map_remote(h, h.remote, extent(shape, true));
  if (!mapped) return false;
  if (h.levels == 0) t.contiguous = mapped;
  t.delta = static_cast<std::ptrdiff_t>(h.remote - reinterpret_cast<std::uintptr_t>(mapped));
  t.walker.emplace(mapped, shape, true);
  return true;
}

bool NodeServer::map_vector_target(Transfer& t) {
  const Header& h = t.h;
  // The descriptor rides inline, or comes as the first data message.
  const std::byte* desc = t.in;
  if (t.inline_left == 0) {
    t.desc_storage.resize(h.desc_bytes);
    MPI_Recv(t.desc_storage.data(), static_cast<int>(h.desc_bytes), MPI_BYTE, h.origin, server::to_server_tag(h.id),
             comm_, MPI_STATUS_IGNORE);
    desc = t.desc_storage.data();
  } else {
    t.in += h.desc_bytes;
    t.inline_left -= h.desc_bytes;
  }
  std::vector<std::pair<std::byte*, std::size_t>> runs;
  std::vector<std::ptrdiff_t> deltas;
  const Slice* last = nullptr;
  for (const std::byte* p = desc; p < desc + h.desc_bytes;) {
    SetHead set;
    std::memcpy(&set, p, sizeof set);
    p += sizeof set;
    for (std::uint64_t i = 0; i < set.count; ++i, p += sizeof(std::uint64_t)) {
      std::uint64_t a;
      std::memcpy(&a, p, sizeof a);
      std::byte* mapped = nullptr;
      if (last && last->contains(a, set.bytes)) {
        mapped = last->map(reinterpret_cast<void*>(a));
      } else {
        last = registry_.find(h.target, reinterpret_cast<void*>(a), set.bytes);
        if (!last || !last->local) last = nullptr;
        mapped = last ? last->map(reinterpret_cast<void*>(a)) : map_remote(h, a, set.bytes);
      }
      if (!mapped) return false;
      runs.emplace_back(mapped, set.bytes);
      deltas.push_back(static_cast<std::ptrdiff_t>(a - reinterpret_cast<std::uintptr_t>(mapped)));
    }
  }
  t.walker.emplace(std::move(runs), std::move(deltas));
  return true;
}

void NodeServer::apply(Transfer& t, const std::byte* src, std::size_t n) {
  const Header& h = t.h;
  const bool acc = is_acc(h.kind);
  const bool vector = is_vector(h.kind);
  t.walker->walk(n, [&](std::byte* d, std::size_t k) {
    if (acc) {
      const std::ptrdiff_t delta = vector ? t.walker->run_delta() : t.delta;  // mapping -> owner's address
      memory_.accumulate(static_cast<AccType>(h.acc_type), h.scale, src, d,
                         reinterpret_cast<std::uintptr_t>(d) + static_cast<std::uintptr_t>(delta), h.target, k);
    } else {
      std::memcpy(d, src, k);
    }
    src += k;
  });
}

bool NodeServer::notify(const Header& h) {
  if (h.notify == 0) return true;
  const auto width = static_cast<std::size_t>(h.rmw_width);
  std::byte* word = map_remote(h, h.notify, width);
  if (!word) return false;
  std::uint64_t old = 0;  // a sequentially consistent atomic: the data's stores come before it
  NodeMemory::rmw(static_cast<RmwOp>(h.rmw_op), width, word, h.operand, nullptr, &old);
  return true;
}

int NodeServer::deliver_direct(Transfer& t) {
  // No data messages: copy between the target's runs and the origin's buffer ourselves.
  const Header& h = t.h;
  const int pid = map_.pid_of[static_cast<std::size_t>(h.origin)];
  int error = 0;
  if (is_acc(h.kind)) {  // a chunk at a time, applied under the accumulate locks
    for (std::size_t done = 0; done < h.bytes && error == 0; done += settings_.chunk) {
      const std::size_t n = std::min<std::size_t>(h.bytes - done, settings_.chunk);
      const iovec into{chunk_[0].data(), n};
      error = server::direct_copy(false, pid, {&into, 1}, h.origin_buffer + done);
      if (error == 0) apply(t, chunk_[0].data(), n);
    }
  } else {
    direct_runs_.clear();
    t.walker->walk(h.bytes, [&](std::byte* run, std::size_t k) { direct_runs_.push_back({run, k}); });
    error = server::direct_copy(!data_in(h.kind), pid, direct_runs_, h.origin_buffer);
  }
  return error;
}

// Completes a transfer's piece to or from an origin. A blocking MPI_Recv or MPI_Wait would poll
// the link (Open MPI's TCP BTL) for the whole transfer; where ranks and servers outnumber cores
// that poll takes the core the server's own rank computes on. So: test back to back for as long
// as a piece of a few tens of kB takes, then pause between tests as every long wait does
// (yield, then sleep: an origin that never sends costs no core).
void NodeServer::wait_yielding(MPI_Request& r) const {
  constexpr auto kSpinFor = std::chrono::microseconds(50);
  const auto start = std::chrono::steady_clock::now();
  PollPause pause(server::kWaitSleepMaxNs, /*spin_rounds=*/0);
  bool spinning = true;
  for (int round = 1;; ++round) {
    int done = 0;
    MPI_Test(&r, &done, MPI_STATUS_IGNORE);
    if (done) return;
    if (spinning && round % 16 == 0) spinning = std::chrono::steady_clock::now() - start < kSpinFor;
    if (!spinning) pause.pause();
  }
}

void NodeServer::receive_rest(void* into, std::size_t n, int origin, int tag) {
  MPI_Request r;
  MPI_Irecv(into, static_cast<int>(n), MPI_BYTE, origin, tag, comm_, &r);
  wait_yielding(r);
}

void NodeServer::receive_data(Transfer& t) {
  const Header& h = t.h;
  if (t.inline_left > 0) {
    apply(t, t.in, t.inline_left);
  } else if (!is_acc(h.kind) && t.contiguous) {
    // One target run: the chunks land in the target's memory directly (no bounce copy).
    const std::size_t piece = server::piece(h, settings_.chunk);
    for (std::size_t done = 0; done < h.bytes;) {
      const std::size_t n = std::min(h.bytes - done, piece);
      receive_rest(t.contiguous + done, n, h.origin, server::to_server_tag(h.id));
      done += n;
    }
  } else {
    for (std::size_t left = h.bytes; left > 0;) {
      const std::size_t n = std::min(left, settings_.chunk);
      receive_rest(chunk_[0].data(), n, h.origin, server::to_server_tag(h.id));
      apply(t, chunk_[0].data(), n);
      left -= n;
    }
  }
}

void NodeServer::send_in_reply(Transfer& t) {
  // A small get: the data follows the Reply in one message (one match at the origin).
  const Header& h = t.h;
  in_reply_.resize(sizeof(Reply) + h.bytes);
  const Reply r{server::kOk, 0, 0};
  std::memcpy(in_reply_.data(), &r, sizeof r);
  t.walker->gather(in_reply_.data() + sizeof r, h.bytes);
  MPI_Send(in_reply_.data(), static_cast<int>(in_reply_.size()), MPI_BYTE, h.origin, server::reply_tag(h.id), comm_);
}

void NodeServer::send_from_target(Transfer& t) {
  // Get of one target run: every chunk leaves from the target's memory at once, no packing,
  // and the server moves on instead of waiting for the origin to take them (the origin's
  // receives complete whenever it, or its completer thread, enters MPI; run() reaps the
  // sends). The reply may overtake the data: the origin waits for both.
  const Header& h = t.h;
  const std::size_t piece = server::piece(h, settings_.chunk);
  for (std::size_t at = 0; at < h.bytes; at += piece) {
    const std::size_t n = std::min(h.bytes - at, piece);
    sends_in_flight_.push_back(MPI_REQUEST_NULL);
    MPI_Isend(t.contiguous + at, static_cast<int>(n), MPI_BYTE, h.origin, server::to_origin_tag(h.id), comm_,
              &sends_in_flight_.back());
  }
  send_spin_ = 0;
}

void NodeServer::send_packed(Transfer& t) {
  // Get: pack chunk k+1 while chunk k is on the wire.
  const Header& h = t.h;
  MPI_Request sending[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  int b = 0;
  for (std::size_t left = h.bytes; left > 0; b ^= 1) {
    const std::size_t n = std::min(left, settings_.chunk);
    wait_yielding(sending[b]);
    t.walker->gather(chunk_[b].data(), n);
    MPI_Isend(chunk_[b].data(), static_cast<int>(n), MPI_BYTE, h.origin, server::to_origin_tag(h.id), comm_, &sending[b]);
    left -= n;
  }
  for (MPI_Request& r : sending) wait_yielding(r);
}

void NodeServer::execute_word(const Header& h) {
  // Atomics and mutexes work on one word in the target's memory.
  const std::size_t width = h.kind == Kind::Rmw ? static_cast<std::size_t>(h.rmw_width) : sizeof(TicketMutex);
  std::byte* word = map_remote(h, h.remote, width);
  if (!word) {
    reply(h, server::kUnreachable, 0);
    return;
  }
  auto* m = reinterpret_cast<TicketMutex*>(word);
  switch (h.kind) {
    case Kind::Rmw: {
      std::uint64_t old = 0;
      NodeMemory::rmw(static_cast<RmwOp>(h.rmw_op), width, word, h.operand, h.compare, &old);
      reply(h, server::kOk, old);
      return;
    }
    case Kind::Lock: {
      // A ticket in the same queue on-node lockers use: FIFO across transports. The server
      // grants it when its turn comes; the waiting origin sleeps in its reply wait.
      const std::uint32_t ticket = m->next.fetch_add(1, std::memory_order_relaxed);
      waiting_locks_.push_back({m, ticket, h.origin, h.id});
      check_waiting_locks();
      return;
    }
    case Kind::TryLock:
      reply(h, m->try_lock(h.origin) ? server::kOk : server::kBusy, 0);
      return;
    case Kind::Unlock:
      reply(h, m->unlock(h.origin) ? server::kOk : server::kNotHolder, 0);
      return;
    default:
      reply(h, server::kUnreachable, 0);
  }
}

}  // namespace armada::rma::detail
