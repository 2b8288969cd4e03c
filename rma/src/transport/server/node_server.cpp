#include "transport/server/node_server.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>

#include "core/state.hpp"
#include "core/tsan.hpp"
#include "transport/server/direct.hpp"
#include "desc/runs.hpp"
#include "transport/base/locks.hpp"
#include "transport/base/waiting.hpp"

namespace armada::rma::detail {

using server::Header;
using server::Kind;
using server::Reply;
using server::SetHead;

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

NodeServer::NodeServer(State& state, MPI_Comm comm, ServerMap map, ServerSettings settings)
    : state_(state), comm_(comm), map_(std::move(map)), settings_(settings), me_(state.rank) {
  const std::vector<int> cluster = map_.cluster_of(me_);
  const auto g = cluster.size();
  const auto k = static_cast<std::size_t>(std::find(cluster.begin(), cluster.end(), me_) - cluster.begin());
  const int my_node = map_.node_of[static_cast<std::size_t>(me_)];
  std::vector<int> clients, peers;
  for (int c = 0; c < state.size; ++c) {
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
  auto add = [&](Slot slot, int source, std::size_t capacity) {
    posted_.push_back({slot, source, p, capacity});
    p += capacity;
  };
  for (int c : clients)
    for (int b = 0; b < settings_.buffers; ++b) add(Slot::Client, c, request_bytes);
  for (int q : peers)
    for (int b = 0; b < settings_.buffers; ++b) add(Slot::Peer, q, request_bytes);
  for (int q : peers)
    for (int b = 0; b < settings_.buffers; ++b) add(Slot::PeerAck, q, sizeof(int));
  add(Slot::Control, MPI_ANY_SOURCE, sizeof(Header));  // Quit from ourselves, Forget from the node
  chunk_[0].resize(settings_.chunk);
  chunk_[1].resize(settings_.chunk);
  buffer_bytes_ = arena_.size() + 2 * settings_.chunk;
  peer_credits_.assign(static_cast<std::size_t>(state.size), 0);
  for (int q : peers) peer_credits_[static_cast<std::size_t>(q)] = settings_.buffers;
  requests_.assign(posted_.size(), MPI_REQUEST_NULL);
  fifo_.resize(2 * static_cast<std::size_t>(state.size));
}

NodeServer::~NodeServer() {
  if (running_) stop();
}

void NodeServer::post(std::size_t i) {
  static constexpr int kTags[] = {server::kTagRequest, server::kTagForward, server::kTagForwardAck, server::kTagControl};
  const Posted& p = posted_[i];
  MPI_Irecv(p.buffer, static_cast<int>(p.capacity), MPI_BYTE, p.source, kTags[static_cast<int>(p.slot)], comm_,
            &requests_[i]);
  if (p.slot == Slot::Client || p.slot == Slot::Peer) fifo_[fifo_index(p)].push_back(i);
}

void NodeServer::start() {
  for (std::size_t i = 0; i < posted_.size(); ++i) post(i);
  running_ = true;
  thread_ = std::thread([this] { run(); });
}

void NodeServer::stop() {
  Header quit{};
  quit.kind = Kind::Quit;
  MPI_Send(&quit, sizeof quit, MPI_BYTE, me_, server::kTagControl, comm_);
  thread_.join();
  running_ = false;
}

void NodeServer::run() {
  // Idle policy. After a request the server keeps polling for settings_.awake_us (yielding the
  // core whenever another thread wants it), because requests come in bursts and a sleeping
  // server adds its wake-up time to the next one: a nonblocking get issued 200 µs after the
  // last would otherwise start late and hide little. Past that it sleeps 1, 2, 4 ... up to
  // sleep_max_us microseconds between polls, so an idle server costs (almost) no CPU.
  // The thread's timer slack is 1 µs instead of the default 50, so those sleeps are as short
  // as asked (the server is the one thread whose wake-up delays other processes).
  prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
  // The whole thread is a remote agent for ThreadSanitizer (core/tsan.hpp): besides executing
  // requests, its MPI calls run Open MPI's progress engine for this process's other requests
  // too, copying received data into the application's buffers; the application reads them after
  // the request completed, an ordering made by MPI's request flags, which TSan cannot see. Its
  // own state is private to the thread.
  const TsanRemoteAgentScope agent;
  using Clock = std::chrono::steady_clock;
  auto last_request = Clock::now();
  const auto awake = std::chrono::microseconds(settings_.awake_us);
  bool awake_now = true;
  int idle = 0;
  long sleep_ns = 1000;
  for (;;) {
    int index = MPI_UNDEFINED, flag = 0;
    MPI_Status status;
    MPI_Testany(static_cast<int>(requests_.size()), requests_.data(), &index, &flag, &status);
    if (flag && index != MPI_UNDEFINED) {
      idle = 0;
      sleep_ns = 1000;
      last_request = Clock::now();
      awake_now = true;
      const auto i = static_cast<std::size_t>(index);
      const Posted& p = posted_[i];
      int length = 0;
      MPI_Get_count(&status, MPI_BYTE, &length);
      switch (p.slot) {
        case Slot::Control: {
          Header h;
          std::memcpy(&h, p.buffer, sizeof h);
          if (h.kind == Kind::Forget) {
            if (auto it = foreign_.find(h.segment); it != foreign_.end()) {
              munmap(it->second.base, it->second.size);
              foreign_.erase(it);
            }
            break;
          }
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
          return;
        }
        case Slot::Client:
        case Slot::Peer: {
          // Execute this source's earlier requests first (already matched, so they complete).
          auto& order = fifo_[fifo_index(p)];
          for (;;) {
            const std::size_t head = order.front();
            order.pop_front();
            if (head == i) break;
            MPI_Status head_status;
            MPI_Wait(&requests_[head], &head_status);
            int head_length = 0;
            MPI_Get_count(&head_status, MPI_BYTE, &head_length);
            handle(posted_[head].buffer, static_cast<std::size_t>(head_length), head_status.MPI_SOURCE,
                   posted_[head].slot == Slot::Peer);
            post(head);
          }
          handle(p.buffer, static_cast<std::size_t>(length), status.MPI_SOURCE, p.slot == Slot::Peer);
          break;
        }
        case Slot::PeerAck: {
          ++peer_credits_[static_cast<std::size_t>(p.source)];
          // Send what waited for this peer's credit, in order.
          for (auto it = backlog_.begin(); it != backlog_.end();) {
            if (it->to != p.source) { ++it; continue; }
            if (peer_credits_[static_cast<std::size_t>(p.source)] == 0) break;
            --peer_credits_[static_cast<std::size_t>(p.source)];
            MPI_Send(it->message.data(), static_cast<int>(it->message.size()), MPI_BYTE, it->to, server::kTagForward, comm_);
            it = backlog_.erase(it);
          }
          break;
        }
      }
      post(i);
      continue;
    }
    if (!waiting_locks_.empty()) check_waiting_locks();
    if (!sends_in_flight_.empty()) {
      // Sends in flight may need this side again (a rendezvous answered by the origin, after
      // which the sender copies the data): stay awake while they progress, for up to ~10k
      // polls after the last one completed, then back off as when idle.
      const std::size_t before = sends_in_flight_.size();
      reap_sends();
      if (sends_in_flight_.size() < before) send_spin_ = 0;
      if (!sends_in_flight_.empty() && ++send_spin_ < 10000) {
        cpu_relax();
        continue;
      }
    }
    if (++idle < 200) {
      cpu_relax();
      continue;
    }
    if (!settings_.poll && (idle & 63) == 0) awake_now = Clock::now() - last_request < awake;
    if (settings_.poll || awake_now) {
      // Polling yields rather than spins: where threads outnumber cores (2 ranks, each with a
      // server, on 2 cores) a pure spin holds a core for whole scheduler slices (ms) while the
      // thread that would answer waits; a yield returns at once when nobody else is runnable.
      sched_yield();
      continue;
    }
    const timespec ts{0, sleep_ns};
    nanosleep(&ts, nullptr);
    sleep_ns = std::min<long>(sleep_ns * 2, 1000L * settings_.sleep_max_us);
  }
}

void NodeServer::reap_sends() {
  std::erase_if(sends_in_flight_, [](MPI_Request& r) {
    int done = 0;
    MPI_Test(&r, &done, MPI_STATUS_IGNORE);
    return done != 0;
  });
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
  const Reply r{status, 0, value};
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
  if (const Slice* slice = state_.registry->find(h.target, remote, extent); slice && slice->local)
    return slice->map(remote);
  if (h.region_fd < 0 || h.segment < 0 || addr < h.slice_base) return nullptr;
  auto it = foreign_.find(h.segment);
  if (it == foreign_.end()) {
    // The segment's group does not include this process: map the node object its creator
    // holds open. Dropped again when the creator frees it (Kind::Forget).
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/fd/%d", h.region_pid, h.region_fd);
    const int fd = open(path, O_RDWR);
    if (fd < 0) return nullptr;
    void* p = mmap(nullptr, h.region_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) return nullptr;
    it = foreign_.emplace(h.segment, Foreign{static_cast<std::byte*>(p), h.region_size}).first;
  }
  const std::uint64_t offset = h.region_offset + (addr - h.slice_base);
  if (offset > it->second.size || extent > it->second.size - offset) return nullptr;
  return it->second.base + offset;
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

void NodeServer::execute(const Header& h, const std::byte* inline_data) {
  Registry& registry = *state_.registry;
  ShmTransport& shm = *state_.shm;
  const auto kind = h.kind;
  const auto type = static_cast<AccType>(h.acc_type);
  const bool data_in = kind == Kind::Put || kind == Kind::Acc || kind == Kind::PutV || kind == Kind::AccV;

  // Everything that moves data: build a walker over the target runs, then stream.
  if (kind == Kind::Put || kind == Kind::Get || kind == Kind::Acc || kind == Kind::PutV ||
      kind == Kind::GetV || kind == Kind::AccV) {
    const bool vector = kind == Kind::PutV || kind == Kind::GetV || kind == Kind::AccV;
    std::size_t inline_left = h.inline_bytes;
    const std::byte* in = inline_data;
    std::vector<std::byte> desc_storage;
    std::optional<RunWalker> walker;
    std::ptrdiff_t delta = 0;  // owner address - mapped address (strided)
    std::byte* contiguous_target = nullptr;  // the mapped run, when the target side is one run
    bool reachable = true;
    if (vector) {
      const std::byte* desc = in;
      if (inline_left == 0) {
        desc_storage.resize(h.desc_bytes);
        MPI_Recv(desc_storage.data(), static_cast<int>(h.desc_bytes), MPI_BYTE, h.origin, server::to_server_tag(h.id), comm_, MPI_STATUS_IGNORE);
        desc = desc_storage.data();
      } else {
        in += h.desc_bytes;
        inline_left -= h.desc_bytes;
      }
      std::vector<std::pair<std::byte*, std::size_t>> runs;
      std::vector<std::ptrdiff_t> deltas;
      const Slice* last = nullptr;
      for (const std::byte* p = desc; p < desc + h.desc_bytes && reachable;) {
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
            last = registry.find(h.target, reinterpret_cast<void*>(a), set.bytes);
            if (!last || !last->local) last = nullptr;
            mapped = last ? last->map(reinterpret_cast<void*>(a)) : map_remote(h, a, set.bytes);
          }
          if (!mapped) {
            reachable = false;
            break;
          }
          runs.emplace_back(mapped, set.bytes);
          deltas.push_back(static_cast<std::ptrdiff_t>(a - reinterpret_cast<std::uintptr_t>(mapped)));
        }
      }
      if (reachable) walker.emplace(std::move(runs), std::move(deltas));
    } else {
      Shape shape;
      shape.levels = h.levels;
      for (int l = 0; l <= h.levels; ++l) shape.count[l] = h.count[l];
      for (int l = 0; l < h.levels; ++l) shape.dst_stride[l] = h.stride[l];
      std::byte* mapped = map_remote(h, h.remote, extent(shape, true));
      reachable = mapped != nullptr;
      if (reachable && h.levels == 0) contiguous_target = mapped;
      if (reachable) {
        delta = static_cast<std::ptrdiff_t>(h.remote - reinterpret_cast<std::uintptr_t>(mapped));
        walker.emplace(mapped, shape, true);
      }
    }
    if (!reachable) {
      if (data_in && h.inline_bytes == 0 && h.delivery != server::kDirect) drain(h, h.bytes);  // the origin sends it regardless
      reply(h, server::kUnreachable, 0);
      return;
    }
    const bool acc = kind == Kind::Acc || kind == Kind::AccV;
    // Applies the next n bytes of the stream to the target runs.
    auto apply = [&](const std::byte* src, std::size_t n) {
      walker->walk(n, [&](std::byte* d, std::size_t k) {
        if (acc)
          shm.accumulate_into(type, h.scale, src, d,
                              reinterpret_cast<std::uintptr_t>(d) + static_cast<std::uintptr_t>(vector ? walker->run_delta() : delta),
                              h.target, k);
        else
          std::memcpy(d, src, k);
        src += k;
      });
    };
    if (h.delivery == server::kDirect) {
      // No data messages: copy between the target's runs and the origin's buffer ourselves.
      const int pid = map_.pid_of[static_cast<std::size_t>(h.origin)];
      int error = 0;
      if (acc) {  // a chunk at a time, applied under the accumulate locks
        for (std::size_t done = 0; done < h.bytes && error == 0; done += settings_.chunk) {
          const std::size_t n = std::min<std::size_t>(h.bytes - done, settings_.chunk);
          const iovec into{chunk_[0].data(), n};
          error = server::direct_copy(false, pid, {&into, 1}, h.origin_buffer + done);
          if (error == 0) apply(chunk_[0].data(), n);
        }
      } else {
        direct_runs_.clear();
        walker->walk(h.bytes, [&](std::byte* run, std::size_t k) { direct_runs_.push_back({run, k}); });
        error = server::direct_copy(!data_in, pid, direct_runs_, h.origin_buffer);
      }
      reply(h, error ? server::kDirectFailed : server::kOk, static_cast<std::uint64_t>(error));
      return;
    }
    if (data_in) {
      if (inline_left > 0) {
        apply(in, inline_left);
      } else if (!acc && contiguous_target) {
        // One target run: the chunks land in the target's memory directly (no bounce copy).
        const std::size_t piece = server::piece(h, settings_.chunk);
        for (std::size_t done = 0; done < h.bytes;) {
          const std::size_t n = std::min(h.bytes - done, piece);
          MPI_Recv(contiguous_target + done, static_cast<int>(n), MPI_BYTE, h.origin, server::to_server_tag(h.id), comm_,
                   MPI_STATUS_IGNORE);
          done += n;
        }
      } else {
        for (std::size_t left = h.bytes; left > 0;) {
          const std::size_t n = std::min(left, settings_.chunk);
          MPI_Recv(chunk_[0].data(), static_cast<int>(n), MPI_BYTE, h.origin, server::to_server_tag(h.id), comm_, MPI_STATUS_IGNORE);
          apply(chunk_[0].data(), n);
          left -= n;
        }
      }
    } else if (h.delivery == server::kInReply) {
      // A small get: the data follows the Reply in one message (one match at the origin).
      in_reply_.resize(sizeof(Reply) + h.bytes);
      const Reply r{server::kOk, 0, 0};
      std::memcpy(in_reply_.data(), &r, sizeof r);
      walker->gather(in_reply_.data() + sizeof r, h.bytes);
      MPI_Send(in_reply_.data(), static_cast<int>(in_reply_.size()), MPI_BYTE, h.origin, server::reply_tag(h.id), comm_);
      return;
    } else if (contiguous_target) {
      // Get of one target run: every chunk leaves from the target's memory at once, no packing,
      // and the server moves on instead of waiting for the origin to take them (the origin's
      // receives complete whenever it, or its completer thread, enters MPI; run() reaps the
      // sends). The reply may overtake the data: the origin waits for both.
      const std::size_t piece = server::piece(h, settings_.chunk);
      for (std::size_t at = 0; at < h.bytes; at += piece) {
        const std::size_t n = std::min(h.bytes - at, piece);
        sends_in_flight_.push_back(MPI_REQUEST_NULL);
        MPI_Isend(contiguous_target + at, static_cast<int>(n), MPI_BYTE, h.origin, server::to_origin_tag(h.id), comm_,
                  &sends_in_flight_.back());
      }
      send_spin_ = 0;
    } else {
      // Get: pack chunk k+1 while chunk k is on the wire.
      MPI_Request sending[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
      int b = 0;
      for (std::size_t left = h.bytes; left > 0; b ^= 1) {
        const std::size_t n = std::min(left, settings_.chunk);
        MPI_Wait(&sending[b], MPI_STATUS_IGNORE);
        walker->gather(chunk_[b].data(), n);
        MPI_Isend(chunk_[b].data(), static_cast<int>(n), MPI_BYTE, h.origin, server::to_origin_tag(h.id), comm_, &sending[b]);
        left -= n;
      }
      MPI_Waitall(2, sending, MPI_STATUSES_IGNORE);
    }
    reply(h, server::kOk, 0);
    return;
  }

  // Atomics and mutexes work on one word in the target's memory.
  const std::size_t width = kind == Kind::Rmw ? static_cast<std::size_t>(h.rmw_width) : sizeof(TicketMutex);
  std::byte* word = map_remote(h, h.remote, width);
  if (!word) {
    reply(h, server::kUnreachable, 0);
    return;
  }
  switch (kind) {
    case Kind::Rmw: {
      std::uint64_t old = 0;
      shm.rmw_at(static_cast<RmwOp>(h.rmw_op), width, word, h.operand, h.compare, &old);
      reply(h, server::kOk, old);
      return;
    }
    case Kind::Lock: {
      auto* m = reinterpret_cast<TicketMutex*>(word);
      // A ticket in the same queue on-node lockers use: FIFO across transports. The server
      // grants it when its turn comes; the waiting origin sleeps in its reply wait.
      const std::uint32_t ticket = m->next.fetch_add(1, std::memory_order_relaxed);
      waiting_locks_.push_back({m, ticket, h.origin, h.id});
      check_waiting_locks();
      return;
    }
    case Kind::TryLock: {
      auto* m = reinterpret_cast<TicketMutex*>(word);
      reply(h, m->try_lock(h.origin) ? server::kOk : server::kBusy, 0);
      return;
    }
    case Kind::Unlock: {
      auto* m = reinterpret_cast<TicketMutex*>(word);
      reply(h, m->unlock(h.origin) ? server::kOk : server::kNotHolder, 0);
      return;
    }
    default:
      reply(h, server::kUnreachable, 0);
  }
}

}  // namespace armada::rma::detail
