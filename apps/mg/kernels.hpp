// MG's local kernels: each works in place on one rank's block of a level, stored with a ghost
// frame of width 1, and touches nothing else. Ghost cells that a kernel reads must be current
// (the caller exchanges them); kernels write only the interior, except interp, which writes the
// whole frame (see there).
//
// Coordinates are frame coordinates: (k, j, i) = (z, y, x), 0 and n+1 are the ghost layers;
// x is contiguous. The arithmetic follows NPB 3.4's MG term by term and in the same order, and
// the inner loops run over contiguous x with row temporaries so that they vectorize.
#pragma once

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
