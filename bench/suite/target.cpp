// The command protocol between the origin (rank 0) and the serving ranks.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>

#include "common/pattern.hpp"
#include "suite/suite.hpp"

namespace armada::bench::suite {

void send_command(const Pass& p, int rank, const Command& m) {
  MPI_Send(&m, sizeof m, MPI_BYTE, rank, kTagCommand, p.comm);
}

std::int64_t reply(const Pass& p, int rank) {
  std::int64_t v = 0;
  MPI_Recv(&v, 1, MPI_INT64_T, rank, kTagReply, p.comm, MPI_STATUS_IGNORE);
  return v;
}

std::int64_t call(const Pass& p, int rank, const Command& m) {
  send_command(p, rank, m);
  return reply(p, rank);
}

void fail(Pass& p, const std::string& what, const std::string& detail) {
  ++p.failures;
  if (p.progress) p.progress->done();
  std::fprintf(stderr, "[rank %d] VERIFICATION FAILED [%s]: %s: %s\n", p.me, p.transport.c_str(), what.c_str(),
               detail.c_str());
  std::fflush(stderr);
}

void remote_check(Pass& p, int rank, const Command& m, const std::string& what) {
  if (call(p, rank, m) != 0) {
    ++p.failures;  // the serving rank printed the details
    if (p.progress) p.progress->done();
    std::fprintf(stderr, "[rank 0] VERIFICATION FAILED [%s]: %s (checked by rank %d)\n", p.transport.c_str(),
                 what.c_str(), rank);
  }
}

void pair_step(const Pass& p) {
  const int other = p.me == 0 ? 1 : 0;
  MPI_Sendrecv(nullptr, 0, MPI_BYTE, other, kTagStep, nullptr, 0, MPI_BYTE, other, kTagStep, p.comm, MPI_STATUS_IGNORE);
}

namespace {

void answer(const Pass& p, std::int64_t v) { MPI_Send(&v, 1, MPI_INT64_T, 0, kTagReply, p.comm); }

std::size_t z(std::int64_t v) { return static_cast<std::size_t>(v); }
std::uint64_t u(std::int64_t v) { return static_cast<std::uint64_t>(v); }
/// The origin's buffer rotation for `bytes`-byte messages (step and count as it sent them).
Rotation rotation(std::int64_t bytes, std::int64_t step, std::int64_t count) {
  Rotation r(z(bytes), 0, false);
  r.step = z(step);
  r.count = z(count);
  return r;
}

/// The memory a command names: this rank's segment, its MPI window (synchronized first) or the
/// cold family's peer window (offsets from its start).
std::byte* memory(Pass& p, Mem mem) {
  if (mem == Mem::Window) {
    p.win.sync();
    return p.win.local();
  }
  if (mem == Mem::Peer) return p.peer;
  return static_cast<std::byte*>(p.bases[static_cast<std::size_t>(p.me)]);
}

/// Overlap with the target busy: compute (spin on a flag of our own segment, no library call)
/// until the origin's put sets it, publishing the spin count so the origin sees we are inside.
/// Replies the spin count, or -1 if the flag held another value than 1.
void spin(Pass& p) {
  std::byte* slots = memory(p, Mem::Segment) + p.layout.slots();
  std::atomic_ref<std::int64_t> flag(*reinterpret_cast<std::int64_t*>(slots + Layout::kFlag));
  std::atomic_ref<std::int64_t> spins_out(*reinterpret_cast<std::int64_t*>(slots + Layout::kSpins));
  flag.store(0);
  spins_out.store(0);
  answer(p, 0);
  std::int64_t spins = 0;
  while (flag.load(std::memory_order_acquire) == 0)
    if ((++spins & 1023) == 0) spins_out.store(spins, std::memory_order_relaxed);
  const std::int64_t seen = flag.load();
  flag.store(0);
  answer(p, seen == 1 ? spins : -1);
}

/// The atomic family's check from both sides: n fetch-adds and n locked get + put increments on
/// our own memory through the runtime, while the origin does the same through the transport.
void mixed_atomic(Pass& p, std::int64_t n) {
  answer(p, 0);
  std::byte* slots = static_cast<std::byte*>(p.bases[1]) + p.layout.slots();
  const rma::GlobalPtr<long> counter(1, reinterpret_cast<long*>(slots + Layout::kCounter));
  const rma::GlobalPtr<long> locked(1, reinterpret_cast<long*>(slots + Layout::kLocked));
  for (std::int64_t i = 0; i < n; ++i) {
    rma::fetch_add(counter, 1L);
    p.mutexes.lock(0, 1);
    rma::put_value(rma::get_value(locked) + 1, locked);
    p.mutexes.unlock(0, 1);
  }
  answer(p, 0);
}

/// Returns true when the check passed; prints the failure otherwise.
bool check(Pass& p, const std::string& what, const std::string& problem) {
  if (problem.empty()) return true;
  fail(p, what, problem);
  return false;
}

std::string where(Mem mem) { return mem == Mem::Window ? "MPI window" : "rma segment"; }

/// Check: a offset, b bytes, c seed, d step, e count: b bytes at a + j*d, j < e
bool check_slots(Pass& p, const Command& m) {
  std::byte* base = memory(p, m.mem) + m.a;
  bool ok = true;
  for (std::int64_t j = 0; j < std::max<std::int64_t>(m.e, 1) && ok; ++j) {
    const std::size_t off = z(j * m.d);
    ok = check(p, where(m.mem) + " at offset " + std::to_string(z(m.a) + off) + " (" + format_bytes(z(m.b)) + ")",
               check_pattern(base + off, z(m.b), u(m.c), off / 8));
  }
  return ok;
}

/// CheckStrided:
bool check_strided(Pass& p, const Command& m) {
  // a offset, b segment bytes, c segments, d remote stride, e seed, f slot step (remote),
  // g = count << 32 | local slot step / 8: segment k of slot j at a + j*f + k*d holds the
  // pattern words of local offset j*lstep + k*b, and the gap after it is zero.
  std::byte* base = memory(p, m.mem) + m.a;
  const std::size_t seg = z(m.b), nseg = z(m.c), stride = z(m.d), count = z(m.g >> 32),
                    lstep = z(m.g & 0xFFFFFFFF) * 8;
  bool ok = true;
  for (std::size_t j = 0; j < count && ok; ++j)
    for (std::size_t k = 0; k < nseg && ok; ++k) {
      const std::byte* s = base + j * z(m.f) + k * stride;
      const std::string what = where(m.mem) + ": strided " + format_bytes(seg) + " x " + std::to_string(nseg) +
                               ", slot " + std::to_string(j) + ", segment " + std::to_string(k);
      ok = check(p, what, check_pattern(s, seg, u(m.e), (j * lstep + k * seg) / 8)) &&
           (stride == seg || check(p, what + " (the gap after it)", check_zero(s + seg, stride - seg)));
    }
  return ok;
}

/// CheckDoubles: a offset, b count, c expected multiple of acc_value(i) (as double bits)
bool check_doubles(Pass& p, const Command& m) {
  const std::byte* base = memory(p, m.mem) + m.a;
  double mult;
  std::memcpy(&mult, &m.c, sizeof mult);
  bool ok = true;
  for (std::size_t i = 0; i < z(m.b) && ok; ++i) {
    double got;
    std::memcpy(&got, base + 8 * i, 8);
    if (got != mult * acc_value(i))
      ok = check(p, where(m.mem) + ": accumulate result", "element " + std::to_string(i) + " is " +
                                                              std::to_string(got) + ", expected " +
                                                              std::to_string(mult * acc_value(i)));
  }
  return ok;
}

/// CheckScatter: a offset, b slots, c region bytes, d seed: slot k holds pattern_word(k, seed)
bool check_scatter(Pass& p, const Command& m) {
  const std::byte* base = memory(p, m.mem) + m.a;
  const auto slots = scatter_offsets(z(m.b), z(m.c));
  bool ok = true;
  for (std::size_t k = 0; k < slots.size() && ok; ++k)
    ok = check(p, where(m.mem) + ": scattered slot " + std::to_string(k),
               check_pattern(base + slots[k], 8, u(m.d), k));
  return ok;
}

/// The target's side of the contig family's notify ping-pong: `rounds` times, wait for the
/// origin's flag to reach the round's value, then put_notify the n bytes that came back into rank
/// 0's echo slots with the same value in rank 0's flag. The flags only grow: `first` is the value
/// of this run's first round.
void notify_echo(Pass& p, std::size_t n, long rounds, long first) {
  const auto* flag = reinterpret_cast<const long*>(p.seg + p.layout.slots() + Layout::kNotifyPing);
  auto* origin = static_cast<std::byte*>(p.bases[0]);
  auto* origin_flag = reinterpret_cast<long*>(origin + Layout::kEchoFlag);
  for (long v = first; v < first + rounds; ++v) {
    rma::wait_flag(flag, v, true);
    rma::put_notify(p.seg + p.layout.e(), origin + Layout::kEcho, n, origin_flag, v, 0);
  }
}

}  // namespace

void serve(Pass& p) {
  for (;;) {
    const Command m = receive_sleeping<Command>(p.comm, 0, kTagCommand);
    switch (m.cmd) {
      case Cmd::Quit:
        return;
      case Cmd::Fill: {  // a offset, b bytes, c seed (0: zeros), d first word
        std::byte* base = memory(p, m.mem) + m.a;
        if (m.c == 0) std::memset(base, 0, z(m.b));
        else fill_pattern(base, z(m.b), u(m.c), z(m.d));
        if (m.mem == Mem::Window) p.win.sync();
        answer(p, 0);
        break;
      }
      case Cmd::Check:
        answer(p, check_slots(p, m) ? 0 : 1);
        break;
      case Cmd::CheckStrided:
        answer(p, check_strided(p, m) ? 0 : 1);
        break;
      case Cmd::CheckDoubles:
        answer(p, check_doubles(p, m) ? 0 : 1);
        break;
      case Cmd::CheckScatter:
        answer(p, check_scatter(p, m) ? 0 : 1);
        break;
      case Cmd::SetLong: {  // a offset, b value
        std::byte* base = memory(p, m.mem);
        std::atomic_ref<std::int64_t>(*reinterpret_cast<std::int64_t*>(base + m.a)).store(m.b);
        if (m.mem == Mem::Window) p.win.sync();
        answer(p, 0);
        break;
      }
      case Cmd::GetLong: {  // a offset
        std::byte* base = memory(p, m.mem);
        answer(p, std::atomic_ref<std::int64_t>(*reinterpret_cast<std::int64_t*>(base + m.a)).load());
        break;
      }
      case Cmd::Echo:  // a bytes, b round trips, c d: buffer rotation step and count, e: first index
        answer(p, 0);
        echo(p.comm, 0, kTagPing, p.echo, z(m.a), z(m.b), rotation(m.a, m.c, m.d), z(m.e));
        break;
      case Cmd::StreamReceive:  // a bytes, b rounds, c d: buffer rotation step and count, e: first message
        answer(p, 0);
        stream_receive(p.comm, 0, kTagData, kTagAck, p.echo, z(m.a), kStreamWindow, z(m.b), rotation(m.a, m.c, m.d), z(m.e));
        break;
      case Cmd::SocketEcho:  // as Echo, over the TCP socket; f: 1 to sleep in recv, 0 to poll
        answer(p, 0);
        p.link.echo(p.link_echo, z(m.a), z(m.b), rotation(m.a, m.c, m.d), z(m.e), m.f ? Receive::Sleep : Receive::Poll);
        break;
      case Cmd::SocketStreamReceive:  // a bytes, b messages, c d: buffer rotation step and count, e: first message
        answer(p, 0);
        p.link.stream_receive(p.link_echo, z(m.a), z(m.b), rotation(m.a, m.c, m.d), z(m.e));
        break;
      case Cmd::NotifyEcho:  // a bytes, b round trips, c the first round's flag value
        answer(p, 0);
        notify_echo(p, z(m.a), m.b, m.c);
        break;
      case Cmd::Spin:
        spin(p);
        break;
      case Cmd::MixedAtomic:  // a: increments of each kind
        mixed_atomic(p, m.a);
        break;
      case Cmd::Cold:  // a kind, b first iteration, c iterations (suite/families/cold.cpp)
        answer(p, cold_target(p, m));
        break;
      case Cmd::UcxBaseline:  // a: bytes of the raw put/get area (suite/families/ucx.cpp)
        ucx_target(p, m);
        break;
      case Cmd::ServerStats:
        server_stats_reply(p);
        break;
      case Cmd::CheckStream: {  // a bytes, b seed, c step, d buffers used: each holds the pattern of its offset
        // mem: Segment for the MPI stream's buffers, Link for the TCP socket's.
        const bool socket = m.mem == Mem::Link;
        std::byte* buffers = socket ? p.link_echo : p.echo;
        bool ok = true;
        for (std::size_t i = 0; i < z(m.d) && ok; ++i)
          ok = check(p, std::string(socket ? "TCP socket" : "MPI") + " stream receive buffer " + std::to_string(i),
                     check_pattern(buffers + i * z(m.c), z(m.a), u(m.b), i * z(m.c) / 8));
        answer(p, ok ? 0 : 1);
        break;
      }
    }
  }
}

}  // namespace armada::bench::suite
