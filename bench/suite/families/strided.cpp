// Family "strided": 2-D strided and vector put/get against one contiguous call per segment
// (Figure 18 of the ARMCI paper), against one contiguous transfer of the same bytes, and with a
// local stride of twice the segment (gaps on both sides). Segments of 16 B and 1 KiB, a sweep of
// segment counts; the remote stride is always twice the segment.
#include <algorithm>
#include <cstring>

#include "common/pattern.hpp"
#include "suite/families/common.hpp"

namespace armada::bench::suite {

namespace {

/// The methods, in contestant order; puts are methods 0..4, gets 5..9 (same names).
const char* const kMethods[] = {"strided", "per_segment", "vector", "contiguous", "strided_ls2"};
constexpr int kPerOp = 5;

/// One shape (segment size x count): slots and call counters of its contestants.
///  remote: A + m*sub (m = 0..3) for the puts of methods 0..3, D for strided_ls2; gets read B.
///  local:  src (pattern) for puts 0..3, recv (pattern, stride 2 seg) for strided_ls2;
///          dst + m*sub for gets 0..3, mdst for strided_ls2.
struct Shape {
  Pass& p;
  std::size_t seg, nseg, sub;
  std::size_t total, rstep, lstep, count;
  std::uint64_t seed;
  std::byte *A, *B, *D;
  std::size_t count2[2];
  std::size_t seg_stride[1], gap_stride[1];  // seg (dense) and 2 seg
  std::vector<std::vector<void*>> vps, vpd, vgs, vgd;  // I/O vectors per slot
  std::size_t calls[2 * kPerOp] = {};
};

void prepare(Shape& s) {
  Pass& p = s.p;
  const Layout& L = p.layout;
  fill_pattern(p.src, s.count * s.lstep, s.seed);
  std::memset(p.recv, 0, s.count * s.rstep);
  for (std::size_t j = 0; j < s.count; ++j)
    for (std::size_t k = 0; k < s.nseg; ++k)  // the same words as src, each segment 2 seg apart
      fill_pattern(p.recv + j * s.rstep + k * 2 * s.seg, s.seg, s.seed, (j * s.lstep + k * s.seg) / 8);
  std::memset(p.dst, 0, 4 * s.sub);
  std::memset(p.mdst, 0, s.count * s.rstep);
  call(p, T, {Cmd::Fill, Mem::Segment, i64(L.a()), i64(4 * s.sub), 0});
  call(p, T, {Cmd::Fill, Mem::Segment, i64(L.d()), i64(s.sub), 0});
  s.vps.assign(s.count, {});
  s.vpd.assign(s.count, {});
  s.vgs.assign(s.count, {});
  s.vgd.assign(s.count, {});
  for (std::size_t j = 0; j < s.count; ++j)
    for (std::size_t k = 0; k < s.nseg; ++k) {
      s.vps[j].push_back(p.src + j * s.lstep + k * s.seg);
      s.vpd[j].push_back(s.A + 2 * s.sub + j * s.rstep + k * 2 * s.seg);
      s.vgs[j].push_back(s.B + j * s.rstep + k * 2 * s.seg);
      s.vgd[j].push_back(p.dst + 2 * s.sub + j * s.lstep + k * s.seg);
    }
}

/// A run(k) of method m: body(slot) k times, rotating over the slots (puts: then a fence).
template <class Body>
std::function<double(std::size_t)> loop(Shape& s, int m, bool fence, Body body) {
  return [&s, m, fence, body](std::size_t k) {
    const auto t0 = Clock::now();
    for (std::size_t i = 0; i < k; ++i) body(s.calls[m]++ % s.count);
    if (fence) rma::fence(T);
    return seconds(t0, Clock::now());
  };
}

void add_puts(Shape& s, std::vector<Contestant>& cs) {
  Pass& p = s.p;
  cs.emplace_back(kMethods[0], loop(s, 0, true, [&s, &p](std::size_t j) {
                    rma::put_strided(p.src + j * s.lstep, s.seg_stride, s.A + j * s.rstep, s.gap_stride, s.count2, T);
                  }));
  cs.emplace_back(kMethods[1], loop(s, 1, true, [&s, &p](std::size_t j) {
                    for (std::size_t k = 0; k < s.nseg; ++k)
                      rma::put(p.src + j * s.lstep + k * s.seg, s.A + s.sub + j * s.rstep + k * 2 * s.seg, s.seg, T);
                  }));
  cs.emplace_back(kMethods[2], loop(s, 2, true, [&s](std::size_t j) {
                    const rma::IoSet set{s.vps[j], s.vpd[j], s.seg};
                    rma::put_vector(std::span<const rma::IoSet>(&set, 1), T);
                  }));
  cs.emplace_back(kMethods[3], loop(s, 3, true, [&s, &p](std::size_t j) {
                    rma::put(p.src + j * s.lstep, s.A + 3 * s.sub + j * s.lstep, s.total, T);
                  }));
  cs.emplace_back(kMethods[4], loop(s, 4, true, [&s, &p](std::size_t j) {
                    rma::put_strided(p.recv + j * s.rstep, s.gap_stride, s.D + j * s.rstep, s.gap_stride, s.count2, T);
                  }));
}

void add_gets(Shape& s, std::vector<Contestant>& cs) {
  Pass& p = s.p;
  cs.emplace_back(kMethods[0], loop(s, 5, false, [&s, &p](std::size_t j) {
                    rma::get_strided(s.B + j * s.rstep, s.gap_stride, p.dst + j * s.lstep, s.seg_stride, s.count2, T);
                  }));
  cs.emplace_back(kMethods[1], loop(s, 6, false, [&s, &p](std::size_t j) {
                    for (std::size_t k = 0; k < s.nseg; ++k)
                      rma::get(s.B + j * s.rstep + k * 2 * s.seg, p.dst + s.sub + j * s.lstep + k * s.seg, s.seg, T);
                  }));
  cs.emplace_back(kMethods[2], loop(s, 7, false, [&s](std::size_t j) {
                    const rma::IoSet set{s.vgs[j], s.vgd[j], s.seg};
                    rma::get_vector(std::span<const rma::IoSet>(&set, 1), T);
                  }));
  cs.emplace_back(kMethods[3], loop(s, 8, false, [&s, &p](std::size_t j) {
                    rma::get(s.B + j * s.lstep, p.dst + 3 * s.sub + j * s.lstep, s.total, T);
                  }));
  cs.emplace_back(kMethods[4], loop(s, 9, false, [&s, &p](std::size_t j) {
                    rma::get_strided(s.B + j * s.rstep, s.gap_stride, p.mdst + j * s.rstep, s.gap_stride, s.count2, T);
                  }));
}

bool verify_put(Shape& s, int m, const std::string& what) {
  const Layout& L = s.p.layout;
  const std::size_t u = std::min(s.calls[m], s.count);
  if (m == 3)  // contiguous: slot j at j*lstep holds the source words of j*lstep
    return remote_ok(s.p, T, {Cmd::Check, Mem::Segment, i64(L.a() + 3 * s.sub), i64(s.total), i64(s.seed), i64(s.lstep), i64(u)}, what);
  const std::size_t at = m == 4 ? L.d() : L.a() + static_cast<std::size_t>(m) * s.sub;
  return remote_ok(s.p, T, {Cmd::CheckStrided, Mem::Segment, i64(at), i64(s.seg), i64(s.nseg), i64(2 * s.seg), i64(s.seed),
                            i64(s.rstep), i64(u << 32 | s.lstep / 8)}, what);
}

bool verify_get(Shape& s, int m, const std::string& what) {
  Pass& p = s.p;
  const std::size_t u = std::min(s.calls[kPerOp + m], s.count);
  bool ok = true;
  for (std::size_t j = 0; j < u && ok; ++j) {
    if (m == 3) {
      ok = local_check(p, what + ", slot " + std::to_string(j),
                       check_pattern(p.dst + 3 * s.sub + j * s.lstep, s.total, kGetSeed, j * s.lstep / 8));
      continue;
    }
    for (std::size_t k = 0; k < s.nseg && ok; ++k) {
      const std::string where = what + ", slot " + std::to_string(j) + ", segment " + std::to_string(k);
      const std::size_t remote_word = (j * s.rstep + k * 2 * s.seg) / 8;
      if (m == 4) {
        const std::byte* d = p.mdst + j * s.rstep + k * 2 * s.seg;
        ok = local_check(p, where, check_pattern(d, s.seg, kGetSeed, remote_word)) &&
             local_check(p, where + " (the gap after it)", check_zero(d + s.seg, s.seg));
      } else {
        const std::size_t region = static_cast<std::size_t>(m) * s.sub;
        ok = local_check(p, where, check_pattern(p.dst + region + j * s.lstep + k * s.seg, s.seg, kGetSeed, remote_word));
      }
    }
  }
  return ok;
}

void rows(Pass& p, const std::string& shape, std::size_t total, std::vector<Outcome>& out) {
  for (int g = 0; g < 2; ++g) {
    const std::string op = g == 0 ? "put" : "get";
    Outcome* o = &out[static_cast<std::size_t>(g * kPerOp)];
    row(p, op + "_strided " + shape, total, Unit::GBps, o[0], &o[1]);
    row(p, op + "_vector " + shape, total, Unit::GBps, o[2], &o[1]);
    row(p, op + "_strided " + shape, total, Unit::GBps, o[0], &o[3]);  // against one contiguous transfer
    row(p, op + "_strided_ls2 " + shape, total, Unit::GBps, o[4], &o[0]);
  }
}

void strided_shape(Pass& p, std::size_t seg, std::size_t nseg, std::uint64_t seed) {
  const Layout& L = p.layout;
  const std::size_t sub = L.region / 4;
  const std::size_t total = seg * nseg, rext = 2 * seg * nseg;
  const std::size_t rstep = (rext + 255) / 256 * 256, lstep = (total + 255) / 256 * 256;
  if (rstep > sub) return;  // larger than the region (only with --segments above 4096)
  const std::size_t count = p.opt->rotate ? std::max<std::size_t>(1, std::min({sub / rstep, std::size_t{64}})) : 1;
  Shape s{p, seg, nseg, sub, total, rstep, lstep, count, seed, p.seg + L.a(), p.seg + L.b(), p.seg + L.d(),
          {seg, nseg}, {seg}, {2 * seg}, {}, {}, {}, {}};
  prepare(s);
  std::vector<Contestant> cs;
  add_puts(s, cs);
  add_gets(s, cs);
  std::vector<std::string> ops(kPerOp, "put");
  ops.insert(ops.end(), kPerOp, "get");
  std::vector<Outcome> out = run_all(p, cs, ops);
  const std::string shape = format_bytes(seg) + " x " + std::to_string(nseg);
  for (int m = 0; m < 2 * kPerOp; ++m) {
    Outcome& o = out[static_cast<std::size_t>(m)];
    const std::string what = o.op + " " + o.method + " " + shape;
    o.verified = m < kPerOp ? verify_put(s, m, what) : verify_get(s, m - kPerOp, what);
    add_records(p, "strided", o, total, seg, nseg, static_cast<double>(nseg), true);
  }
  rows(p, shape, total, out);
}

}  // namespace

void family_strided(Pass& p) {
  section(p, "strided 2-D and vector [" + p.transport + "] vs one contiguous call per segment, vs one contiguous "
                   "transfer, and with local stride 2 x segment (GB/s; remote stride 2 x segment; ratio = method / baseline)");
  std::size_t stepno = 0;
  for (std::size_t seg : {std::size_t{16}, 1 * KiB})
    for (std::size_t nseg : p.opt->nsegs) {
      p.progress->next("strided " + p.transport + " " + format_bytes(seg) + " x " + std::to_string(nseg));
      strided_shape(p, seg, nseg, static_cast<std::uint64_t>(5000 + ++stepno));
    }
}

}  // namespace armada::bench::suite
