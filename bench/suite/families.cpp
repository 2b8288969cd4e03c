// The benchmark families. Each runs on the origin (rank 0) against rank 1 (the fence family:
// ranks 1..P-1), measures the Armada methods and their MPI baselines interleaved (measure()),
// verifies the data every method moved, and adds records and table rows.
#include <algorithm>
#include <cstring>
#include <iterator>

#include "common/overlap.hpp"
#include "common/pattern.hpp"
#include "suite/suite.hpp"

namespace armada::bench::suite {

namespace {

constexpr int T = 1;

/// What one contestant gave: figures in µs per operation, one per repetition.
struct Outcome {
  std::string op, method;
  std::vector<double> us;
  std::size_t iterations = 0;
  bool verified = false;
};

Record make_record(const Pass& p, const std::string& family, const Outcome& o, const std::string& metric,
                   const std::string& unit, const std::vector<double>& samples) {
  Record r;
  r.family = family;
  r.op = o.op;
  r.method = o.method;
  r.metric = metric;
  r.unit = unit;
  r.stats = summarize(samples);
  r.p25 = percentile(samples, 25);
  r.p75 = percentile(samples, 75);
  r.iterations = o.iterations;
  r.verified = o.verified;
  r.run = p.run;
  return r;
}

/// Adds the latency record (µs per operation) and, for transfers, the bandwidth record.
void add_records(Pass& p, const std::string& family, const Outcome& o, std::size_t bytes, std::size_t seg_bytes,
                 std::size_t nseg, double x, bool bandwidth) {
  auto add = [&](const std::string& metric, const std::string& unit, const std::vector<double>& samples) {
    Record r = make_record(p, family, o, metric, unit, samples);
    r.bytes = bytes;
    r.seg_bytes = seg_bytes;
    r.nseg = nseg;
    r.x = x;
    p.report->records.push_back(r);
  };
  add("latency", "us", o.us);
  if (!bandwidth || bytes == 0) return;
  std::vector<double> gbps;
  for (double us : o.us) gbps.push_back(static_cast<double>(bytes) / (us * 1e3));
  add("bandwidth", "GB/s", gbps);
}

Stats stats_in(const Outcome& o, Unit unit, std::size_t bytes) {
  if (unit == Unit::Micros) return summarize(o.us);
  std::vector<double> v;
  for (double us : o.us) v.push_back(static_cast<double>(bytes) / (us * 1e3));
  return summarize(v);
}

void section(Pass& p, const std::string& title) {
  p.progress->done();
  p.table->section(title);
}

/// One table row: `a` against baseline `b` (nullptr: none).
void row(Pass& p, const std::string& label, std::size_t bytes, Unit unit, const Outcome& a, const Outcome* b) {
  p.progress->done();
  Result r;
  r.bench = label;
  r.bytes = bytes;
  r.variant = p.transport;
  r.unit = unit;
  r.armada = stats_in(a, unit, bytes);
  if (b) {
    r.baseline = b->method;
    r.baseline_stats = stats_in(*b, unit, bytes);
  }
  p.table->add(r);
}

/// Runs the contestants (interleaved) and returns their outcomes named op/method.
std::vector<Outcome> run_all(Pass& p, std::vector<Contestant>& cs, const std::vector<std::string>& ops) {
  std::vector<std::size_t> iters;
  std::vector<std::vector<double>> samples;
  for (Contestant& c : cs) c.unit = Unit::Micros;
  measure(cs, p.opt->reps, p.opt->rep_seconds, &iters, &samples);
  std::vector<Outcome> out;
  for (std::size_t i = 0; i < cs.size(); ++i) out.push_back({ops[i], cs[i].name, samples[i], iters[i], false});
  return out;
}

std::size_t used(std::size_t calls, const Rotation& rot) { return std::min(calls, rot.count); }

std::int64_t i64(std::size_t v) { return static_cast<std::int64_t>(v); }

/// Origin-side check; returns true if it passed.
bool local_check(Pass& p, const std::string& what, const std::string& problem) {
  if (problem.empty()) return true;
  fail(p, what, problem);
  return false;
}

bool remote_ok(Pass& p, int rank, const Command& m, const std::string& what) {
  const long before = p.failures;
  remote_check(p, rank, m, what);
  return p.failures == before;
}

Outcome* find(std::vector<Outcome>& v, const std::string& method) {
  for (Outcome& o : v)
    if (o.method == method) return &o;
  return nullptr;
}

}  // namespace

// ---- contiguous put / get / acc and the MPI baselines ----------------------------------------

void family_contig(Pass& p) {
  const Layout& L = p.layout;
  const bool mpi = p.win.ok();
  section(p, "contig [" + p.transport + "]: blocking put (stream + fence), get, acc; MPI baselines in the same "
                   "launch (us/op up to 256 B, GB/s above; ratio = armada / baseline)");
  const auto& sizes = p.opt->sizes;
  for (std::size_t si = 0; si < sizes.size(); ++si) {
    const std::size_t n = sizes[si];
    p.progress->step("contig " + p.transport + " " + format_bytes(n), si + 1, sizes.size());
    const auto seed = static_cast<std::uint64_t>(1000 + si);
    const Rotation rot(n, L.region, p.opt->rotate);
    const bool acc = n % 8 == 0;
    fill_pattern(p.src, rot.extent(), seed);
    std::memset(p.dst, 0, rot.extent());
    std::memset(p.mdst, 0, rot.extent());
    call(p, T, {Cmd::Fill, Mem::Segment, i64(L.a()), i64(rot.extent()), 0});
    if (mpi) call(p, T, {Cmd::Fill, Mem::Window, i64(L.a()), i64(rot.extent()), 0});

    std::byte* const A = p.seg + L.a();
    std::byte* const B = p.seg + L.b();
    std::byte* const C = p.seg + L.c();
    const double one = 1.0;
    std::size_t n_put = 0, n_get = 0, n_acc = 0, n_mput = 0, n_mget = 0, n_macc = 0;
    std::vector<Contestant> cs;
    std::vector<std::string> ops;
    cs.emplace_back("armada", [&](std::size_t k) {
      const auto t0 = Clock::now();
      for (std::size_t i = 0; i < k; ++i, ++n_put) {
        const std::size_t o = rot.offset(n_put);
        rma::put(p.src + o, A + o, n, T);
      }
      rma::fence(T);  // the last put is remotely complete inside the time
      return seconds(t0, Clock::now());
    });
    ops.push_back("put");
    cs.emplace_back("armada", timed([&] {
                      const std::size_t o = rot.offset(n_get++);
                      rma::get(B + o, p.dst + o, n, T);
                    }));
    ops.push_back("get");
    if (acc) {
      cs.emplace_back("armada", [&](std::size_t k) {
        const auto t0 = Clock::now();
        for (std::size_t i = 0; i < k; ++i, ++n_acc) {
          const std::size_t o = rot.offset(n_acc);
          rma::acc(rma::AccType::Double, &one, reinterpret_cast<std::byte*>(p.acc_src) + o, C + o, n, T);
        }
        rma::fence(T);
        return seconds(t0, Clock::now());
      });
      ops.push_back("acc");
    }
    if (mpi) {
      cs.emplace_back("mpi_put_flush", timed([&] {
                        const std::size_t o = rot.offset(n_mput++);
                        p.win.put_flush(p.src + o, n, T, L.a() + o);
                      }));
      ops.push_back("put");
      cs.emplace_back("mpi_get_flush", timed([&] {
                        const std::size_t o = rot.offset(n_mget++);
                        p.win.get_flush(p.mdst + o, n, T, L.b() + o);
                      }));
      ops.push_back("get");
      if (acc) {
        cs.emplace_back("mpi_acc_flush", timed([&] {
                          const std::size_t o = rot.offset(n_macc++);
                          p.win.acc_flush(p.acc_src + o / 8, n / 8, T, L.c() + o);
                        }));
        ops.push_back("acc");
      }
    }
    // Two-sided baselines: the target takes part (a command starts its side of each run).
    // They rotate over the same buffers as the one-sided operations: a baseline served from a
    // hot cache while the operations it is compared with stream through memory would flatter
    // it by 2x at 1 MiB (--no-rotate makes both hot). The stream needs a buffer per message of
    // a round.
    const Rotation stream_rot = rot.count >= static_cast<std::size_t>(kStreamWindow) ? rot : stream_buffers(n, rot.step, kStreamWindow);
    std::size_t n_ping = 0, n_stream = 0;
    cs.emplace_back("mpi_pingpong_half", [&](std::size_t k) {
      call(p, T, {Cmd::Echo, Mem::Segment, i64(n), i64(k), i64(rot.step), i64(rot.count), i64(n_ping)});
      const double t = pingpong(p.comm, T, kTagPing, p.src, p.recv, n, k, rot, n_ping);
      n_ping += k;
      return t;
    });
    cs.back().per_iter = 2;  // a round trip is two messages: the figure is half of it
    ops.push_back("sendrecv");
    cs.emplace_back("mpi_stream", [&](std::size_t k) {
      call(p, T, {Cmd::StreamReceive, Mem::Segment, i64(n), i64(k), i64(stream_rot.step), i64(stream_rot.count), i64(n_stream)});
      const double t = stream_send(p.comm, T, kTagData, kTagAck, p.src, n, kStreamWindow, k, stream_rot, n_stream);
      n_stream += k * static_cast<std::size_t>(kStreamWindow);
      return t;
    });
    cs.back().per_iter = kStreamWindow;
    ops.push_back("sendrecv");
    std::vector<Outcome> out = run_all(p, cs, ops);

    // Verification: every slot each method used.
    for (Outcome& o : out) {
      const std::string what = o.op + " " + o.method + " " + format_bytes(n);
      if (o.op == "put" && o.method == "armada")
        o.verified = remote_ok(p, T, {Cmd::Check, Mem::Segment, i64(L.a()), i64(n), i64(seed), i64(rot.step), i64(used(n_put, rot))}, what);
      else if (o.op == "put")
        o.verified = remote_ok(p, T, {Cmd::Check, Mem::Window, i64(L.a()), i64(n), i64(seed), i64(rot.step), i64(used(n_mput, rot))}, what);
      else if (o.op == "get") {
        std::byte* d = o.method == "armada" ? p.dst : p.mdst;
        const std::size_t calls = o.method == "armada" ? n_get : n_mget;
        bool ok = true;
        for (std::size_t j = 0; j < used(calls, rot) && ok; ++j)
          ok = local_check(p, what + ", slot " + std::to_string(j),
                           check_pattern(d + j * rot.step, n, kGetSeed, j * rot.step / 8));
        o.verified = ok;
      } else if (o.op == "acc") {
        // The timed accumulates add up in C; a separate exact check: zero, two accumulates, compare.
        const Mem mem = o.method == "armada" ? Mem::Segment : Mem::Window;
        call(p, T, {Cmd::Fill, mem, i64(L.c()), i64(n), 0});
        double mult = 0;
        if (o.method == "armada") {
          const double two = 2.0;
          for (int k = 0; k < 2; ++k) rma::acc(rma::AccType::Double, &two, p.acc_src, C, n, T);
          rma::fence(T);
          mult = 4.0;
        } else {
          for (int k = 0; k < 2; ++k) p.win.acc_flush(p.acc_src, n / 8, T, L.c());
          mult = 2.0;
        }
        std::int64_t bits;
        std::memcpy(&bits, &mult, 8);
        o.verified = remote_ok(p, T, {Cmd::CheckDoubles, mem, i64(L.c()), i64(n / 8), bits}, what);
      } else if (o.method == "mpi_pingpong_half") {
        o.verified = true;
        for (std::size_t i = 0; i < used(n_ping, rot) && o.verified; ++i)
          o.verified = local_check(p, what + " echo " + std::to_string(i),
                                   check_pattern(p.recv + rot.offset(i), n, seed, rot.offset(i) / 8));
      } else if (o.method == "mpi_stream") {
        o.verified = remote_ok(p, T, {Cmd::CheckStream, Mem::Segment, i64(n), i64(seed), i64(stream_rot.step),
                                      i64(used(n_stream, stream_rot))}, what);
      }
      add_records(p, "contig", o, n, 0, 0, static_cast<double>(n), true);
    }
    const Unit unit = n <= 256 ? Unit::Micros : Unit::GBps;
    for (const char* op : {"put", "get", "acc"}) {
      Outcome* a = nullptr;
      Outcome* b = nullptr;
      for (Outcome& o : out)
        if (o.op == op) (o.method == "armada" ? a : b) = &o;
      if (a) row(p, std::string(op), n, unit, *a, b);
    }
    row(p, "MPI send/recv ping-pong, half", n, unit, *find(out, "mpi_pingpong_half"), nullptr);
    row(p, "MPI send/recv stream (window 8)", n, unit, *find(out, "mpi_stream"), nullptr);
  }
  if (!p.win.ok()) p.table->note("MPI RMA baselines unavailable: " + p.win.error());
}

// ---- strided 2-D and vector against one contiguous transfer per segment (Figure 18) -----------

void family_strided(Pass& p) {
  const Layout& L = p.layout;
  const std::size_t sub = L.region / 4;
  section(p, "strided 2-D and vector [" + p.transport + "] vs one contiguous call per segment "
                   "(GB/s; remote stride 2 x segment; ratio = method / per_segment)");
  const std::size_t segs[] = {16, 1 * KiB};
  const auto& counts = p.opt->nsegs;
  std::size_t stepno = 0;
  for (std::size_t seg : segs)
    for (std::size_t nseg : counts) {
      p.progress->step("strided " + p.transport + " " + format_bytes(seg) + " x " + std::to_string(nseg), ++stepno,
                       2 * counts.size());
      const std::size_t total = seg * nseg, rext = 2 * seg * nseg;
      const std::size_t rstep = (rext + 255) / 256 * 256, lstep = (total + 255) / 256 * 256;
      const std::size_t count = p.opt->rotate ? std::max<std::size_t>(1, std::min({sub / rstep, sub / lstep, std::size_t{64}})) : 1;
      if (rstep > sub) continue;  // larger than the region (only with --segments above 4096)
      const auto seed = static_cast<std::uint64_t>(5000 + stepno);
      fill_pattern(p.src, count * lstep, seed);
      std::memset(p.dst, 0, 3 * sub);
      call(p, T, {Cmd::Fill, Mem::Segment, i64(L.a()), i64(3 * sub), 0});

      std::byte* const A = p.seg + L.a();
      std::byte* const B = p.seg + L.b();
      const std::size_t count2[2] = {seg, nseg};
      const std::size_t lstride[1] = {seg}, rstride[1] = {2 * seg};
      // I/O vectors, one per rotation slot.
      std::vector<std::vector<void*>> vps(count), vpd(count), vgs(count), vgd(count);
      for (std::size_t j = 0; j < count; ++j)
        for (std::size_t k = 0; k < nseg; ++k) {
          vps[j].push_back(p.src + j * lstep + k * seg);
          vpd[j].push_back(A + 2 * sub + j * rstep + k * 2 * seg);
          vgs[j].push_back(B + j * rstep + k * 2 * seg);
          vgd[j].push_back(p.dst + 2 * sub + j * lstep + k * seg);
        }
      std::size_t calls[6] = {};
      auto put_loop = [&](int m, auto&& body) {
        return [&, m, body](std::size_t k) {
          const auto t0 = Clock::now();
          for (std::size_t i = 0; i < k; ++i) body(calls[m]++ % count);
          rma::fence(T);
          return seconds(t0, Clock::now());
        };
      };
      auto get_loop = [&](int m, auto&& body) {
        return [&, m, body](std::size_t k) {
          const auto t0 = Clock::now();
          for (std::size_t i = 0; i < k; ++i) body(calls[m]++ % count);
          return seconds(t0, Clock::now());
        };
      };
      std::vector<Contestant> cs;
      cs.emplace_back("strided", put_loop(0, [&](std::size_t j) {
                        rma::put_strided(p.src + j * lstep, lstride, A + j * rstep, rstride, count2, T);
                      }));
      cs.emplace_back("per_segment", put_loop(1, [&](std::size_t j) {
                        for (std::size_t k = 0; k < nseg; ++k)
                          rma::put(p.src + j * lstep + k * seg, A + sub + j * rstep + k * 2 * seg, seg, T);
                      }));
      cs.emplace_back("vector", put_loop(2, [&](std::size_t j) {
                        const rma::IoSet set{vps[j], vpd[j], seg};
                        rma::put_vector(std::span<const rma::IoSet>(&set, 1), T);
                      }));
      cs.emplace_back("strided", get_loop(3, [&](std::size_t j) {
                        rma::get_strided(B + j * rstep, rstride, p.dst + j * lstep, lstride, count2, T);
                      }));
      cs.emplace_back("per_segment", get_loop(4, [&](std::size_t j) {
                        for (std::size_t k = 0; k < nseg; ++k)
                          rma::get(B + j * rstep + k * 2 * seg, p.dst + sub + j * lstep + k * seg, seg, T);
                      }));
      cs.emplace_back("vector", get_loop(5, [&](std::size_t j) {
                        const rma::IoSet set{vgs[j], vgd[j], seg};
                        rma::get_vector(std::span<const rma::IoSet>(&set, 1), T);
                      }));
      std::vector<Outcome> out = run_all(p, cs, {"put", "put", "put", "get", "get", "get"});
      for (int m = 0; m < 6; ++m) {
        Outcome& o = out[static_cast<std::size_t>(m)];
        const std::size_t u = std::min(calls[m], count);
        const std::size_t region = static_cast<std::size_t>(m % 3) * sub;
        const std::string what = o.op + " " + o.method + " " + format_bytes(seg) + " x " + std::to_string(nseg);
        if (m < 3) {
          o.verified = remote_ok(p, T, {Cmd::CheckStrided, Mem::Segment, i64(L.a() + region), i64(seg), i64(nseg),
                                        i64(2 * seg), i64(seed), i64(rstep), i64(u << 32 | lstep / 8)}, what);
        } else {
          bool ok = true;
          for (std::size_t j = 0; j < u && ok; ++j)
            for (std::size_t k = 0; k < nseg && ok; ++k)
              ok = local_check(p, what + ", slot " + std::to_string(j) + ", segment " + std::to_string(k),
                               check_pattern(p.dst + region + j * lstep + k * seg, seg, kGetSeed, (j * rstep + k * 2 * seg) / 8));
          o.verified = ok;
        }
        add_records(p, "strided", o, total, seg, nseg, static_cast<double>(nseg), true);
      }
      const std::string shape = format_bytes(seg) + " x " + std::to_string(nseg);
      row(p, "put_strided " + shape, total, Unit::GBps, out[0], &out[1]);
      row(p, "put_vector " + shape, total, Unit::GBps, out[2], &out[1]);
      row(p, "get_strided " + shape, total, Unit::GBps, out[3], &out[4]);
      row(p, "get_vector " + shape, total, Unit::GBps, out[5], &out[4]);
    }
}

// ---- nonblocking overlap --------------------------------------------------------------------

void family_overlap(Pass& p) {
  const Layout& L = p.layout;
  const std::size_t n = std::min<std::size_t>(1 * MiB, L.region / 2);
  section(p, "overlap [" + p.transport + "]: get_nb of " + format_bytes(n) +
                   ", computation, wait (% of the blocking get hidden; target idle)");
  std::vector<double> fractions{0, 0.25, 0.5, 1.0, 1.5, 2.0};
  if (p.opt->quick) fractions = {0, 1.0};
  std::byte* const B = p.seg + L.b();
  std::uint64_t sink = 0;
  struct Series {
    std::string method;
    std::function<void()> blocking;
    std::function<void(std::uint64_t)> overlapped;
    std::byte* check_a;
    std::byte* check_b;
  };
  std::vector<Series> series;
  std::memset(p.dst, 0, 2 * n);
  std::memset(p.mdst, 0, 2 * n);
  series.push_back({"armada", [&] { rma::get(B, p.dst, n, T); },
                    [&](std::uint64_t iters) {
                      rma::Handle h = rma::get_nb(B, p.dst + n, n, T);
                      sink += busy(iters);
                      h.wait();
                    },
                    p.dst, p.dst + n});
  if (p.win.ok())
    series.push_back({"mpi_rget", [&] { p.win.get_flush(p.mdst, n, T, L.b()); },
                      [&](std::uint64_t iters) {
                        MPI_Request r = p.win.rget(p.mdst + n, n, T, L.b());
                        sink += busy(iters);
                        MPI_Wait(&r, MPI_STATUS_IGNORE);
                      },
                      p.mdst, p.mdst + n});
  std::size_t step = 0;
  for (const Series& s : series) {
    p.progress->step("overlap " + p.transport + " " + s.method, ++step, series.size());
    const auto points = measure_overlap(fractions, p.opt->reps, p.opt->rep_seconds, p.busy_ns, s.blocking, s.overlapped);
    const bool ok = local_check(p, "overlap " + s.method + " blocking get", check_pattern(s.check_a, n, kGetSeed)) &&
                    local_check(p, "overlap " + s.method + " nonblocking get", check_pattern(s.check_b, n, kGetSeed));
    for (const OverlapPoint& pt : points) {
      Record r;
      r.family = "overlap";
      r.op = "get_nb";
      r.method = s.method;
      r.metric = "overlap";
      r.unit = "%";
      r.bytes = n;
      r.x = pt.fraction * 100;
      r.stats = pt.overlap;
      r.p25 = percentile(pt.hidden, 25);
      r.p75 = percentile(pt.hidden, 75);
      r.verified = ok;
      r.run = p.run;
      p.report->records.push_back(r);
      Result row;
      row.bench = s.method + " compute " + std::to_string(static_cast<int>(pt.fraction * 100 + 0.5)) + "%";
      row.bytes = n;
      row.variant = p.transport;
      row.unit = Unit::Percent;
      row.armada = pt.overlap;
      p.progress->done();
      p.table->add(row);
      char text[160];
      std::snprintf(text, sizeof text, "   t_get %.1f us, t_compute %.1f us, t_total %.1f us (medians)", pt.t_op_us,
                    pt.t_compute_us, pt.t_total_us);
      p.table->note(text);
    }
  }
  clobber(&sink);
}

// ---- aggregation: 1000 scattered doubles --------------------------------------------------------

void family_aggregate(Pass& p) {
  const Layout& L = p.layout;
  constexpr std::size_t K = 1000;
  const std::size_t region = std::min<std::size_t>(1 * MiB, L.region / 4);
  const std::uint64_t seed = 7000;
  section(p, "aggregation [" + p.transport + "]: " + std::to_string(K) +
                   " doubles to scattered slots of " + format_bytes(region) + " (us per batch, each + fence; ratio = method / vector)");
  p.progress->step("aggregate " + p.transport, 1, 1);
  const auto slots = scatter_offsets(K, region);
  fill_pattern(p.src, 8 * K, seed);
  std::byte* const C = p.seg + L.c();
  for (std::size_t m = 0; m < 3; ++m) call(p, T, {Cmd::Fill, Mem::Segment, i64(L.c() + m * region), i64(region), 0});
  if (p.win.ok()) call(p, T, {Cmd::Fill, Mem::Window, i64(L.c() + 3 * region), i64(region), 0});
  std::vector<void*> vsrc, vdst;
  for (std::size_t k = 0; k < K; ++k) {
    vsrc.push_back(p.src + 8 * k);
    vdst.push_back(C + 2 * region + slots[k]);
  }
  std::vector<Contestant> cs;
  cs.emplace_back("individual", timed([&] {
                    for (std::size_t k = 0; k < K; ++k) rma::put(p.src + 8 * k, C + slots[k], 8, T);
                    rma::fence(T);
                  }));
  cs.emplace_back("aggregate", timed([&] {
                    rma::Aggregate agg(T);
                    for (std::size_t k = 0; k < K; ++k) agg.put(p.src + 8 * k, C + region + slots[k], 8);
                    agg.wait();
                    rma::fence(T);
                  }));
  cs.emplace_back("vector", timed([&] {
                    const rma::IoSet set{vsrc, vdst, 8};
                    rma::put_vector(std::span<const rma::IoSet>(&set, 1), T);
                    rma::fence(T);
                  }));
  if (p.win.ok())
    cs.emplace_back("mpi_put_flush_once", timed([&] {
                      for (std::size_t k = 0; k < K; ++k) p.win.put(p.src + 8 * k, 8, T, L.c() + 3 * region + slots[k]);
                      p.win.flush(T);
                    }));
  std::vector<Outcome> out = run_all(p, cs, std::vector<std::string>(cs.size(), "put"));
  for (std::size_t m = 0; m < out.size(); ++m) {
    const Mem mem = m < 3 ? Mem::Segment : Mem::Window;
    out[m].verified = remote_ok(p, T, {Cmd::CheckScatter, mem, i64(L.c() + m * region), i64(K), i64(region), i64(seed)},
                                "scattered put " + out[m].method);
    Outcome o = out[m];
    o.op = "put_scattered";
    add_records(p, "aggregate", o, 8 * K, 8, K, 0, false);
  }
  row(p, "1000 x put, fence", 8 * K, Unit::Micros, out[0], &out[2]);
  row(p, "Aggregate (1000 puts), wait, fence", 8 * K, Unit::Micros, out[1], &out[2]);
  row(p, "put_vector (1000 segs), fence", 8 * K, Unit::Micros, out[2], nullptr);
  if (out.size() > 3) row(p, "MPI: 1000 x MPI_Put, flush", 8 * K, Unit::Micros, out[3], &out[2]);
}

// ---- fetch-add and lock latency -------------------------------------------------------------------

void family_atomic(Pass& p) {
  const Layout& L = p.layout;
  section(p, "read-modify-write and lock [" + p.transport + "] (us; ratio = armada / MPI)");
  p.progress->step("atomic " + p.transport, 1, 1);
  call(p, T, {Cmd::SetLong, Mem::Segment, i64(L.slots() + Layout::kCounter), 0});
  call(p, T, {Cmd::SetLong, Mem::Segment, i64(L.slots() + Layout::kLocked), 0});
  if (p.win.ok()) call(p, T, {Cmd::SetLong, Mem::Window, i64(L.slots() + Layout::kMpiCounter), 0});
  const rma::GlobalPtr<long> counter(T, reinterpret_cast<long*>(p.seg + L.slots() + Layout::kCounter));
  const rma::GlobalPtr<long> locked(T, reinterpret_cast<long*>(p.seg + L.slots() + Layout::kLocked));
  long adds = 0, madds = 0, bad = 0, mbad = 0;
  std::vector<Contestant> cs;
  std::vector<std::string> ops;
  cs.emplace_back("armada", timed([&] {
                    if (rma::fetch_add(counter, 1L) != adds) ++bad;
                    ++adds;
                  }));
  ops.push_back("fetch_add");
  cs.emplace_back("armada", timed([&] {
                    p.mutexes.lock(0, T);
                    p.mutexes.unlock(0, T);
                  }));
  ops.push_back("lock_unlock");
  if (p.win.ok()) {
    cs.emplace_back("mpi_fetch_and_op", timed([&] {
                      if (p.win.fetch_add(1, T, L.slots() + Layout::kMpiCounter) != madds) ++mbad;
                      ++madds;
                    }));
    ops.push_back("fetch_add");
  }
  if (p.lock_win.ok()) {
    cs.emplace_back("mpi_win_lock_excl", timed([&] {
                      p.lock_win.lock_exclusive(T);
                      p.lock_win.unlock(T);
                    }));
    ops.push_back("lock_unlock");
  }
  std::vector<Outcome> out = run_all(p, cs, ops);
  // Checks: previous values were consecutive and the counters hold the number of adds; the mutex
  // protects an unprotected get + put increment.
  const long increments = p.opt->quick ? 100 : 1000;
  for (long i = 0; i < increments; ++i) {
    p.mutexes.lock(0, T);
    rma::put_value(rma::get_value(locked) + 1, locked);
    p.mutexes.unlock(0, T);
  }
  for (Outcome& o : out) {
    if (o.op == "fetch_add" && o.method == "armada") {
      const std::int64_t v = call(p, T, {Cmd::GetLong, Mem::Segment, i64(L.slots() + Layout::kCounter)});
      o.verified = local_check(p, "fetch_add", bad ? std::to_string(bad) + " previous values out of sequence" : "") &&
                   local_check(p, "fetch_add counter", v == adds ? "" : "is " + std::to_string(v) + ", expected " + std::to_string(adds));
    } else if (o.op == "fetch_add") {
      const std::int64_t v = call(p, T, {Cmd::GetLong, Mem::Window, i64(L.slots() + Layout::kMpiCounter)});
      o.verified = local_check(p, "MPI_Fetch_and_op", mbad ? std::to_string(mbad) + " previous values out of sequence" : "") &&
                   local_check(p, "MPI_Fetch_and_op counter", v == madds ? "" : "is " + std::to_string(v) + ", expected " + std::to_string(madds));
    } else if (o.method == "armada") {
      const std::int64_t v = call(p, T, {Cmd::GetLong, Mem::Segment, i64(L.slots() + Layout::kLocked)});
      o.verified = local_check(p, "locked increments", v == increments ? "" : "counter is " + std::to_string(v) + ", expected " + std::to_string(increments));
    } else {
      o.verified = true;  // MPI_Win_lock moves no data; its result is the lock's own correctness
    }
    add_records(p, "atomic", o, 8, 0, 0, 0, false);
  }
  for (const char* op : {"fetch_add", "lock_unlock"}) {
    Outcome* a = nullptr;
    Outcome* b = nullptr;
    for (Outcome& o : out)
      if (o.op == op) (o.method == "armada" ? a : b) = &o;
    row(p, op, 8, Unit::Micros, *a, b);
  }
}

// ---- fence cost against many targets ------------------------------------------------------------

void family_fence(Pass& p) {
  const Layout& L = p.layout;
  const int targets = p.nranks - 1;
  section(p, "fence [" + p.transport + "]: an 8-byte put to each of k targets, then completion "
                   "(us per round; ratio = method / fence_all)");
  std::vector<int> ks;
  for (int k = 1; k < targets; k *= 2) ks.push_back(k);
  ks.push_back(targets);
  const std::uint64_t seed = 9000;
  std::uint64_t word = pattern_word(0, seed);
  std::size_t step = 0;
  for (int k : ks) {
    p.progress->step("fence " + p.transport + " " + std::to_string(k) + " targets", ++step, ks.size());
    auto slot = [&](int t) { return static_cast<std::byte*>(p.bases[static_cast<std::size_t>(t)]) + L.slots_of(t) + Layout::kFence; };
    for (int t = 1; t <= k; ++t) {
      call(p, t, {Cmd::Fill, Mem::Segment, i64(L.slots_of(t) + Layout::kFence), 8, 0});
      if (p.win.ok()) call(p, t, {Cmd::Fill, Mem::Window, i64(L.slots_of(t) + Layout::kFence), 8, 0});
    }
    std::vector<Contestant> cs;
    cs.emplace_back("fence_all", timed([&] {
                      for (int t = 1; t <= k; ++t) rma::put(&word, slot(t), 8, t);
                      rma::fence_all();
                    }));
    cs.emplace_back("fence_each", timed([&] {
                      for (int t = 1; t <= k; ++t) rma::put(&word, slot(t), 8, t);
                      for (int t = 1; t <= k; ++t) rma::fence(t);
                    }));
    cs.emplace_back("fence_all_idle", timed([&] { rma::fence_all(); }));
    if (p.win.ok())
      cs.emplace_back("mpi_flush_all", timed([&] {
                        for (int t = 1; t <= k; ++t) p.win.put(&word, 8, t, L.slots_of(t) + Layout::kFence);
                        p.win.flush_all();
                      }));
    std::vector<Outcome> out = run_all(p, cs, std::vector<std::string>(cs.size(), "put_fence"));
    for (Outcome& o : out) {
      if (o.method == "fence_all_idle") {
        o.verified = true;  // moves no data
      } else {
        bool ok = true;
        for (int t = 1; t <= k; ++t)
          ok = remote_ok(p, t, {Cmd::Check, o.method == "mpi_flush_all" ? Mem::Window : Mem::Segment,
                                i64(L.slots_of(t) + Layout::kFence), 8, i64(seed), 0, 1},
                         o.method + " to rank " + std::to_string(t)) && ok;
        o.verified = ok;
      }
      add_records(p, "fence", o, 8, 0, 0, k, false);
    }
    const std::string label = "put to " + std::to_string(k) + " target" + (k > 1 ? "s" : "") + " + ";
    row(p, label + "fence_all", 8, Unit::Micros, out[0], nullptr);
    row(p, label + "fence each", 8, Unit::Micros, out[1], &out[0]);
    row(p, "fence_all, nothing outstanding", 8, Unit::Micros, out[2], &out[0]);
    if (out.size() > 3) row(p, label + "MPI_Win_flush_all", 8, Unit::Micros, out[3], &out[0]);
  }
}

}  // namespace armada::bench::suite
