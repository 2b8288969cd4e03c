// MG's local kernels: each works in place on one rank's block of a level, stored with a ghost
// frame of width 1, and touches nothing else. Ghost cells that a kernel reads must be current
// (the caller exchanges them); kernels write only the interior, except interp, which writes the
// whole frame (see there).
//
// Coordinates are frame coordinates: (k, j, i) = (z, y, x), 0 and n+1 are the ghost layers;
// x is contiguous. The arithmetic follows NPB 3.4's MG term by term and in the same order, and
// the inner loops run over contiguous x with row temporaries so that they vectorize.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "classes.hpp"
#include "grid.hpp"

namespace armada::mg {

/// A block with its ghost frame: interior n[0] x n[1] x n[2]; element (k, j, i) is
/// data[k*sz + j*sy + i]. An empty Frame (no data) stands for a rank that owns nothing.
struct Frame {
  double* data = nullptr;
  Dim3<Index> n{0, 0, 0};
  Index sy = 0, sz = 0;  ///< strides of y and z (x has stride 1)

  bool empty() const noexcept { return data == nullptr; }
  double* row(Index k, Index j) const noexcept { return data + k * sz + j * sy; }
  double& at(Index k, Index j, Index i) const noexcept { return data[k * sz + j * sy + i]; }
  /// The sub-frame whose frame coordinate 0 is (k, j, i) here, with interior `m`.
  Frame sub(Index k, Index j, Index i, Dim3<Index> m) const noexcept { return {&at(k, j, i), m, sy, sz}; }
};

/// r = v - A u on the interior (v may be r itself). Reads u's ghost frame.
void resid(const Frame& u, const Frame& v, const Frame& r, const Stencil& a);

/// u = u + S r on the interior (the smoother). Reads r's ghost frame.
void psinv(const Frame& r, const Frame& u, const Stencil& c);

/// s = P r: the trilinear restriction of fine r (interior 2m) onto coarse s (interior m); coarse
/// point J takes fine point 2J+1 and its 26 neighbours (weights 1/2, 1/4, 1/8, 1/16 by distance).
/// Reads r's upper ghost layers (not the lower ones).
void rprj3(const Frame& r, const Frame& s);

/// u = u + Q z: trilinear prolongation of coarse z (interior m, ghosts current) onto fine u
/// (interior 2m). Fine point 2J+1 takes coarse J; fine 2J+2 the mean of coarse J and J+1.
/// Writes the whole frame of u, ghosts included: the ghost values come out exactly as the
/// neighbour computes them in its interior (same inputs, same operations), so u's ghosts stay
/// current without an exchange when they were current before.
void interp(const Frame& z, const Frame& u);

/// interp(z, u), then resid(u, v, r, a), in one pass over the planes: each fine plane's residual
/// is computed as soon as interp has written the plane and its neighbours, while they are in
/// cache, so u is read from memory once instead of twice. The same results as the two calls, to
/// the bit (the same operations on the same values); v may be r.
void interp_resid(const Frame& z, const Frame& u, const Frame& v, const Frame& r, const Stencil& a);

/// r = v - A u on the interior planes first..last only.
void resid_planes(const Frame& u, const Frame& v, const Frame& r, const Stencil& a, Index first, Index last);

/// Plane k's ghost columns, then its ghost rows (corners included), from the plane's own
/// interior, periodically: what the ghost exchange writes there when one rank holds x and y whole.
void wrap_plane_xy(const Frame& f, Index k);

/// The finest level's steps of a timed-loop iteration after the coarser levels: interp(z, u),
/// resid(u, v, r), psinv(r, u), resid(u, v, r) and, with a coarse frame `s` (not empty), the
/// next cycle's rprj3(r, s), as one pass over the planes: each step on a plane as soon as the
/// planes it reads are final, while they are in cache, so u and r are read from memory about
/// once instead of five times. The block must span x and y whole: the x/y ghosts each step
/// reads are the plane's own periodic wrap (wrap_plane_xy). The steps run only on the planes
/// that do not need the neighbour's z ghosts (finest_pass_inner); the caller completes each on
/// the other planes after the ghost exchange that step needs, in NPB's order: exchange r,
/// psinv_planes, exchange u, resid_planes, exchange r, rprj3_planes. The results are the
/// separate steps' to the bit.
void finest_pass(const Frame& z, const Frame& u, const Frame& v, const Frame& r, const Stencil& a, const Stencil& c,
                 const Frame& s);
/// The planes finest_pass runs each later step on, for a block of n planes (the first residual
/// and interp run on every plane): an empty range when lo > hi.
struct FinestPassInner {
  Index smooth_lo, smooth_hi;      ///< psinv: the r planes around it are first residuals
  Index resid_lo, resid_hi;        ///< the second residual: the u planes around it are smoothed
  Index restrict_lo, restrict_hi;  ///< rprj3's coarse planes: their fine planes are second residuals
};
FinestPassInner finest_pass_inner(Index n);

/// psinv(r, u, c) on the interior planes first..last only.
void psinv_planes(const Frame& r, const Frame& u, const Stencil& c, Index first, Index last);

/// rprj3(r, s) on the coarse planes first..last only.
void rprj3_planes(const Frame& r, const Frame& s, Index first, Index last);

/// The instruction sets the row loops (most of resid, psinv, rprj3 and interp) are built for.
/// Every build gives the same results to the bit; which is fastest depends on the CPU and the
/// machine, not only on its flags (kernels.cpp), hence a choice at run time.
enum class RowIsa { avx512, avx2, baseline };
inline constexpr int kRowIsaCount = 3;
const char* name(RowIsa isa);
std::optional<RowIsa> row_isa_named(std::string_view text);
/// The builds this CPU can run, widest first (baseline always).
std::vector<RowIsa> supported_row_isas();
/// The build every kernel uses from now on (initially the widest supported). Not thread-safe:
/// call it before the kernels run.
void use_row_isa(RowIsa isa);
RowIsa row_isa();

/// resid(u, v, r, a) timed with each supported build: the fastest of `rounds` runs each (the
/// order rotated every round). Leaves the build in use unchanged; writes r.
struct IsaTime {
  RowIsa isa;
  double seconds;
};
std::vector<IsaTime> time_row_isas(const Frame& u, const Frame& v, const Frame& r, const Stencil& a, int rounds);

/// How much faster than the fastest vector build the baseline must time to be chosen: the
/// probe's own spread (kernels.cpp).
inline constexpr double kBaselineMargin = 0.10;
/// The build to use given each build's time (by RowIsa; infinity: not run here): the fastest
/// vector build, unless the baseline beats it by more than kBaselineMargin.
RowIsa pick_row_isa(const double (&seconds)[kRowIsaCount]);

/// Every element of the frame (ghosts included) = 0.
void zero(const Frame& f);

/// Sum of squares and largest magnitude over the interior (the local part of norm2u3).
struct NormParts {
  double sum_squares = 0;
  double max_abs = 0;
};
NormParts norm_parts(const Frame& r);

/// dst box = src box: copies `extent` elements per dimension between frame positions (the local
/// part of a ghost exchange).
void copy_box(const Frame& f, Dim3<Index> src, Dim3<Index> dst, Dim3<Index> extent);

}  // namespace armada::mg
