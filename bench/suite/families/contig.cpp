// Family "contig": contiguous put (a stream with one fence, and each put fenced), get, acc and
// put_notify (a stream, and the time until the target sees the flag) over a size sweep, against the
// MPI baselines (one-sided RMA + flush, send/recv ping-pong and stream) and the local baselines
// (memcpy, axpy) of the same launch, across hosts also the link's own limit (a plain TCP socket);
// and an 8-byte get after the origin and the target were idle for 1 ms (a node server may have
// backed off into its sleep).
#include <unistd.h>

#include <cstring>

#include "common/pattern.hpp"
#include "suite/families/common.hpp"

namespace armada::bench::suite {

namespace {

/// The largest size reported as a latency (µs); above it, bandwidth (GB/s).
constexpr std::size_t kLatencyMax = 256;

/// One size of the sweep: buffers, rotation and call counters shared by its contestants.
struct Step {
  Pass& p;
  std::size_t n;
  std::uint64_t seed;
  Rotation rot, stream_rot;
  bool acc;       // n is a multiple of 8: the accumulate contestants run
  std::byte *A, *B, *C, *D, *E;
  std::size_t n_put = 0, n_pn = 0, n_npp = 0, n_putf = 0, n_get = 0, n_acc = 0, n_acc2 = 0, n_mput = 0, n_mget = 0, n_macc = 0,
              n_ping = 0, n_stream = 0, n_copy = 0, n_sping = 0, n_sstream = 0;
};

/// A run(k) of k calls of op(i) and, inside the time, the fence completing the last of them.
template <class Op>
std::function<double(std::size_t)> fenced_stream(Op op) {
  return [op](std::size_t k) mutable {
    const auto t0 = Clock::now();
    for (std::size_t i = 0; i < k; ++i) op();
    rma::fence(T);
    return seconds(t0, Clock::now());
  };
}

void add_armada(Step& s, std::vector<Contestant>& cs, std::vector<std::string>& ops) {
  static const double one = 1.0, two = 2.0;
  cs.emplace_back("armada", fenced_stream([&s] {
                    const std::size_t o = s.rot.offset(s.n_put++);
                    rma::put(s.p.src + o, s.A + o, s.n, T);
                  }));
  ops.push_back("put");
  cs.emplace_back("armada_put_fence", timed([&s] {
                    const std::size_t o = s.rot.offset(s.n_putf++);
                    rma::put(s.p.src + o, s.D + o, s.n, T);
                    rma::fence(T);
                  }));
  ops.push_back("put");
  cs.emplace_back("armada", timed([&s] {
                    const std::size_t o = s.rot.offset(s.n_get++);
                    rma::get(s.B + o, s.p.dst + o, s.n, T);
                  }));
  ops.push_back("get");
  if (!s.acc) return;
  auto acc = [&s](const double* scale, std::size_t& calls) {
    const std::size_t o = s.rot.offset(calls++);
    rma::acc(rma::AccType::Double, scale, reinterpret_cast<std::byte*>(s.p.acc_src) + o, s.C + o, s.n, T);
  };
  cs.emplace_back("armada", fenced_stream([&s, acc] { acc(&one, s.n_acc); }));
  ops.push_back("acc");
  cs.emplace_back("armada_scale2", fenced_stream([&s, acc] { acc(&two, s.n_acc2); }));  // a scale other than 1
  ops.push_back("acc");
}

/// put_notify (rma/transfer.hpp): a stream of calls into region E, each setting the target's flag
/// to the call count, the fence completing the last inside the time (per call: local completion,
/// as "put"); and, for sizes that fit rank 0's echo slots, the time until the target observes
/// the flag: a ping-pong in which each side waits for its flag and answers with a put_notify
/// (half a round trip, beside the socket's and MPI's ping-pongs).
void add_notify(Step& s, std::vector<Contestant>& cs, std::vector<std::string>& ops) {
  Pass& p = s.p;
  auto* flag = reinterpret_cast<long*>(p.seg + p.layout.slots() + Layout::kNotify);
  cs.emplace_back("armada_put_notify", fenced_stream([&s, &p, flag] {
                    const std::size_t o = s.rot.offset(s.n_pn++);
                    rma::put_notify(p.src + o, s.E + o, s.n, flag, ++p.notify_sets, T);
                  }));
  ops.push_back("put");
  if (s.n > Layout::kEchoBytes) return;
  cs.emplace_back("armada_notify_pingpong_half", [&s, &p](std::size_t k) {
    auto* at_target = reinterpret_cast<long*>(p.seg + p.layout.slots() + Layout::kNotifyPing);
    const auto* mine = reinterpret_cast<const long*>(static_cast<std::byte*>(p.bases[0]) + Layout::kEchoFlag);
    const long first = p.notify_pings + 1;
    call(p, T, {Cmd::NotifyEcho, Mem::Segment, i64(s.n), i64(k), i64(first)});
    const auto t0 = Clock::now();
    for (long v = first; v < first + static_cast<long>(k); ++v) {
      rma::put_notify(p.src, s.E, s.n, at_target, v, T);
      rma::wait_flag(mine, v, true);
    }
    const double t = seconds(t0, Clock::now());
    p.notify_pings += k;
    s.n_npp += k;
    return t;
  });
  cs.back().per_iter = 2;  // a round trip is two notified puts: the figure is half of it
  ops.push_back("notify");
}

/// The notify contestants' data and flags: the stream's slots and its flag at the target, the
/// ping-pong's echo at the origin (a copy of what the target received).
bool check_notify(Step& s, const Outcome& o, const std::string& what) {
  Pass& p = s.p;
  const Layout& L = p.layout;
  if (o.method == "armada_notify_pingpong_half")
    return s.n_npp == 0 ||
           local_check(p, what + " echo", check_pattern(static_cast<std::byte*>(p.bases[0]) + Layout::kEcho, s.n, s.seed));
  bool ok = remote_ok(p, T, {Cmd::Check, Mem::Segment, i64(L.e()), i64(s.n), i64(s.seed), i64(s.rot.step), i64(used(s.n_pn, s.rot))},
                      what);
  const std::int64_t flag = call(p, T, {Cmd::GetLong, Mem::Segment, i64(L.slots() + Layout::kNotify)});
  return local_check(p, what + " flag", flag == p.notify_sets ? "" :
                         "the target's flag holds " + std::to_string(flag) + ", not the call count " +
                         std::to_string(p.notify_sets)) && ok;
}

void add_mpi_one_sided(Step& s, std::vector<Contestant>& cs, std::vector<std::string>& ops) {
  const Layout& L = s.p.layout;
  cs.emplace_back("mpi_put_flush", timed([&s, &L] {
                    const std::size_t o = s.rot.offset(s.n_mput++);
                    s.p.win.put_flush(s.p.src + o, s.n, T, L.a() + o);
                  }));
  ops.push_back("put");
  cs.emplace_back("mpi_get_flush", timed([&s, &L] {
                    const std::size_t o = s.rot.offset(s.n_mget++);
                    s.p.win.get_flush(s.p.mdst + o, s.n, T, L.b() + o);
                  }));
  ops.push_back("get");
  if (!s.acc) return;
  cs.emplace_back("mpi_acc_flush", timed([&s, &L] {
                    const std::size_t o = s.rot.offset(s.n_macc++);
                    s.p.win.acc_flush(s.p.acc_src + o / 8, s.n / 8, T, L.c() + o);
                  }));
  ops.push_back("acc");
}

// Two-sided baselines: the target takes part (a command starts its side of each run). They
// rotate over the same buffers as the one-sided operations: a baseline served from a hot cache
// while the operations it is compared with stream through memory would flatter it by 2x at 1 MiB
// (--no-rotate makes both hot). The stream needs a buffer per message of a round.
void add_two_sided(Step& s, std::vector<Contestant>& cs, std::vector<std::string>& ops) {
  Pass& p = s.p;
  cs.emplace_back("mpi_pingpong_half", [&s, &p](std::size_t k) {
    call(p, T, {Cmd::Echo, Mem::Segment, i64(s.n), i64(k), i64(s.rot.step), i64(s.rot.count), i64(s.n_ping)});
    const double t = pingpong(p.comm, T, kTagPing, p.src, p.recv, s.n, k, s.rot, s.n_ping);
    s.n_ping += k;
    return t;
  });
  cs.back().per_iter = 2;  // a round trip is two messages: the figure is half of it
  ops.push_back("sendrecv");
  cs.emplace_back("mpi_stream", [&s, &p](std::size_t k) {
    call(p, T, {Cmd::StreamReceive, Mem::Segment, i64(s.n), i64(k), i64(s.stream_rot.step), i64(s.stream_rot.count),
                i64(s.n_stream)});
    const double t = stream_send(p.comm, T, kTagData, kTagAck, p.src, s.n, kStreamWindow, k, s.stream_rot, s.n_stream);
    s.n_stream += k * static_cast<std::size_t>(kStreamWindow);
    return t;
  });
  cs.back().per_iter = kStreamWindow;
  ops.push_back("sendrecv");
}

/// The link's own limit (common/socket_baseline.hpp): the same ping-pong and stream over a plain
/// TCP socket between the two ranks, into buffers of their own (verified apart from MPI's).
/// At latency sizes also with both receivers asleep in the kernel: what the link gives a program
/// that does not poll, as Armada's waiters do not on a full node (cluster.sh --busy).
void add_socket(Step& s, std::vector<Contestant>& cs, std::vector<std::string>& ops) {
  Pass& p = s.p;
  for (const Receive how : {Receive::Poll, Receive::Sleep}) {
    if (how == Receive::Sleep && s.n > kLatencyMax) break;
    const char* method = how == Receive::Poll ? "socket_pingpong_half" : "socket_pingpong_sleep_half";
    cs.emplace_back(method, [&s, &p, how](std::size_t k) {
      call(p, T, {Cmd::SocketEcho, Mem::Link, i64(s.n), i64(k), i64(s.rot.step), i64(s.rot.count), i64(s.n_sping),
                  how == Receive::Sleep});
      const double t = p.link.pingpong(p.src, p.link_recv, s.n, k, s.rot, s.n_sping, how);
      s.n_sping += k;  // the two ping-pongs write the same pattern into the same rotation
      return t;
    });
    cs.back().per_iter = 2;
    ops.push_back("sendrecv");
  }
  cs.emplace_back("socket_stream", [&s, &p](std::size_t k) {
    call(p, T, {Cmd::SocketStreamReceive, Mem::Link, i64(s.n), i64(k), i64(s.stream_rot.step), i64(s.stream_rot.count),
                i64(s.n_sstream)});
    const double t = p.link.stream_send(p.src, s.n, k, s.stream_rot, s.n_sstream);
    s.n_sstream += k;
    return t;
  });
  ops.push_back("sendrecv");
}

/// What the node's memory system gives without any transport: a copy, and dst += scale * src.
void add_local(Step& s, std::vector<Contestant>& cs, std::vector<std::string>& ops) {
  cs.emplace_back("memcpy", timed([&s] {
                    const std::size_t o = s.rot.offset(s.n_copy++);
                    std::memcpy(s.p.scratch + o, s.p.src + o, s.n);
                    clobber(s.p.scratch + o);
                  }));
  ops.push_back("put");
  if (!s.acc) return;
  cs.emplace_back("local_axpy", timed([&s] {
                    double* __restrict d = reinterpret_cast<double*>(s.p.scratch);
                    const double* __restrict x = s.p.acc_src;
                    const std::size_t m = s.n / 8;
                    for (std::size_t i = 0; i < m; ++i) d[i] += 1.0 * x[i];
                    clobber(d);
                  }));
  ops.push_back("acc");
}

/// The exact accumulate check: zero, two accumulates of `scale`, compare with 2 * scale * src.
bool check_acc(Step& s, const Outcome& o, const std::string& what) {
  Pass& p = s.p;
  const Layout& L = p.layout;
  const bool mpi = o.method == "mpi_acc_flush";
  const Mem mem = mpi ? Mem::Window : Mem::Segment;
  call(p, T, {Cmd::Fill, mem, i64(L.c()), i64(s.n), 0});
  const double scale = o.method == "armada_scale2" ? 2.0 : 1.0;
  for (int k = 0; k < 2; ++k) {
    if (mpi) p.win.acc_flush(p.acc_src, s.n / 8, T, L.c());
    else rma::acc(rma::AccType::Double, &scale, p.acc_src, s.C, s.n, T);
  }
  if (!mpi) rma::fence(T);
  const double mult = 2 * scale;
  std::int64_t bits;
  std::memcpy(&bits, &mult, 8);
  return remote_ok(p, T, {Cmd::CheckDoubles, mem, i64(L.c()), i64(s.n / 8), bits}, what);
}

/// A local baseline's check: one fresh call from a zeroed destination.
bool check_local(Step& s, const Outcome& o, const std::string& what) {
  std::memset(s.p.scratch, 0, s.n);
  if (o.method == "memcpy") {
    std::memcpy(s.p.scratch, s.p.src, s.n);
    return local_check(s.p, what, check_pattern(s.p.scratch, s.n, s.seed));
  }
  auto* d = reinterpret_cast<double*>(s.p.scratch);
  for (std::size_t i = 0; i < s.n / 8; ++i) d[i] += 1.0 * s.p.acc_src[i];
  for (std::size_t i = 0; i < s.n / 8; ++i)
    if (d[i] != acc_value(i)) return local_check(s.p, what, "element " + std::to_string(i) + " differs");
  return true;
}

bool check_gets(Step& s, std::byte* d, std::size_t calls, const std::string& what) {
  bool ok = true;
  for (std::size_t j = 0; j < used(calls, s.rot) && ok; ++j)
    ok = local_check(s.p, what + ", slot " + std::to_string(j), check_pattern(d + j * s.rot.step, s.n, kGetSeed, j * s.rot.step / 8));
  return ok;
}

/// Every slot each method used holds what it should.
bool verify(Step& s, const Outcome& o) {
  Pass& p = s.p;
  const Layout& L = p.layout;
  const std::string what = o.op + " " + o.method + " " + format_bytes(s.n);
  auto remote = [&](Mem mem, std::size_t at, std::size_t calls) {
    return remote_ok(p, T, {Cmd::Check, mem, i64(at), i64(s.n), i64(s.seed), i64(s.rot.step), i64(used(calls, s.rot))}, what);
  };
  if (o.method == "memcpy" || o.method == "local_axpy") return check_local(s, o, what);
  if (o.op == "acc") return check_acc(s, o, what);
  if (o.method == "armada_put_notify" || o.method == "armada_notify_pingpong_half") return check_notify(s, o, what);
  if (o.method == "armada" && o.op == "put") return remote(Mem::Segment, L.a(), s.n_put);
  if (o.method == "armada_put_fence") return remote(Mem::Segment, L.d(), s.n_putf);
  if (o.method == "mpi_put_flush") return remote(Mem::Window, L.a(), s.n_mput);
  if (o.method == "armada") return check_gets(s, p.dst, s.n_get, what);
  if (o.method == "mpi_get_flush") return check_gets(s, p.mdst, s.n_mget, what);
  const bool socket = o.method.rfind("socket_", 0) == 0;
  if (o.method == "mpi_pingpong_half" || o.method == "socket_pingpong_half" || o.method == "socket_pingpong_sleep_half") {
    std::byte* echoes = socket ? p.link_recv : p.recv;
    bool ok = true;
    for (std::size_t i = 0; i < used(socket ? s.n_sping : s.n_ping, s.rot) && ok; ++i)
      ok = local_check(p, what + " echo " + std::to_string(i), check_pattern(echoes + s.rot.offset(i), s.n, s.seed, s.rot.offset(i) / 8));
    return ok;
  }
  return remote_ok(p, T, {Cmd::CheckStream, socket ? Mem::Link : Mem::Segment, i64(s.n), i64(s.seed), i64(s.stream_rot.step),
                          i64(used(socket ? s.n_sstream : s.n_stream, s.stream_rot))}, what);
}

void rows(Pass& p, std::size_t n, std::vector<Outcome>& out) {
  const Unit unit = n <= kLatencyMax ? Unit::Micros : Unit::GBps;
  for (const char* op : {"put", "get", "acc"}) {
    Outcome* a = find(out, "armada", op);
    if (!a) continue;
    Outcome* mpi = nullptr;
    for (Outcome& o : out)
      if (o.op == op && is_mpi_baseline(o.method)) mpi = &o;
    row(p, op, n, unit, *a, mpi);
    if (Outcome* local = find(out, std::string(op) == "acc" ? "local_axpy" : "memcpy"))
      row(p, std::string(op) + " vs local", n, unit, *a, local);
  }
  if (Outcome* f = find(out, "armada_put_fence")) row(p, "put + fence each", n, unit, *f, find(out, "mpi_put_flush"));
  if (Outcome* s2 = find(out, "armada_scale2")) row(p, "acc scale 2", n, unit, *s2, find(out, "armada", "acc"));
  if (Outcome* pn = find(out, "armada_put_notify")) row(p, "put_notify (stream + fence)", n, unit, *pn, find(out, "armada", "put"));
  if (Outcome* pp = find(out, "armada_notify_pingpong_half")) {
    Outcome* one_way = find(out, "socket_pingpong_half");
    row(p, "put_notify seen at the target (ping-pong, half)", n, unit, *pp, one_way ? one_way : find(out, "mpi_pingpong_half"));
  }
  row(p, "MPI send/recv ping-pong, half", n, unit, *find(out, "mpi_pingpong_half"), nullptr);
  row(p, "MPI send/recv stream (window 8)", n, unit, *find(out, "mpi_stream"), nullptr);
  if (Outcome* ping = find(out, "socket_pingpong_half")) row(p, "TCP socket ping-pong, half", n, unit, *ping, nullptr);
  if (Outcome* sleep = find(out, "socket_pingpong_sleep_half"))
    row(p, "TCP socket ping-pong, half, receivers asleep", n, unit, *sleep, find(out, "socket_pingpong_half"));
  if (Outcome* stream = find(out, "socket_stream")) row(p, "TCP socket stream", n, unit, *stream, nullptr);
}

void contig_size(Pass& p, std::size_t si) {
  const Layout& L = p.layout;
  const std::size_t n = p.opt->sizes[si];
  p.progress->next("contig " + p.transport + " " + format_bytes(n));
  const Rotation rot(n, L.region, p.opt->rotate);
  Step s{p, n, static_cast<std::uint64_t>(1000 + si), rot,
         rot.count >= static_cast<std::size_t>(kStreamWindow) ? rot : stream_buffers(n, rot.step, kStreamWindow),
         n % 8 == 0, p.seg + L.a(), p.seg + L.b(), p.seg + L.c(), p.seg + L.d(), p.seg + L.e()};
  fill_pattern(p.src, rot.extent(), s.seed);
  std::memset(p.dst, 0, rot.extent());
  std::memset(p.mdst, 0, rot.extent());
  call(p, T, {Cmd::Fill, Mem::Segment, i64(L.a()), i64(rot.extent()), 0});
  call(p, T, {Cmd::Fill, Mem::Segment, i64(L.d()), i64(rot.extent()), 0});
  call(p, T, {Cmd::Fill, Mem::Segment, i64(L.e()), i64(rot.extent()), 0});
  std::memset(static_cast<std::byte*>(p.bases[0]) + Layout::kEcho, 0, Layout::kEchoBytes);
  if (p.win.ok()) call(p, T, {Cmd::Fill, Mem::Window, i64(L.a()), i64(rot.extent()), 0});

  std::vector<Contestant> cs;
  std::vector<std::string> ops;
  add_armada(s, cs, ops);
  add_notify(s, cs, ops);
  if (p.win.ok()) add_mpi_one_sided(s, cs, ops);
  add_two_sided(s, cs, ops);
  if (p.link.ok()) add_socket(s, cs, ops);
  add_local(s, cs, ops);
  std::vector<Outcome> out = run_all(p, cs, ops);
  for (Outcome& o : out) {
    o.verified = verify(s, o);
    add_records(p, "contig", o, n, 0, 0, static_cast<double>(n), true);
  }
  rows(p, n, out);
}

/// An 8-byte get after 1 ms in which neither side called the library; only the get is timed,
/// a fixed number of times per repetition (calibrating would time the sleeps).
void get_after_idle(Pass& p) {
  p.progress->next("contig " + p.transport + " 8 B get after 1 ms idle");
  const std::size_t calls = p.opt->quick ? 20 : 100;
  std::byte* const B = p.seg + p.layout.b();
  std::memset(p.dst, 0, 8);
  Outcome o{"get", "armada_after_idle_1ms", {}, calls, false};
  for (int r = 0; r < p.opt->reps; ++r) {
    double total = 0;
    for (std::size_t i = 0; i < calls; ++i) {
      usleep(1000);
      const auto t0 = Clock::now();
      rma::get(B, p.dst, 8, T);
      total += seconds(t0, Clock::now());
    }
    o.us.push_back(total / static_cast<double>(calls) * 1e6);
  }
  o.verified = local_check(p, "get 8 B after 1 ms idle", check_pattern(p.dst, 8, kGetSeed));
  add_records(p, "contig", o, 8, 0, 0, 8, false);
  row(p, "get after 1 ms idle", 8, Unit::Micros, o, nullptr);
}

}  // namespace

void family_contig(Pass& p) {
  section(p, "contig [" + p.transport + "]: put (stream + fence; each fenced), get, acc; MPI and local baselines in "
                   "the same launch (us/op up to 256 B, GB/s above; ratio = armada / baseline)");
  for (std::size_t si = 0; si < p.opt->sizes.size(); ++si) contig_size(p, si);
  get_after_idle(p);
  if (!p.win.ok()) p.table->note("MPI RMA baselines unavailable: " + p.win.error());
  if (!p.link.ok()) p.table->note("TCP socket baseline unavailable: " + p.link.error());
}

}  // namespace armada::bench::suite
