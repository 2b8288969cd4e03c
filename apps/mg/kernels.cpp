#include "kernels.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

// The row loops run most of MG's time and are compute bound on rows that stay in cache: each is
// built three times (row_loops.inc), for the x86-64 baseline (SSE2: 2 doubles per instruction),
// AVX2 (4) and AVX-512 (8), and the program picks one at run time (use_row_isa; armada-mg times
// them at start, choose_row_isa): AVX-512 made MG class B 9 % faster on an Intel Xeon VM and
// about 30 % slower on an AMD EPYC (Zen 5) VM, so the CPU's flags alone do not say which is best
// (docs/apps.md). No FMA (kernels.cpp is compiled with -ffp-contract=off, as AVX-512F has FMA):
// the builds do the same operations in the same order per element, so their results are
// identical to the bit.

namespace armada::mg {

#if defined(__x86_64__)
#define ARMADA_MG_ROW_ISAS 1
namespace isa_avx512 {
#pragma GCC push_options
#pragma GCC target("avx512f")
#include "row_loops.inc"
#pragma GCC pop_options
}  // namespace isa_avx512
namespace isa_avx2 {
#pragma GCC push_options
#pragma GCC target("avx2")
#include "row_loops.inc"
#pragma GCC pop_options
}  // namespace isa_avx2
#endif
namespace isa_baseline {
#include "row_loops.inc"
}  // namespace isa_baseline

namespace {

// One build of the row loops.
struct RowLoops {
  decltype(&isa_baseline::yz_sums) yz_sums;
  decltype(&isa_baseline::yz_sums_rolling) yz_sums_rolling;
  decltype(&isa_baseline::z_pair_sum) z_pair_sum;
  decltype(&isa_baseline::resid_row) resid_row;
  decltype(&isa_baseline::psinv_row) psinv_row;
  decltype(&isa_baseline::rprj3_row) rprj3_row;
  decltype(&isa_baseline::interp_rows) interp_rows;
};
#define ARMADA_MG_ROW_LOOPS(ns) \
  RowLoops { &ns::yz_sums, &ns::yz_sums_rolling, &ns::z_pair_sum, &ns::resid_row, &ns::psinv_row, &ns::rprj3_row, &ns::interp_rows }

// Indexed by RowIsa.
const RowLoops kLoops[] = {
#if ARMADA_MG_ROW_ISAS
    ARMADA_MG_ROW_LOOPS(isa_avx512),
    ARMADA_MG_ROW_LOOPS(isa_avx2),
#else
    ARMADA_MG_ROW_LOOPS(isa_baseline),
    ARMADA_MG_ROW_LOOPS(isa_baseline),
#endif
    ARMADA_MG_ROW_LOOPS(isa_baseline),
};

RowIsa g_isa = supported_row_isas().front();
const RowLoops* g_rows = &kLoops[static_cast<int>(g_isa)];

// Row temporaries for the y/z sums of one plane's rows: faces, diagonals and three z sums.
std::vector<double> yz_buffer(const Frame& in) { return std::vector<double>(5 * static_cast<std::size_t>(in.n[2] + 2)); }

// Calls row(j, faces, diagonals) for every interior row j of plane k of `in`, with the y/z sums
// of that row over the whole x extent, ghosts included. `buffer` from yz_buffer(in).
template <class Row>
void plane_rows_with_yz_sums(const Frame& in, Index k, std::vector<double>& buffer, Row&& row) {
  const Index nx = in.n[2] + 2;
  const auto len = static_cast<std::size_t>(nx);
  double* const faces = buffer.data();
  double* const diagonals = faces + len;
  double* z[3] = {diagonals + len, diagonals + 2 * len, diagonals + 3 * len};  // z(j-1), z(j), z(j+1)
  g_rows->z_pair_sum(in, k, 0, nx, z[0]);
  g_rows->z_pair_sum(in, k, 1, nx, z[1]);
  for (Index j = 1; j <= in.n[1]; ++j) {
    g_rows->yz_sums_rolling(in, k, j, nx, z[0], z[1], z[2], faces, diagonals);
    row(j, faces, diagonals);
    std::rotate(z, z + 1, z + 3);
  }
}

// r = v - A u on interior plane k.
void resid_plane(const Frame& u, const Frame& v, const Frame& r, const Stencil& a, Index k, std::vector<double>& buffer) {
  plane_rows_with_yz_sums(u, k, buffer, [&](Index j, const double* f, const double* d) {
    g_rows->resid_row(v.row(k, j), u.row(k, j), f, d, r.row(k, j), u.n[2], a);
  });
}

// u = u + S r on interior plane k.
void psinv_plane(const Frame& r, const Frame& u, const Stencil& c, Index k, std::vector<double>& buffer) {
  plane_rows_with_yz_sums(r, k, buffer, [&](Index j, const double* f, const double* d) {
    g_rows->psinv_row(r.row(k, j), f, d, u.row(k, j), r.n[2], c);
  });
}

// u = u + Q z on the fine planes 2k and 2k+1 that coarse plane k (ghost 0 included) feeds.
void interp_plane(const Frame& z, const Frame& u, Index k, std::vector<double>& rows) {
  const Index mx = z.n[2];
  const auto len = static_cast<std::size_t>(mx + 2);
  double* const z1 = rows.data();
  double* const z2 = z1 + len;
  double* const z3 = z2 + len;
  for (Index j = 0; j <= z.n[1]; ++j)
    g_rows->interp_rows(z.row(k, j), z.row(k, j + 1), z.row(k + 1, j), z.row(k + 1, j + 1), z1, z2, z3, u.row(2 * k, 2 * j),
                        u.row(2 * k, 2 * j + 1), u.row(2 * k + 1, 2 * j), u.row(2 * k + 1, 2 * j + 1), mx);
}

// Row temporaries of the restriction: a fine row's y/z face and diagonal sums.
std::vector<double> rprj3_buffer(const Frame& s) { return std::vector<double>(2 * static_cast<std::size_t>(2 * s.n[2] + 2)); }

// s = P r on coarse plane k, from fine planes 2k-1..2k+1 (frame coordinates: coarse (k, j, i)
// sits on fine (2k, 2j, 2i)) and their upper ghost rows and columns.
void rprj3_plane(const Frame& r, const Frame& s, Index k, std::vector<double>& sums) {
  const Index mx = s.n[2];
  double* const x1 = sums.data();
  double* const y1 = x1 + 2 * mx + 2;
  for (Index j = 1; j <= s.n[1]; ++j) {
    g_rows->yz_sums(r, 2 * k, 2 * j, 1, 2 * mx + 2, x1, y1);
    g_rows->rprj3_row(r.row(2 * k, 2 * j), x1, y1, s.row(k, j), mx);
  }
}

std::vector<double> interp_buffer(const Frame& z) { return std::vector<double>(3 * static_cast<std::size_t>(z.n[2] + 2)); }

}  // namespace

void resid(const Frame& u, const Frame& v, const Frame& r, const Stencil& a) {
  if (u.empty()) return;
  std::vector<double> buffer = yz_buffer(u);
  for (Index k = 1; k <= u.n[0]; ++k) resid_plane(u, v, r, a, k, buffer);
}

void psinv(const Frame& r, const Frame& u, const Stencil& c) {
  if (!r.empty()) psinv_planes(r, u, c, 1, r.n[0]);
}

void psinv_planes(const Frame& r, const Frame& u, const Stencil& c, Index first, Index last) {
  if (r.empty()) return;
  std::vector<double> buffer = yz_buffer(r);
  for (Index k = first; k <= last; ++k) psinv_plane(r, u, c, k, buffer);
}

void resid_planes(const Frame& u, const Frame& v, const Frame& r, const Stencil& a, Index first, Index last) {
  if (u.empty()) return;
  std::vector<double> buffer = yz_buffer(u);
  for (Index k = first; k <= last; ++k) resid_plane(u, v, r, a, k, buffer);
}

void wrap_plane_xy(const Frame& f, Index k) {
  const Index ny = f.n[1], nx = f.n[2];
  for (Index j = 1; j <= ny; ++j) {
    double* row = f.row(k, j);
    row[0] = row[nx];
    row[nx + 1] = row[1];
  }
  const auto len = static_cast<std::size_t>(nx + 2);
  std::memcpy(f.row(k, 0), f.row(k, ny), len * sizeof(double));
  std::memcpy(f.row(k, ny + 1), f.row(k, 1), len * sizeof(double));
}

FinestPassInner finest_pass_inner(Index n) { return {2, n - 1, 3, n - 2, 2, (n - 3) / 2}; }

void finest_pass(const Frame& z, const Frame& u, const Frame& v, const Frame& r, const Stencil& a, const Stencil& c,
                 const Frame& s) {
  if (u.empty()) return;
  const FinestPassInner in = finest_pass_inner(u.n[0]);
  std::vector<double> rows = interp_buffer(z), buffer = yz_buffer(u), sums;
  if (!s.empty()) sums = rprj3_buffer(s);
  // Each step on a plane once the planes it reads are final: interp of coarse plane kc
  // completes u up to fine plane 2kc+1; the first residual of plane f (u up to f+1); the
  // smoothing of p = f-1 (r up to f); the second residual of q = p-1 (smoothed u up to p),
  // which overwrites r(q) after the last smoothing that reads it (p = q+1); the restriction of
  // coarse plane (q-1)/2 for odd q (second residuals up to q). Every plane a step writes is
  // wrapped in x and y before the next step reads it.
  for (Index kc = 0; kc <= z.n[0]; ++kc) {
    interp_plane(z, u, kc, rows);
    for (Index f = std::max<Index>(1, 2 * kc - 1); f <= std::min(2 * kc, u.n[0]); ++f) {
      resid_plane(u, v, r, a, f, buffer);
      wrap_plane_xy(r, f);
      const Index p = f - 1;
      if (p < in.smooth_lo || p > in.smooth_hi) continue;
      psinv_plane(r, u, c, p, buffer);
      wrap_plane_xy(u, p);
      const Index q = p - 1;
      if (q < in.resid_lo || q > in.resid_hi) continue;
      resid_plane(u, v, r, a, q, buffer);
      if (s.empty()) continue;
      wrap_plane_xy(r, q);
      const Index k = (q - 1) / 2;
      if (q % 2 == 1 && k >= in.restrict_lo && k <= in.restrict_hi) rprj3_plane(r, s, k, sums);
    }
  }
}

void rprj3_planes(const Frame& r, const Frame& s, Index first, Index last) {
  if (s.empty()) return;
  std::vector<double> sums = rprj3_buffer(s);
  for (Index k = first; k <= last; ++k) rprj3_plane(r, s, k, sums);
}

void rprj3(const Frame& r, const Frame& s) {
  if (!s.empty()) rprj3_planes(r, s, 1, s.n[0]);
}

void interp(const Frame& z, const Frame& u) {
  if (u.empty()) return;
  std::vector<double> rows = interp_buffer(z);
  for (Index k = 0; k <= z.n[0]; ++k) interp_plane(z, u, k, rows);
}

void interp_resid(const Frame& z, const Frame& u, const Frame& v, const Frame& r, const Stencil& a) {
  if (u.empty()) return;
  std::vector<double> rows = interp_buffer(z), buffer = yz_buffer(u);
  // Coarse plane k completes fine planes up to 2k+1: fine planes 2k-1 and 2k then have both
  // neighbours, and their residual reads them while they are still in cache.
  for (Index k = 0; k <= z.n[0]; ++k) {
    interp_plane(z, u, k, rows);
    for (Index f = std::max<Index>(1, 2 * k - 1); f <= std::min(2 * k, u.n[0]); ++f) resid_plane(u, v, r, a, f, buffer);
  }
}

void zero(const Frame& f) {
  if (f.empty()) return;
  for (Index k = 0; k <= f.n[0] + 1; ++k)
    for (Index j = 0; j <= f.n[1] + 1; ++j) std::fill_n(f.row(k, j), f.n[2] + 2, 0.0);
}

NormParts norm_parts(const Frame& r) {
  NormParts p;
  if (r.empty()) return p;
  for (Index k = 1; k <= r.n[0]; ++k)
    for (Index j = 1; j <= r.n[1]; ++j) {
      const double* __restrict rc = r.row(k, j);
      double s = 0, m = 0;
      for (Index i = 1; i <= r.n[2]; ++i) {
        s += rc[i] * rc[i];
        m = std::max(m, std::fabs(rc[i]));
      }
      p.sum_squares += s;
      p.max_abs = std::max(p.max_abs, m);
    }
  return p;
}

void copy_box(const Frame& f, Dim3<Index> src, Dim3<Index> dst, Dim3<Index> extent) {
  for (Index k = 0; k < extent[0]; ++k)
    for (Index j = 0; j < extent[1]; ++j) {
      const double* from = &f.at(src[0] + k, src[1] + j, src[2]);
      double* to = &f.at(dst[0] + k, dst[1] + j, dst[2]);
      if (extent[2] == 1) *to = *from;  // x faces and edges: one element per row
      else std::memcpy(to, from, static_cast<std::size_t>(extent[2]) * sizeof(double));
    }
}

const char* name(RowIsa isa) {
  switch (isa) {
    case RowIsa::avx512: return "avx512";
    case RowIsa::avx2: return "avx2";
    case RowIsa::baseline: break;
  }
  return "baseline";
}

std::optional<RowIsa> row_isa_named(std::string_view text) {
  for (RowIsa isa : {RowIsa::avx512, RowIsa::avx2, RowIsa::baseline})
    if (text == name(isa)) return isa;
  return std::nullopt;
}

std::vector<RowIsa> supported_row_isas() {
  std::vector<RowIsa> isas;
#if ARMADA_MG_ROW_ISAS
  __builtin_cpu_init();  // g_isa's initializer may run before libgcc's own constructor has
  if (__builtin_cpu_supports("avx512f")) isas.push_back(RowIsa::avx512);
  if (__builtin_cpu_supports("avx2")) isas.push_back(RowIsa::avx2);
#endif
  isas.push_back(RowIsa::baseline);
  return isas;
}

RowIsa row_isa() { return g_isa; }

void use_row_isa(RowIsa isa) {
  g_isa = isa;
  g_rows = &kLoops[static_cast<int>(isa)];
}

// The probe times 16 planes for a few milliseconds: on the AMD EPYC VM its AVX2/baseline ratio
// spread 0.79–1.09 over 40 launches while AVX2 was 5 % faster over every whole class A run, and
// the 2–8 % of launches that picked the baseline ran MG B 15 % slower (docs/apps.md). A vector
// build within the probe's noise of the baseline is the better bet; between vector builds the
// differences are real (AVX-512 +9 % on an Intel VM, -30 % on the AMD one) and the faster wins.
RowIsa pick_row_isa(const double (&seconds)[kRowIsaCount]) {
  const auto time = [&](RowIsa isa) { return seconds[static_cast<int>(isa)]; };
  const RowIsa vector = time(RowIsa::avx512) < time(RowIsa::avx2) ? RowIsa::avx512 : RowIsa::avx2;
  if (!std::isfinite(time(vector))) return RowIsa::baseline;  // no vector build ran here
  return time(RowIsa::baseline) < (1.0 - kBaselineMargin) * time(vector) ? RowIsa::baseline : vector;
}

std::vector<IsaTime> time_row_isas(const Frame& u, const Frame& v, const Frame& r, const Stencil& a, int rounds) {
  const std::vector<RowIsa> isas = supported_row_isas();
  std::vector<IsaTime> best;
  for (RowIsa isa : isas) best.push_back({isa, std::numeric_limits<double>::infinity()});
  const RowIsa kept = g_isa;
  for (int round = 0; round < rounds; ++round)
    for (std::size_t n = 0; n < isas.size(); ++n) {
      // Rotated, so that no build always runs first (after a cache-cold or a slow moment).
      IsaTime& t = best[(n + static_cast<std::size_t>(round)) % isas.size()];
      use_row_isa(t.isa);
      const auto start = std::chrono::steady_clock::now();
      resid(u, v, r, a);
      t.seconds = std::min(t.seconds, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
  use_row_isa(kept);
  return best;
}

}  // namespace armada::mg
